import { type ReactNode, type Ref, useId } from 'react';

import { LineSwatch } from '@/components/LineSwatch';

import { ChartAxes } from '@/components/charts/ChartAxes';
import { ChartReadoutLine, ChartReadoutText } from '@/components/charts/ChartReadout';
import { useChartReadout } from '@/components/charts/useChartReadout';
import type { ReadoutSeries } from '@/components/charts/readout';
import { TimeBrush } from './TimeBrush';
import type { TimeFrame } from './timeSeries';

/** A line sample and its label in the legend. */
export interface LegendSwatch {
  key: string;
  label: string;
  colour: string;
  /** Stroke width of the sample: lines 2.5, thresholds 1.5. */
  width: number;
  dash?: string;
  testId?: string;
}

/** A horizontal threshold across the plot, with its label at the right end (or the left). */
export interface ThresholdMark {
  key: string;
  testId: string;
  y: number;
  /** Baseline of the label, kept clear of the other thresholds' labels. */
  labelY: number;
  colour: string;
  dash: string;
  text: string;
  /** Drawn faint: a line beside the point of the chart (e.g. a limit the forecast does not cross). */
  muted?: boolean;
}

interface TimeChartProps {
  /** data-testid of the chart, e.g. "loss-chart". */
  testId: string;
  stageRef: Ref<HTMLDivElement>;
  /** Plot area, time scale and time ticks of the chart's model, plus its value axis. */
  frame: TimeFrame & { resolution: string };
  yTicks: TimeFrame['xTicks'];
  /** With its unit, e.g. "Optical power (dBm)". */
  yTitle: string;
  /** What the chart shows, for screen readers (the SVG's label). */
  summary: string;
  onZoom: (start: Date, end: Date) => void;
  legend: {
    label: string;
    swatches: LegendSwatch[];
    /** Entries after the swatches that need their own mark (a dot, a band, a triangle). */
    extra?: ReactNode;
    /** The last entry, in small print: what a break in a line means. */
    note: string;
  };
  thresholds?: ThresholdMark[];
  /**
   * Which end of its line a threshold's label sits at: 'right' (default), or 'left' for a chart
   * whose marks gather at the right (the power chart's forecast trend and crossing).
   */
  thresholdLabels?: 'left' | 'right';
  /** Room the clip leaves above and below the plot, for marks drawn on its edge. */
  clipOverhang?: number;
  /** Marks under the thresholds, clipped to the plot (bands). */
  underlay?: ReactNode;
  /** Marks over the thresholds, clipped to the plot (lines). */
  children: ReactNode;
  /** Marks over everything, not clipped (dots and marks on the plot's edge). */
  overlay?: ReactNode;
  /** Shown under the plot when the range holds nothing to draw. */
  empty?: { testId: string; message: ReactNode } | null;
  /** The lines whose values the hover readout reads (pointer, or focus and the arrow keys). */
  readout?: readonly ReadoutSeries[];
}

/**
 * The frame every telemetry chart shares: legend, stage, SVG, clip, time and value axes,
 * drag-to-zoom brush and threshold lines. A chart brings its model (y scale, ticks, paths) and
 * its marks; positions all come from the model.
 */
export function TimeChart({
  testId,
  stageRef,
  frame,
  yTicks,
  yTitle,
  summary,
  onZoom,
  legend,
  thresholds = [],
  thresholdLabels = 'right',
  clipOverhang = 0,
  underlay,
  children,
  overlay,
  empty,
  readout: readoutSeries = [],
}: TimeChartProps) {
  const clipId = useId();
  const { area } = frame;
  const { readout, readoutX, hasReadout, svgProps } = useChartReadout(readoutSeries, frame.x, area);
  return (
    <div className="telemetry-chart" data-testid={testId} data-resolution={frame.resolution}>
      <ul className="legend" aria-label={legend.label}>
        {legend.swatches.map((swatch) => (
          <li key={swatch.key} data-testid={swatch.testId}>
            <LineSwatch colour={swatch.colour} width={swatch.width} dash={swatch.dash} />
            {swatch.label}
          </li>
        ))}
        {legend.extra}
        <li className="legend-note">{legend.note}</li>
      </ul>
      {hasReadout ? <ChartReadoutText testId={`${testId}-readout`} readout={readout} /> : null}
      <div ref={stageRef} className="chart-stage">
        <svg
          width={area.width}
          height={area.height}
          viewBox={`0 0 ${area.width} ${area.height}`}
          role="img"
          aria-label={summary}
          {...svgProps}
        >
          <defs>
            <clipPath id={clipId}>
              <rect
                x={area.left}
                y={area.top - clipOverhang}
                width={area.right - area.left}
                height={area.bottom - area.top + 2 * clipOverhang}
              />
            </clipPath>
          </defs>
          <ChartAxes area={area} xTicks={frame.xTicks} yTicks={yTicks} yTitle={yTitle} />
          <TimeBrush x={frame.x} area={area} onSelect={onZoom} />
          <g clipPath={`url(#${clipId})`} className="chart-marks">
            {underlay}
            {thresholds.map((threshold) => (
              <line
                key={threshold.key}
                data-testid={threshold.testId}
                x1={area.left}
                x2={area.right}
                y1={threshold.y}
                y2={threshold.y}
                stroke={threshold.colour}
                strokeWidth={1.5}
                strokeDasharray={threshold.dash}
                strokeOpacity={threshold.muted ? 0.4 : undefined}
              />
            ))}
            {children}
          </g>
          {overlay}
          <ChartReadoutLine testId={`${testId}-readout-line`} x={readoutX} area={area} />
          {thresholds.map((threshold) => (
            <text
              key={threshold.key}
              // A muted limit's label is lighter in weight, not faded: faded text fell under 4.5:1
              // on the dark theme (trial 30).
              className={threshold.muted ? 'threshold-label threshold-label-muted' : 'threshold-label'}
              x={thresholdLabels === 'left' ? area.left + 4 : area.right - 4}
              y={threshold.labelY}
              textAnchor={thresholdLabels === 'left' ? 'start' : 'end'}
              style={{ fill: threshold.colour }}
            >
              {threshold.text}
            </text>
          ))}
        </svg>
        {empty ? (
          <p className="chart-empty" data-testid={empty.testId}>
            {empty.message}
          </p>
        ) : null}
      </div>
    </div>
  );
}
