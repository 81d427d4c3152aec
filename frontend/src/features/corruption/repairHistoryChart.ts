/** Chart models of the repair metrics over time: D3 owns scales, ticks and paths; RepairHistory draws them. */
import * as d3 from 'd3';

import { type AxisTick, type PlotArea, plotArea } from '@/components/charts/plotArea';
import type { MetricsHistoryBucket, TicketMetricsHistory } from '@/features/tickets';

export interface HistoryLine {
  key: string;
  label: string;
  colour: string;
  dash: string;
  path: string;
  /**
   * Where each bucket with a value is drawn (one dot each: a lone bucket between gaps has no
   * segment); `t` is the bucket's middle (ms), where the hover readout reads it.
   */
  points: { x: number; y: number; t: number; value: number; start: string }[];
}

export interface HistoryChartModel {
  area: PlotArea;
  /** The time axis, for the hover readout (pointer position to time). */
  x: d3.ScaleTime<number, number>;
  /** The readout's name of a bucket, from its middle: "2026-11-26", or "Week of 2026-11-23". */
  bucketName: (t: number) => string;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  xTitle: string;
  yTitle: string;
  lines: HistoryLine[];
  /** Any value to draw at all (a range without first attempts has no rate to show). */
  hasData: boolean;
}

interface Series {
  key: string;
  label: string;
  colour: string;
  dash?: string;
  value: (bucket: MetricsHistoryBucket) => number | null;
}

const RATE_SERIES: Series[] = [
  {
    key: 'all',
    label: 'All first attempts',
    colour: 'var(--chart-plain-series)',
    value: (b) => b.first_attempt.all.rate,
  },
  {
    key: 'followed',
    label: 'Recommendation followed',
    colour: '#2563eb',
    value: (b) => b.first_attempt.followed.rate,
  },
  {
    key: 'not_followed',
    label: 'Not followed',
    colour: '#dc2626',
    dash: '6 4',
    value: (b) => b.first_attempt.not_followed.rate,
  },
];

const TICKET_SERIES: Series[] = [
  { key: 'opened', label: 'Opened', colour: '#dc2626', value: (b) => b.tickets_opened },
  { key: 'resolved', label: 'Resolved', colour: '#16a34a', value: (b) => b.tickets_resolved },
  {
    key: 'open',
    label: 'Unresolved at the end',
    colour: 'var(--chart-plain-series)',
    dash: '6 4',
    value: (b) => b.open_tickets,
  },
];

/** Each bucket is drawn at its middle, so a week's value sits over its week. */
function middle(bucket: MetricsHistoryBucket): Date {
  return new Date((Date.parse(bucket.start) + Date.parse(bucket.end)) / 2);
}

function timeAxis(history: TicketMetricsHistory, area: PlotArea) {
  const first = history.buckets.at(0);
  const last = history.buckets.at(-1);
  const domain = [new Date(first?.start ?? history.from), new Date(last?.end ?? history.to)];
  const x = d3.scaleUtc().domain(domain).range([area.left, area.right]);
  const format = d3.utcFormat('%b %-d');
  const xTicks = x.ticks(Math.max(2, Math.floor((area.right - area.left) / 90))).map((date) => ({
    value: date.getTime(),
    position: x(date),
    label: format(date),
  }));
  const xTitle = `Date (UTC, per ${history.bucket === 'week' ? 'ISO week' : 'day'})`;
  const starts = new Map(history.buckets.map((bucket) => [middle(bucket).getTime(), bucket.start.slice(0, 10)]));
  const bucketName = (t: number) => {
    const day = starts.get(t) ?? new Date(t).toISOString().slice(0, 10);
    return history.bucket === 'week' ? `Week of ${day}` : day;
  };
  return { x, xTicks, xTitle, bucketName };
}

function lines(
  history: TicketMetricsHistory,
  series: Series[],
  x: (date: Date) => number,
  y: (value: number) => number,
): HistoryLine[] {
  return series.map((s) => {
    const values = history.buckets.map((bucket) => ({ bucket, value: s.value(bucket) }));
    // A bucket without a value (no first attempt) breaks the line rather than dropping to 0.
    const line = d3
      .line<{ bucket: MetricsHistoryBucket; value: number | null }>()
      .defined((d) => d.value !== null)
      .x((d) => x(middle(d.bucket)))
      .y((d) => y(d.value ?? 0));
    return {
      key: s.key,
      label: s.label,
      colour: s.colour,
      dash: s.dash ?? '',
      path: line(values) ?? '',
      points: values
        .filter((d): d is { bucket: MetricsHistoryBucket; value: number } => d.value !== null)
        .map((d) => ({
          x: x(middle(d.bucket)),
          y: y(d.value),
          t: middle(d.bucket).getTime(),
          value: d.value,
          start: d.bucket.start,
        })),
    };
  });
}

/** First-attempt success rate per bucket: all, recommendation followed, not followed (0–100 %). */
export function buildSuccessRateChart(
  history: TicketMetricsHistory,
  size: { width: number; height: number },
): HistoryChartModel {
  const area = plotArea(size.width, size.height);
  const { x, xTicks, xTitle, bucketName } = timeAxis(history, area);
  const y = d3.scaleLinear().domain([0, 1]).range([area.bottom, area.top]);
  const yTicks = y.ticks(5).map((value) => ({ value, position: y(value), label: `${Math.round(value * 100)}%` }));
  const drawn = lines(history, RATE_SERIES, x, y);
  return {
    area,
    x,
    bucketName,
    xTicks,
    yTicks,
    xTitle,
    yTitle: 'First-attempt success (%)',
    lines: drawn,
    hasData: drawn.some((line) => line.points.length > 0),
  };
}

/** Tickets opened and resolved in each bucket, and unresolved at its end. */
export function buildTicketCountChart(
  history: TicketMetricsHistory,
  size: { width: number; height: number },
): HistoryChartModel {
  const area = plotArea(size.width, size.height);
  const { x, xTicks, xTitle, bucketName } = timeAxis(history, area);
  const largest = d3.max(history.buckets, (b) => Math.max(b.tickets_opened, b.tickets_resolved, b.open_tickets)) ?? 0;
  const y = d3
    .scaleLinear()
    .domain([0, Math.max(largest, 1)])
    .nice()
    .range([area.bottom, area.top]);
  // Counts are whole: no tick at 0.5.
  const yTicks = y
    .ticks(Math.min(5, Math.max(largest, 1)))
    .filter(Number.isInteger)
    .map((value) => ({ value, position: y(value), label: String(value) }));
  return {
    area,
    x,
    bucketName,
    xTicks,
    yTicks,
    xTitle,
    yTitle: 'Tickets',
    lines: lines(history, TICKET_SERIES, x, y),
    hasData: history.buckets.length > 0,
  };
}
