import { useId, useMemo } from 'react';

import { LineSwatch } from '@/components/LineSwatch';
import { useElementWidth } from '@/lib/useElementWidth';

import type { LinkTelemetry, Side } from '../api/types';
import { ChartAxes } from './ChartAxes';
import { buildPowerChart, THRESHOLD_STYLE } from './powerChart';
import { TimeBrush } from './TimeBrush';
import { formatUtc } from './timeSeries';

/** Height of the no-light marks, drawn along the bottom of the plot. */
const MARK_PX = 7;

interface PowerChartProps {
  telemetry: LinkTelemetry;
  sideNames: Record<Side, string>;
  onZoom: (start: Date, end: Date) => void;
  /** Overrides the measured width (component tests have no layout engine). */
  width?: number;
}

export function PowerChart({ telemetry, sideNames, onZoom, width: fixedWidth }: PowerChartProps) {
  const { ref, width: measuredWidth } = useElementWidth<HTMLDivElement>();
  const width = fixedWidth ?? measuredWidth;
  const plotHeight = width < 520 ? 180 : 240;
  const chart = useMemo(
    () => buildPowerChart(telemetry, { width, plotHeight, sideNames }),
    [telemetry, width, plotHeight, sideNames],
  );
  const clipId = useId();
  const { area } = chart;
  const readings = chart.lines.reduce((sum, line) => sum + line.measured, 0);
  const summary =
    `Tx and Rx optical power of both ends in dBm, ${formatUtc(telemetry.from)} to ${formatUtc(telemetry.to)}` +
    `${chart.resolution === 'hour' ? ', hourly averages with min–max bands' : ''}: ` +
    `${readings.toLocaleString('en-US')} readings, ${chart.noLight.length} no-light mark${chart.noLight.length === 1 ? '' : 's'}.`;

  return (
    <div className="telemetry-chart" data-testid="power-chart" data-resolution={chart.resolution}>
      <ul className="legend" aria-label="Optical power legend">
        {chart.lines.map((line) => (
          <li key={line.key} data-testid={`power-legend-${line.key}`}>
            <LineSwatch colour={line.colour} width={2.5} dash={line.dash} />
            {line.label}
          </li>
        ))}
        {chart.thresholds.some((threshold) => threshold.kind === 'rx') ? (
          <li>
            <LineSwatch colour={THRESHOLD_STYLE.rx.colour} width={1.5} dash={THRESHOLD_STYLE.rx.dash} />
            {THRESHOLD_STYLE.rx.label}
          </li>
        ) : null}
        {chart.thresholds.some((threshold) => threshold.kind === 'tx') ? (
          <li>
            <LineSwatch colour={THRESHOLD_STYLE.tx.colour} width={1.5} dash={THRESHOLD_STYLE.tx.dash} />
            {THRESHOLD_STYLE.tx.label}
          </li>
        ) : null}
        {chart.resolution === 'hour' ? (
          <li>
            <span className="swatch swatch-band" aria-hidden="true" />
            Hourly min–max (line: hourly average)
          </li>
        ) : null}
        <li>
          <svg width="12" height="10" aria-hidden="true">
            <path d="M1,1 L11,1 L6,9 Z" className="no-light-mark" />
          </svg>
          No light (dark Rx or Tx)
        </li>
        <li className="legend-note">A break in a line: no reading (dark, or polls missing).</li>
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
              <rect x={area.left} y={area.top} width={area.right - area.left} height={area.bottom - area.top} />
            </clipPath>
          </defs>
          <ChartAxes area={area} xTicks={chart.xTicks} yTicks={chart.yTicks} yTitle="Optical power (dBm)" />
          <TimeBrush x={chart.x} area={area} onSelect={onZoom} />
          <g clipPath={`url(#${clipId})`} className="chart-marks">
            {chart.lines.map((line) =>
              line.band ? (
                <path
                  key={`${line.key}-band`}
                  className="power-band"
                  d={line.band}
                  fill={line.colour}
                  fillOpacity={0.15}
                />
              ) : null,
            )}
            {chart.thresholds.map((threshold) => (
              <line
                key={threshold.key}
                data-testid="power-threshold"
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
                data-testid="power-line"
                data-series={line.key}
                data-measured={line.measured}
                d={line.path}
                fill="none"
                stroke={line.colour}
                strokeWidth={2}
                strokeDasharray={line.dash}
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            ))}
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
          <g className="no-light-marks">
            {chart.noLight.map((mark) => (
              <path
                key={mark.key}
                data-testid="no-light-mark"
                data-series={mark.series}
                className="no-light-mark"
                d={`M${mark.x - MARK_PX / 2},${area.bottom - MARK_PX - 1} L${mark.x + MARK_PX / 2},${area.bottom - MARK_PX - 1} L${mark.x},${area.bottom - 1} Z`}
                stroke={mark.colour}
              >
                <title>{mark.text}</title>
              </path>
            ))}
          </g>
        </svg>
        {chart.hasData ? null : (
          <p className="chart-empty" data-testid="power-empty">
            No optical readings in this range.
            {chart.resolution === 'hour' ? ' Hourly aggregates are written once an hour has passed.' : ''}
          </p>
        )}
      </div>
    </div>
  );
}
