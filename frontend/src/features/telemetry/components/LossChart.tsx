import { useMemo } from 'react';

import type { LinkForecastAnswer } from '@/features/forecasts';
import { formatCount, formatTime } from '@/lib/format';
import { formatLossRate } from '@/lib/format/number';

import type { LinkTelemetry } from '../api/types';
import { TimeChart } from './TimeChart';
import { buildLossChart, formatDecade, LOSS_FLOOR, LOSS_THRESHOLD_STYLE } from './lossChart';
import { useTimeChartSize } from './useTimeChartSize';

interface LossChartProps {
  telemetry: LinkTelemetry;
  onZoom: (start: Date, end: Date) => void;
  /** The link's forecast: the time axis runs to its crossing as the power chart's does. */
  forecast?: LinkForecastAnswer | null;
  /** Overrides the measured width (component tests have no layout engine). */
  width?: number;
}

const FLOOR_TEXT = formatDecade(Math.round(Math.log10(LOSS_FLOOR)));

export function LossChart({ telemetry, onZoom, forecast, width: fixedWidth }: LossChartProps) {
  const { stageRef, width, plotHeight } = useTimeChartSize(fixedWidth);
  const chart = useMemo(
    () => buildLossChart(telemetry, { width, plotHeight, forecast }),
    [telemetry, width, plotHeight, forecast],
  );
  const readout = useMemo(
    () =>
      chart.lines.map((line) => ({
        key: line.key,
        label: line.label,
        colour: line.colour,
        points: line.readings,
        format: formatLossRate,
      })),
    [chart],
  );
  const rates = chart.lines.reduce((sum, line) => sum + line.measured, 0);
  const gaps = chart.lines.reduce((sum, line) => sum + line.gaps, 0);
  const summary =
    `Corruption and congestion loss rate per direction on a log scale, ${formatTime(telemetry.from)} to ` +
    `${formatTime(telemetry.to)}: ${formatCount(rates)} rates, ${gaps} gap${gaps === 1 ? '' : 's'}.`;

  return (
    <TimeChart
      testId="loss-chart"
      readout={readout}
      stageRef={stageRef}
      frame={chart}
      yTicks={chart.yTicks}
      yTitle={chart.hasClampedZeros ? 'Loss rate (fraction, log; 0 at floor)' : 'Loss rate (fraction, log)'}
      summary={summary}
      onZoom={onZoom}
      legend={{
        label: 'Loss rate legend',
        swatches: [
          ...chart.lines.map((line) => ({
            key: line.key,
            testId: `loss-legend-${line.key}`,
            label: line.label,
            colour: line.colour,
            width: 2.5,
            dash: line.dash,
          })),
          ...chart.thresholds.map((threshold) => ({
            key: threshold.key,
            label: LOSS_THRESHOLD_STYLE[threshold.key].label,
            colour: threshold.colour,
            width: 1.5,
            dash: threshold.dash,
          })),
        ],
        extra: chart.hasClampedZeros ? (
          <li data-testid="loss-legend-zero">
            <svg width="12" height="12" aria-hidden="true">
              <circle cx="6" cy="6" r="3.5" className="zero-dot" />
            </svg>
            Rate 0: drawn on the bottom line at {FLOOR_TEXT} (a log axis has no zero)
          </li>
        ) : null,
        note: 'A break in a line: no rate (counter reset or missing polls), not a zero.',
      }}
      thresholds={chart.thresholds.map((threshold) => ({ ...threshold, testId: `loss-threshold-${threshold.key}` }))}
      // A little room below the floor so dots drawn on it are not cut in half.
      clipOverhang={4}
      overlay={
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
      }
      empty={
        chart.hasData
          ? null
          : {
              testId: 'loss-empty',
              message: 'No loss rates in this range: a rate needs two counter polls one window apart on each end.',
            }
      }
    >
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
    </TimeChart>
  );
}
