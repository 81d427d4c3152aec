import { useMemo } from 'react';

import type { LinkForecastAnswer } from '@/features/forecasts';
import { formatCount, formatTime } from '@/lib/format';

import type { LinkTelemetry, Side } from '../api/types';
import { type LegendSwatch, TimeChart } from './TimeChart';
import { buildPowerChart, formatDbm, THRESHOLD_STYLE } from './powerChart';
import { useTimeChartSize } from './useTimeChartSize';

/** The forecast trend: dotted (round caps on short dashes), so it never reads as measured. */
const FORECAST_DASH = '1 5';

/** Height of the no-light marks, drawn along the bottom of the plot. */
const MARK_PX = 7;

/** Radius of the dot of the forecast lane's level where its trend starts. */
const LANE_R = 3.5;

interface PowerChartProps {
  telemetry: LinkTelemetry;
  sideNames: Record<Side, string>;
  onZoom: (start: Date, end: Date) => void;
  /** The link's forecast: its trend to the limit and the crossing's interval are drawn over the readings. */
  forecast?: LinkForecastAnswer | null;
  /** Overrides the measured width (component tests have no layout engine). */
  width?: number;
}

/** Radius of the dot where the forecast trend meets its limit. */
const CROSSING_R = 4;

export function PowerChart({ telemetry, sideNames, onZoom, forecast, width: fixedWidth }: PowerChartProps) {
  const { stageRef, width, plotHeight } = useTimeChartSize(fixedWidth);
  const chart = useMemo(
    () => buildPowerChart(telemetry, { width, plotHeight, sideNames, forecast, now: new Date() }),
    [telemetry, width, plotHeight, sideNames, forecast],
  );
  const { area } = chart;
  const readout = useMemo(
    () =>
      chart.lines.map((line) => ({
        key: line.key,
        label: line.label,
        colour: line.colour,
        points: line.readings,
        format: formatDbm,
      })),
    [chart],
  );
  const readings = chart.lines.reduce((sum, line) => sum + line.measured, 0);
  const summary =
    `Tx and Rx optical power of both ends in dBm, ${formatTime(telemetry.from)} to ${formatTime(telemetry.to)}` +
    `${chart.resolution === 'hour' ? ', hourly averages with min–max bands' : ''}: ` +
    `${formatCount(readings)} readings, ${chart.noLight.length} no-light mark${chart.noLight.length === 1 ? '' : 's'}.` +
    (chart.forecast && forecast?.forecast
      ? ` ${chart.forecast.label}, crossing ${formatTime(forecast.forecast.crossing_at)}.`
      : '');
  // One legend entry per kind of limit drawn, however many sides share it.
  const limitSwatches: LegendSwatch[] = (['rx', 'tx'] as const)
    .filter((kind) => chart.thresholds.some((threshold) => threshold.kind === kind))
    .map((kind) => ({ key: `limit-${kind}`, width: 1.5, ...THRESHOLD_STYLE[kind] }));

  return (
    <TimeChart
      testId="power-chart"
      readout={readout}
      stageRef={stageRef}
      frame={chart}
      yTicks={chart.yTicks}
      yTitle="Optical power (dBm)"
      summary={summary}
      onZoom={onZoom}
      legend={{
        label: 'Optical power legend',
        swatches: [
          ...chart.lines.map((line) => ({
            key: line.key,
            testId: `power-legend-${line.key}`,
            label: line.label,
            colour: line.colour,
            width: 2.5,
            dash: line.dash,
          })),
          ...limitSwatches,
          ...(chart.forecast
            ? [
                {
                  key: 'forecast-trend',
                  testId: 'power-legend-forecast',
                  label: chart.forecast.label,
                  colour: chart.forecast.colour,
                  width: 3,
                  dash: FORECAST_DASH,
                },
              ]
            : []),
        ],
        extra: (
          <>
            {chart.forecast ? (
              <li data-testid="power-legend-forecast-lane">
                <svg width="12" height="10" aria-hidden="true">
                  <circle cx="6" cy="5" r={LANE_R} fill={chart.forecast.colour} />
                </svg>
                {chart.forecast.lane.text} (where its trend starts)
              </li>
            ) : null}
            {chart.forecast ? (
              <li data-testid="power-legend-forecast-interval">
                <span className="swatch swatch-forecast-band" aria-hidden="true" />
                Forecast crossing, earliest to latest
                {chart.forecast.band.openEnded ? ' (may never cross)' : ''}
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
          </>
        ),
        note: 'A break in a line: no reading (dark, or polls missing).',
      }}
      thresholds={chart.thresholds.map((threshold) => ({ ...threshold, testId: 'power-threshold' }))}
      // The forecast's trend, crossing and band gather at the right: the limits' labels go left.
      thresholdLabels="left"
      underlay={
        <>
          {chart.forecast ? (
            <rect
              data-testid="power-forecast-band"
              className="forecast-band"
              x={chart.forecast.band.x0}
              width={Math.max(1, chart.forecast.band.x1 - chart.forecast.band.x0)}
              y={area.top}
              height={area.bottom - area.top}
            />
          ) : null}
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
        </>
      }
      overlay={
        <>
          {chart.forecast?.offPlot ? (
            <text
              data-testid="power-forecast-off-plot"
              className="forecast-off-plot"
              x={area.right - 4}
              y={area.top + 12}
              textAnchor="end"
              style={{ fill: chart.forecast.colour }}
            >
              {chart.forecast.offPlot}
            </text>
          ) : null}
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
        </>
      }
      empty={
        chart.hasData
          ? null
          : {
              testId: 'power-empty',
              message: `No optical readings in this range.${
                chart.resolution === 'hour' ? ' Hourly aggregates are written once an hour has passed.' : ''
              }`,
            }
      }
    >
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
      {chart.forecast ? (
        <g data-testid="power-forecast" data-series={chart.forecast.series}>
          <path
            data-testid="power-forecast-trend"
            d={chart.forecast.trend}
            fill="none"
            stroke={chart.forecast.colour}
            strokeWidth={3}
            strokeDasharray={FORECAST_DASH}
            strokeLinecap="round"
          />
          <circle
            data-testid="power-forecast-lane"
            cx={chart.forecast.lane.x}
            cy={chart.forecast.lane.y}
            r={LANE_R}
            fill={chart.forecast.colour}
          >
            <title>{chart.forecast.lane.text}</title>
          </circle>
          <circle
            data-testid="power-forecast-crossing"
            cx={chart.forecast.crossing.x}
            cy={chart.forecast.crossing.y}
            r={CROSSING_R}
            fill="#fff"
            stroke={chart.forecast.colour}
            strokeWidth={2}
          />
        </g>
      ) : null}
    </TimeChart>
  );
}
