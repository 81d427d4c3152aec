/**
 * Scales and shapes of the optical power chart: Rx and Tx of both sides in dBm, the lower
 * limits as horizontal lines, no-light samples as marks, hourly min–max as bands. D3 computes
 * every position and path; PowerChart only turns the model into SVG elements.
 */
import { area, line, scaleLinear } from 'd3';

import type { AxisTick } from '@/components/charts/plotArea';
import { laneLabel, type LinkForecastAnswer } from '@/features/forecasts';
import { formatDbm } from '@/lib/format';

import type { LinkTelemetry, Resolution, Side, SideThresholds, ThresholdField } from '../api/types';
import {
  breakAtGaps,
  insertGaps,
  labelBaselines,
  type TimeFrame,
  timeFrame,
  type TimePoint,
  toPoints,
} from './timeSeries';

export type PowerKind = 'rx' | 'tx';

export interface PowerSeriesStyle {
  key: string;
  side: Side;
  kind: PowerKind;
  colour: string;
  dash?: string;
}

/** Four lines told apart by colour, and Tx also by dash, so they survive grey-scale printing. */
export const POWER_SERIES: readonly PowerSeriesStyle[] = [
  { key: 'a-rx', side: 'a', kind: 'rx', colour: 'var(--chart-side-a)' },
  { key: 'a-tx', side: 'a', kind: 'tx', colour: '#2a9d8f', dash: '6 3' },
  { key: 'z-rx', side: 'z', kind: 'rx', colour: 'var(--chart-side-z)' },
  { key: 'z-tx', side: 'z', kind: 'tx', colour: '#c4661f', dash: '6 3' },
];

export const THRESHOLD_STYLE: Record<PowerKind, { colour: string; dash: string; label: string }> = {
  rx: { colour: 'var(--chart-rx-limit)', dash: '2 3', label: 'Rx lower limit' },
  tx: { colour: 'var(--chart-tx-limit)', dash: '8 3 2 3', label: 'Tx lower limit' },
};

/** Shown when a range has no reading at all, so the axis still reads as dBm around normal levels. */
const EMPTY_DOMAIN: [number, number] = [-15, 5];

export interface PowerLine extends PowerSeriesStyle {
  label: string;
  /** The line's readings (the hover readout reads them). */
  readings: TimePoint[];
  /** SVG path of the values (average per hour at hour resolution); breaks at gaps. */
  path: string;
  /** SVG area of the hourly min–max, or null at raw resolution. */
  band: string | null;
  /** How many values were measured in the range. */
  measured: number;
}

export interface NoLightMark {
  key: string;
  series: string;
  colour: string;
  x: number;
  time: string;
  /** Dark samples in that hour (hour resolution), 1 for a raw sample. */
  samples: number;
  text: string;
}

export interface ThresholdLine {
  key: string;
  kind: PowerKind;
  value: number;
  y: number;
  colour: string;
  dash: string;
  text: string;
  /** Baseline of the label, kept clear of the other thresholds' labels. */
  labelY: number;
  /**
   * A limit the forecast does not cross, drawn faint while a forecast is on the chart, so its trend
   * passing through it does not read as the crossing (trial 27 item 10).
   */
  muted: boolean;
}

/**
 * A link's forecast on the chart: the trend of the reading that crosses (its level when the
 * forecast was made to its limit at the crossing), the crossing on the limit line, and the
 * interval of the crossing (earliest..latest) as a band across the plot.
 */
export interface ForecastMarks {
  /** The power line the forecast continues, e.g. "z-rx". */
  series: string;
  colour: string;
  /** Legend entry of the trend, e.g. "Forecast: Z Rx lane 2 to its limit" (lanes count from 1). */
  label: string;
  /** SVG path of the trend, from (computed_at, level) to (crossing_at, limit). */
  trend: string;
  /**
   * Where the trend starts: the forecast lane's level when the forecast was made, drawn as a dot.
   * The lines are each end's average of its lanes, so the lane the forecast is about may sit below
   * its line (trial 27 item 9); the dot shows where the trend really starts.
   */
  lane: { x: number; y: number; text: string };
  crossing: { x: number; y: number };
  /** "crossing in 2.3 d →" at the plot's right edge when the crossing is off it, else null. */
  offPlot: string | null;
  /** x of the earliest and latest crossing; the latest is the plot's right edge when it may never cross. */
  band: { x0: number; x1: number; openEnded: boolean };
  /** Whether the time axis was stretched past the telemetry range to show the crossing. */
  extended: boolean;
}

export interface PowerChartModel extends TimeFrame {
  resolution: Resolution;
  lines: PowerLine[];
  noLight: NoLightMark[];
  thresholds: ThresholdLine[];
  /** Null when the link has no forecast, or the range ends before it was made. */
  forecast: ForecastMarks | null;
  yTicks: AxisTick[];
  /** Whether anything was measured in the range. */
  hasData: boolean;
}

interface SideValues {
  times: string[];
  average: (number | null)[];
  minimum: (number | null)[] | null;
  maximum: (number | null)[] | null;
  /** Dark samples per time: 0 where there was light. */
  dark: number[];
}

const SIDE_LABEL: Record<Side, string> = { a: 'A', z: 'Z' };
const KIND_LABEL: Record<PowerKind, string> = { rx: 'Rx', tx: 'Tx' };

/** One side's Rx or Tx as columns, whatever the resolution. */
export function sideValues(telemetry: LinkTelemetry, side: Side, kind: PowerKind): SideValues {
  const field = kind === 'rx' ? 'input_power_dbm' : 'output_power_dbm';
  if (telemetry.resolution === 'raw') {
    const series = telemetry.sides[side];
    const dark = kind === 'rx' ? series.rx_no_light : series.tx_no_light;
    return {
      times: series.time,
      average: series[field],
      minimum: null,
      maximum: null,
      dark: series.time.map((_, index) => (dark[index] ? 1 : 0)),
    };
  }
  const series = telemetry.sides[side];
  return {
    times: series.time,
    average: series[`${field}_avg`],
    minimum: series[`${field}_min`],
    maximum: series[`${field}_max`],
    // The hourly rows count dark receivers only; a dark transmitter shows as its Rx partner going dark.
    dark:
      kind === 'rx' ? series.time.map((_, index) => series.rx_no_light_samples[index] ?? 0) : series.time.map(() => 0),
  };
}

/** The lower limits worth drawing, one line per distinct value (both sides usually share the catalog's). */
export function lowerLimits(
  thresholds: Record<Side, SideThresholds>,
): { kind: PowerKind; value: number; sides: Side[]; provenance: string[] }[] {
  const limits: { kind: PowerKind; value: number; sides: Side[]; provenance: string[] }[] = [];
  for (const kind of ['rx', 'tx'] as const) {
    const field: ThresholdField = kind === 'rx' ? 'input_power_lower_dbm' : 'output_power_lower_dbm';
    for (const side of ['a', 'z'] as const) {
      const limit = thresholds[side][field];
      if (limit.value === null) continue;
      const same = limits.find((candidate) => candidate.kind === kind && candidate.value === limit.value);
      const provenance = limit.provenance ?? 'unknown';
      if (same) {
        same.sides.push(side);
        if (!same.provenance.includes(provenance)) same.provenance.push(provenance);
      } else {
        limits.push({ kind, value: limit.value, sides: [side], provenance: [provenance] });
      }
    }
  }
  return limits;
}

// The one dBm format (lib/format: a true minus), for the chart's callers.
export { formatDbm };

export function powerDomain(values: readonly number[]): [number, number] {
  if (values.length === 0) return EMPTY_DOMAIN;
  const low = Math.min(...values);
  const high = Math.max(...values);
  // A flat line gets room above and below; one dB of air keeps lines off the frame.
  return [low - 1, high + 1];
}

export interface PowerChartOptions {
  width: number;
  plotHeight: number;
  /** How each side is called in the legend, e.g. "p0-tor0 eth2/1". */
  sideNames: Record<Side, string>;
  /** GET /api/links/{id}/forecast/, when the link page has it. */
  forecast?: LinkForecastAnswer | null;
  /** For "crossing in N d" when the crossing is off the plot; the current time by default. */
  now?: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Room right of a crossing the axis was stretched to, as a share of the span, so its mark is off the frame. */
const CROSSING_PAD = 0.04;
/** Charts narrower than this are a phone's (as useTimeChartSize's shorter plot). */
const NARROW_WIDTH = 520;
/** On a phone the days ahead take at most this share of the width, so the history keeps a fair share. */
const NARROW_FUTURE_SHARE = 0.4;

/** The most of the time axis the days past the range may take at this chart width (1: no cap). */
export function futureShareFor(width: number): number {
  return width < NARROW_WIDTH ? NARROW_FUTURE_SHARE : 1;
}

/**
 * The forecast worth drawing over this range, and where the time axis ends: a forecast is drawn
 * when the range reaches the time it was made, and the axis stretches to its crossing when that
 * falls within the fabric's horizon (a crossing further out would squash the readings to a sliver).
 * The stretch takes at most `maxFutureShare` of the axis; past that the crossing is off the plot
 * (the chart says "crossing in N d →" at the edge). The power and loss charts share this domain.
 */
export function forecastDomain(
  telemetry: Pick<LinkTelemetry, 'from' | 'to'>,
  answer: LinkForecastAnswer | null | undefined,
  maxFutureShare = 1,
): { to: string; extended: boolean; drawn: boolean } {
  const forecast = answer?.forecast;
  const to = Date.parse(telemetry.to);
  if (!answer || !forecast || to < Date.parse(forecast.computed_at))
    return { to: telemetry.to, extended: false, drawn: false };
  const crossing = Date.parse(forecast.crossing_at);
  const withinHorizon = crossing <= Date.parse(forecast.computed_at) + answer.horizon_days * DAY_MS;
  if (!withinHorizon || crossing <= to) return { to: telemetry.to, extended: false, drawn: true };
  const from = Date.parse(telemetry.from);
  const end = crossing + (crossing - from) * CROSSING_PAD;
  // (end - to) / (end - from) <= share, solved for the end.
  const cappedEnd = maxFutureShare >= 1 ? end : to + ((to - from) * maxFutureShare) / (1 - maxFutureShare);
  return { to: new Date(Math.min(end, cappedEnd)).toISOString(), extended: true, drawn: true };
}

export function buildPowerChart(telemetry: LinkTelemetry, options: PowerChartOptions): PowerChartModel {
  const domain = forecastDomain(telemetry, options.forecast, futureShareFor(options.width));
  const drawn = domain.drawn ? (options.forecast?.forecast ?? null) : null;
  const forecast =
    drawn && drawn.level_dbm !== null && drawn.limit_dbm !== null
      ? { ...drawn, level_dbm: drawn.level_dbm, limit_dbm: drawn.limit_dbm }
      : null;
  const frame = timeFrame(telemetry.from, domain.to, options.width, options.plotHeight);
  const { area: plot, x } = frame;

  const series = POWER_SERIES.map((style) => ({ style, values: sideValues(telemetry, style.side, style.kind) }));
  const limits = lowerLimits(telemetry.thresholds);
  // The limit the forecast crosses is drawn even when the range's thresholds do not name it.
  if (
    forecast &&
    !limits.some((limit) => limit.kind === forecast.quantity && Math.abs(limit.value - forecast.limit_dbm) < 1e-9)
  ) {
    limits.push({
      kind: forecast.quantity,
      value: forecast.limit_dbm,
      sides: [forecast.side],
      provenance: [forecast.limit_provenance ?? 'unknown'],
    });
  }

  const everyValue: number[] = limits.map((limit) => limit.value);
  if (forecast) everyValue.push(forecast.level_dbm);
  for (const { values } of series) {
    for (const column of [values.average, values.minimum, values.maximum]) {
      for (const value of column ?? []) if (value !== null) everyValue.push(value);
    }
  }
  const y = scaleLinear().domain(powerDomain(everyValue)).range([plot.bottom, plot.top]).nice();

  const toPath = line<TimePoint>()
    .defined((point) => point.v !== null)
    .x((point) => x(point.t))
    .y((point) => y(point.v ?? 0));

  interface BandPoint {
    t: number;
    low: number | null;
    high: number | null;
  }
  const toBand = area<BandPoint>()
    .defined((point) => point.low !== null && point.high !== null)
    .x((point) => x(point.t))
    .y0((point) => y(point.low ?? 0))
    .y1((point) => y(point.high ?? 0));

  const lines: PowerLine[] = series.map(({ style, values }) => {
    const points = breakAtGaps(toPoints(values.times, values.average));
    let band: string | null = null;
    if (values.minimum && values.maximum) {
      const minimum = values.minimum;
      const maximum = values.maximum;
      // The band breaks where the line does: at missing values and at gaps in time.
      const bandPoints = insertGaps<BandPoint>(
        values.times.map((time, index) => ({
          t: Date.parse(time),
          low: minimum[index] ?? null,
          high: maximum[index] ?? null,
        })),
        (t) => ({ t, low: null, high: null }),
      );
      band = toBand(bandPoints) ?? '';
    }
    return {
      ...style,
      label: `${SIDE_LABEL[style.side]} ${KIND_LABEL[style.kind]}, average of lanes (${options.sideNames[style.side]})`,
      readings: toPoints(values.times, values.average),
      path: toPath(points) ?? '',
      band,
      measured: values.average.filter((value) => value !== null).length,
    };
  });

  const noLight: NoLightMark[] = [];
  for (const { style, values } of series) {
    values.dark.forEach((samples, index) => {
      if (samples <= 0) return;
      const time = values.times[index]!;
      const what = `${SIDE_LABEL[style.side]} ${KIND_LABEL[style.kind]} (${options.sideNames[style.side]})`;
      noLight.push({
        key: `${style.key}-${time}`,
        series: style.key,
        colour: style.colour,
        x: x(Date.parse(time)),
        time,
        samples,
        text:
          telemetry.resolution === 'hour'
            ? `No light on ${what}: ${samples} dark sample${samples === 1 ? '' : 's'} in the hour from ${time}`
            : `No light on ${what} at ${time}`,
      });
    });
  }

  const thresholdYs = limits.map((limit) => y(limit.value));
  const baselines = labelBaselines(thresholdYs, plot);
  const thresholds: ThresholdLine[] = limits.map((limit, index) => ({
    key: `${limit.kind}-${limit.value}`,
    kind: limit.kind,
    value: limit.value,
    y: thresholdYs[index]!,
    labelY: baselines[index]!,
    colour: THRESHOLD_STYLE[limit.kind].colour,
    dash: THRESHOLD_STYLE[limit.kind].dash,
    text: `${KIND_LABEL[limit.kind]} low ${limit.sides.map((side) => SIDE_LABEL[side]).join(', ')}: ${formatDbm(limit.value)}`,
    muted:
      forecast !== null && !(limit.kind === forecast.quantity && Math.abs(limit.value - forecast.limit_dbm) < 1e-9),
  }));

  const yTicks: AxisTick[] = y.ticks(Math.max(3, Math.floor(options.plotHeight / 40))).map((value) => ({
    value,
    position: y(value),
    label: String(value).replace('-', '−'),
  }));

  let forecastMarks: ForecastMarks | null = null;
  if (forecast) {
    const style = POWER_SERIES.find(
      (candidate) => candidate.side === forecast.side && candidate.kind === forecast.quantity,
    )!;
    const start = { t: Date.parse(forecast.computed_at), v: forecast.level_dbm };
    const end = { t: Date.parse(forecast.crossing_at), v: forecast.limit_dbm };
    const [, right] = x.range() as [number, number];
    const reading = `${SIDE_LABEL[forecast.side]} ${KIND_LABEL[forecast.quantity]} ${laneLabel(forecast.lane)}`;
    const crossingX = x(end.t);
    const now = (options.now ?? new Date()).getTime();
    forecastMarks = {
      series: style.key,
      colour: style.colour,
      label: `Forecast: ${reading} to its limit`,
      // A crossing already reached has no trend left to draw: the mark on the limit says it.
      trend: end.t > start.t ? (toPath([start, end]) ?? '') : '',
      lane: {
        x: x(start.t),
        y: y(start.v),
        text: `${reading} when forecast: ${formatDbm(start.v)}`,
      },
      crossing: { x: crossingX, y: y(end.v) },
      offPlot: crossingX > right ? `crossing in ${(Math.max(0, end.t - now) / DAY_MS).toFixed(1)} d →` : null,
      band: {
        x0: x(Date.parse(forecast.earliest_at)),
        x1: forecast.latest_at === null ? right : Math.min(right, x(Date.parse(forecast.latest_at))),
        openEnded: forecast.latest_at === null,
      },
      extended: domain.extended,
    };
  }

  return {
    ...frame,
    resolution: telemetry.resolution,
    lines,
    noLight,
    thresholds,
    forecast: forecastMarks,
    yTicks,
    hasData: lines.some((powerLine) => powerLine.measured > 0) || noLight.length > 0,
  };
}
