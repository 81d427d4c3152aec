/**
 * Scales and shapes of the loss chart: corruption and congestion loss rate per direction on a
 * log scale, with the fabric's action and report thresholds. Rates are fractions (1e-6).
 *
 * A rate of exactly 0 has no place on a log axis: it is drawn on the floor, LOSS_FLOOR, which
 * the axis labels "0". A null rate is a gap (counter reset, missing polls) and breaks the line.
 */
import { line, scaleLog, type ScaleLogarithmic } from 'd3';

import type { AxisTick } from '@/components/charts/plotArea';
import type { LinkForecastAnswer } from '@/features/forecasts';
import { formatTime } from '@/lib/format';
import { formatLossRate, superscript } from '@/lib/format/number';

import type { Direction, LinkTelemetry, Resolution } from '../api/types';
import { forecastDomain, futureShareFor } from './powerChart';
import { insertGaps, labelBaselines, type TimeFrame, timeFrame, type TimePoint } from './timeSeries';

/** Where zero loss is drawn. Real rates this small would need 10^12 packets in one window. */
export const LOSS_FLOOR = 1e-12;
const FLOOR_EXPONENT = Math.round(Math.log10(LOSS_FLOOR));
/** The top of the axis never needs to pass "every packet lost". */
const LOSS_CEILING = 1;
/** Above this many points per line, dots would only blacken the line. */
const MAX_DOTS = 200;

export type LossKind = 'corruption' | 'congestion';

export interface LossSeriesStyle {
  key: string;
  direction: Direction;
  kind: LossKind;
  colour: string;
  dash?: string;
}

/** Colour tells the direction, dash tells corruption (solid) from congestion (dotted). */
export const LOSS_SERIES: readonly LossSeriesStyle[] = [
  { key: 'a_to_z-corruption', direction: 'a_to_z', kind: 'corruption', colour: 'var(--chart-side-a)' },
  { key: 'z_to_a-corruption', direction: 'z_to_a', kind: 'corruption', colour: 'var(--chart-side-z)' },
  { key: 'a_to_z-congestion', direction: 'a_to_z', kind: 'congestion', colour: 'var(--chart-side-a)', dash: '2 3' },
  { key: 'z_to_a-congestion', direction: 'z_to_a', kind: 'congestion', colour: 'var(--chart-side-z)', dash: '2 3' },
];

export const LOSS_THRESHOLD_STYLE = {
  action: { colour: 'var(--chart-action-threshold)', dash: '7 3', label: 'Action threshold (corrupting)' },
  report: { colour: '#d9822b', dash: '7 3', label: 'Report threshold (lossy)' },
} as const;

export interface LossPoint {
  t: number;
  /** The rate as measured; null for a gap. */
  rate: number | null;
  /** The rate as drawn: zero (and anything below the floor) lifted to LOSS_FLOOR. */
  drawn: number | null;
}

export interface LossDot {
  key: string;
  x: number;
  y: number;
  /** Drawn on the floor because the rate was 0 (or below the floor). */
  clamped: boolean;
  text: string;
}

export interface LossLine extends LossSeriesStyle {
  label: string;
  /** The measured rates (the hover readout reads them). */
  readings: TimePoint[];
  path: string;
  dots: LossDot[];
  /** Rates in the range (gaps not counted). */
  measured: number;
  /** Gaps the API reported in the range (reset, wrap, missing polls). */
  gaps: number;
}

export interface LossThresholdLine {
  key: 'action' | 'report';
  value: number;
  y: number;
  colour: string;
  dash: string;
  text: string;
  /** Baseline of the label, kept clear of the other thresholds' labels. */
  labelY: number;
}

export interface LossChartModel extends TimeFrame {
  y: ScaleLogarithmic<number, number>;
  resolution: Resolution;
  lines: LossLine[];
  thresholds: LossThresholdLine[];
  yTicks: AxisTick[];
  /** Whether some drawn point sits on the floor for a zero rate. */
  hasClampedZeros: boolean;
  hasData: boolean;
}

export const DIRECTION_LABEL: Record<Direction, string> = { a_to_z: 'A→Z', z_to_a: 'Z→A' };

/** The rate as drawn on the log axis: never below the floor. */
export function clampRate(rate: number): { drawn: number; clamped: boolean } {
  return rate < LOSS_FLOOR || rate === 0 ? { drawn: LOSS_FLOOR, clamped: true } : { drawn: rate, clamped: false };
}

export function lossPoints(times: readonly string[], rates: readonly (number | null)[]): LossPoint[] {
  const points = times.map((time, index) => {
    const rate = rates[index] ?? null;
    return { t: Date.parse(time), rate, drawn: rate === null ? null : clampRate(rate).drawn };
  });
  return insertGaps<LossPoint>(points, (t) => ({ t, rate: null, drawn: null }));
}

/** 10^exponent, exactly as written in source (10 ** -4 is 0.00009999999999999999). */
function decade(exponent: number): number {
  return Number(`1e${exponent}`);
}

export function formatDecade(exponent: number): string {
  if (exponent === 0) return '1';
  return `10${superscript(String(exponent))}`;
}

/**
 * Whole decades from one below the smallest rate or threshold to one above the largest: the
 * thresholds are always in view, and the floor is the bottom when some rate was zero.
 */
export function lossDomain(rates: readonly number[], thresholds: readonly number[]): [number, number] {
  const positive = [...rates, ...thresholds].filter((value) => value > 0);
  const hasZero = rates.some((rate) => rate < LOSS_FLOOR);
  const smallest = positive.length > 0 ? Math.min(...positive) : 1e-9;
  const largest = positive.length > 0 ? Math.max(...positive) : 1e-5;
  const low = hasZero ? LOSS_FLOOR : Math.max(LOSS_FLOOR, decade(Math.floor(Math.log10(smallest)) - 1));
  const high = Math.min(LOSS_CEILING, decade(Math.floor(Math.log10(largest)) + 1));
  return [low, Math.max(high, low * 10)];
}

export interface LossChartOptions {
  width: number;
  plotHeight: number;
  /**
   * The link's forecast, which the power chart above stretches its time axis for: the loss chart
   * stretches the same way, so the two stacked charts share their time axis (trial 27 item 10).
   */
  forecast?: LinkForecastAnswer | null;
}

export function buildLossChart(telemetry: LinkTelemetry, options: LossChartOptions): LossChartModel {
  const domain = forecastDomain(telemetry, options.forecast, futureShareFor(options.width));
  const frame = timeFrame(telemetry.from, domain.to, options.width, options.plotHeight);
  const { area: plot, x } = frame;
  const action = telemetry.corruption_action_threshold;
  const report = telemetry.corruption_report_threshold;

  const series = LOSS_SERIES.map((style) => {
    const columns = telemetry.loss[style.direction][style.kind];
    return { style, columns, points: lossPoints(columns.time, columns.rate) };
  });
  const rates = series.flatMap(({ columns }) => columns.rate.filter((rate): rate is number => rate !== null));
  const y = scaleLog()
    .domain(lossDomain(rates, [action, report]))
    .range([plot.bottom, plot.top])
    .clamp(true);

  const toPath = line<LossPoint>()
    .defined((point) => point.drawn !== null)
    .x((point) => x(point.t))
    .y((point) => y(point.drawn ?? LOSS_FLOOR));

  const lines: LossLine[] = series.map(({ style, columns, points }) => {
    const label = `${DIRECTION_LABEL[style.direction]} ${style.kind}`;
    const measured = points.filter((point) => point.rate !== null);
    const dots: LossDot[] =
      measured.length > MAX_DOTS
        ? []
        : measured.map((point) => ({
            key: `${point.t}`,
            x: x(point.t),
            y: y(point.drawn ?? LOSS_FLOOR),
            clamped: clampRate(point.rate ?? 0).clamped,
            text: `${label} ${formatLossRate(point.rate)} at ${formatTime(new Date(point.t).toISOString())}`,
          }));
    return {
      ...style,
      label,
      readings: measured.map((point) => ({ t: point.t, v: point.rate })),
      path: toPath(points) ?? '',
      dots,
      measured: measured.length,
      gaps: columns.rate.filter((rate) => rate === null).length,
    };
  });

  const baselines = labelBaselines([y(action), y(report)], plot);
  const thresholds: LossThresholdLine[] = (
    [
      ['action', action],
      ['report', report],
    ] as const
  ).map(([key, value], index) => ({
    key,
    value,
    y: y(value),
    labelY: baselines[index]!,
    colour: LOSS_THRESHOLD_STYLE[key].colour,
    dash: LOSS_THRESHOLD_STYLE[key].dash,
    text: `${key} ${formatLossRate(value)}`,
  }));

  const [low, high] = y.domain() as [number, number];
  const decades = Math.round(Math.log10(high / low));
  // About one label per 22 px; a 12-decade axis on a phone labels every other decade.
  const every = Math.max(1, Math.ceil(decades / Math.max(1, Math.floor(options.plotHeight / 22))));
  const yTicks: AxisTick[] = [];
  for (let exponent = Math.round(Math.log10(low)); exponent <= Math.round(Math.log10(high)); exponent += every) {
    const value = decade(exponent);
    yTicks.push({
      value,
      position: y(value),
      label: exponent === FLOOR_EXPONENT && low === LOSS_FLOOR ? '0' : formatDecade(exponent),
    });
  }

  return {
    ...frame,
    y,
    resolution: telemetry.resolution,
    lines,
    thresholds,
    yTicks,
    hasClampedZeros: rates.some((rate) => clampRate(rate).clamped),
    hasData: lines.some((lossLine) => lossLine.measured > 0),
  };
}
