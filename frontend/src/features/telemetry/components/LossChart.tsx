import { useId, useMemo } from 'react';

import { LineSwatch } from '@/components/LineSwatch';
import { useElementWidth } from '@/lib/useElementWidth';

import type { LinkTelemetry } from '../api/types';
import { ChartAxes } from './ChartAxes';
import { buildLossChart, formatDecade, LOSS_FLOOR, LOSS_THRESHOLD_STYLE } from './lossChart';
import { TimeBrush } from './TimeBrush';
import { formatUtc } from './timeSeries';

interface LossChartProps {
  telemetry: LinkTelemetry;
  onZoom: (start: Date, end: Date) => void;
  /** Overrides the measured width (component tests have no layout engine). */
  width?: number;
}

const FLOOR_TEXT = formatDecade(Math.round(Math.log10(LOSS_FLOOR)));

export function LossChart({ telemetry, onZoom, width: fixedWidth }: LossChartProps) {
  const { ref, width: measuredWidth } = useElementWidth<HTMLDivElement>();
  const width = fixedWidth ?? measuredWidth;
  const plotHeight = width < 520 ? 180 : 240;
  const chart = useMemo(() => buildLossChart(telemetry, { width, plotHeight }), [telemetry, width, plotHeight]);
  const clipId = useId();
  const { area } = chart;
  const rates = chart.lines.reduce((sum, line) => sum + line.measured, 0);
  const gaps = chart.lines.reduce((sum, line) => sum + line.gaps, 0);
  const summary =
    `Corruption and congestion loss rate per direction on a log scale, ${formatUtc(telemetry.from)} to ` +
    `${formatUtc(telemetry.to)}: ${rates.toLocaleString('en-US')} rates, ${gaps} gap${gaps === 1 ? '' : 's'}.`;

  return (
    <div className="telemetry-chart" data-testid="loss-chart" data-resolution={chart.resolution}>
      <ul className="legend" aria-label="Loss rate legend">
        {chart.lines.map((line) => (
          <li key={line.key} data-testid={`loss-legend-${line.key}`}>
            <LineSwatch colour={line.colour} width={2.5} dash={line.dash} />
            {line.label}
          </li>
        ))}
        {chart.thresholds.map((threshold) => (
          <li key={threshold.key}>
            <LineSwatch colour={threshold.colour} width={1.5} dash={threshold.dash} />
            {LOSS_THRESHOLD_STYLE[threshold.key].label}
          </li>
        ))}
        {chart.hasClampedZeros ? (
          <li data-testid="loss-legend-zero">
            <svg width="12" height="12" aria-hidden="true">
              <circle cx="6" cy="6" r="3.5" className="zero-dot" />
            </svg>
            Rate 0: drawn on the bottom line at {FLOOR_TEXT} (a log axis has no zero)
          </li>
        ) : null}
        <li className="legend-note">A break in a line: no rate (counter reset or missing polls), not a zero.</li>
      </ul>
      <div ref={ref} className="chart-stage">
        <svg
          width={area.width}
          height={area.height}
          viewBox={`0 0 ${area.width} ${area.height}`}
          role="img"
          aria-label={summary}
        >
          <defs>
            <clipPath id={clipId}>
              {/* A little room below the floor so dots drawn on it are not cut in half. */}
              <rect x={area.left} y={area.top - 4} width={area.right - area.left} height={area.bottom - area.top + 8} />
            </clipPath>
          </defs>
          <ChartAxes
            area={area}
            xTicks={chart.xTicks}
            yTicks={chart.yTicks}
            yTitle={chart.hasClampedZeros ? 'Loss rate (fraction, log; 0 at floor)' : 'Loss rate (fraction, log)'}
          />
          <TimeBrush x={chart.x} area={area} onSelect={onZoom} />
          <g clipPath={`url(#${clipId})`} className="chart-marks">
            {chart.thresholds.map((threshold) => (
              <line
                key={threshold.key}
                data-testid={`loss-threshold-${threshold.key}`}
                x1={area.left}
                x2={area.right}
                y1={threshold.y}
                y2={threshold.y}
                stroke={threshold.colour}
                strokeWidth={1.5}
                strokeDasharray={threshold.dash}
              />
            ))}
            {chart.lines.map((line) => (
              <path
                key={line.key}
                data-testid="loss-line"
                data-series={line.key}
                data-measured={line.measured}
                d={line.path}
                fill="none"
                stroke={line.colour}
                strokeWidth={line.kind === 'corruption' ? 2 : 1.75}
                strokeDasharray={line.dash}
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            ))}
          </g>
          <g className="loss-dots">
            {chart.lines.map((line) =>
              line.dots.map((dot) => (
                <circle
                  key={`${line.key}-${dot.key}`}
                  data-testid="loss-dot"
                  data-series={line.key}
                  data-clamped={dot.clamped ? 'true' : 'false'}
                  cx={dot.x}
                  cy={dot.y}
                  r={dot.clamped ? 3 : 2.5}
                  fill={dot.clamped ? '#fff' : line.colour}
                  stroke={line.colour}
                  strokeWidth={1.25}
                >
                  <title>{dot.clamped ? `${dot.text} (drawn at ${FLOOR_TEXT})` : dot.text}</title>
                </circle>
              )),
            )}
          </g>
          {chart.thresholds.map((threshold) => (
            <text
              key={threshold.key}
              className="threshold-label"
              x={area.right - 4}
              y={threshold.labelY}
              textAnchor="end"
              style={{ fill: threshold.colour }}
            >
              {threshold.text}
            </text>
          ))}
        </svg>
        {chart.hasData ? null : (
          <p className="chart-empty" data-testid="loss-empty">
            No loss rates in this range: a rate needs two counter polls one window apart on each end.
          </p>
        )}
      </div>
    </div>
  );
}
