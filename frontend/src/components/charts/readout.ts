/**
 * The hover readout of a chart over time (the link page's telemetry, Health's repair history): at
 * the pointer's time (or the time the arrow keys stepped to), each line's nearest reading. Pure,
 * so vitest checks it without a browser; ChartReadout.tsx wires it to a chart.
 */
import { formatTime } from '@/lib/format';

/** A reading at a time (ms since the epoch); null is a gap. */
export interface TimePoint {
  t: number;
  v: number | null;
}

export interface ReadoutSeries {
  key: string;
  label: string;
  colour: string;
  /** Sorted by time; null values (gaps, dark) are skipped. */
  points: readonly TimePoint[];
  format: (value: number) => string;
}

export interface Readout {
  t: number;
  time: string;
  rows: { key: string; label: string; colour: string; text: string }[];
}

function nearestIndex(points: readonly TimePoint[], t: number): number | null {
  let best: number | null = null;
  for (let index = 0; index < points.length; index++) {
    const point = points[index]!;
    if (point.v === null) continue;
    if (best === null || Math.abs(point.t - t) < Math.abs(points[best]!.t - t)) best = index;
  }
  return best;
}

/**
 * The readout at time `t`: the nearest reading of any line fixes the time shown; every line with a
 * reading within `toleranceMs` of it gets a row (the two ends are polled apart). null when no
 * line has a reading.
 */
export function readoutAt(
  series: readonly ReadoutSeries[],
  t: number,
  toleranceMs: number,
  /** How the readout names its time (default: the UTC minute; a daily chart names the day). */
  formatReadoutTime: (t: number) => string = (at) => formatTime(new Date(at).toISOString()),
): Readout | null {
  let nearest: number | null = null;
  for (const line of series) {
    const index = nearestIndex(line.points, t);
    if (index === null) continue;
    const at = line.points[index]!.t;
    if (nearest === null || Math.abs(at - t) < Math.abs(nearest - t)) nearest = at;
  }
  if (nearest === null) return null;
  const rows = series.flatMap((line) => {
    const index = nearestIndex(line.points, nearest);
    const point = index === null ? undefined : line.points[index];
    if (!point || point.v === null || Math.abs(point.t - nearest) > toleranceMs) return [];
    return [{ key: line.key, label: line.label, colour: line.colour, text: line.format(point.v) }];
  });
  return { t: nearest, time: formatReadoutTime(nearest), rows };
}

/** Every time some line has a reading, sorted: the stops of the arrow keys. */
export function readoutTimes(series: readonly ReadoutSeries[]): number[] {
  const times = new Set<number>();
  for (const line of series) for (const point of line.points) if (point.v !== null) times.add(point.t);
  return [...times].sort((a, b) => a - b);
}
