/**
 * The time range of the link page lives in the URL (`from`, `to`, ISO 8601) so a zoomed view
 * can be shared. No parameters means the API's default: the last 24 hours up to now.
 */
import type { TelemetryQuery } from './api/types';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface RangePreset {
  key: string;
  label: string;
  ms: number;
}

export const RANGE_PRESETS: readonly RangePreset[] = [
  { key: '6h', label: '6 h', ms: 6 * HOUR_MS },
  { key: '24h', label: '24 h', ms: DAY_MS },
  { key: '7d', label: '7 d', ms: 7 * DAY_MS },
  { key: '30d', label: '30 d', ms: 30 * DAY_MS },
];

/** What the API shows without `from` and `to`. */
export const DEFAULT_RANGE_MS = DAY_MS;
/** A brush narrower than this is widened around its middle: fewer points than that say nothing. */
export const MIN_RANGE_MS = 10 * MINUTE_MS;
/** The API refuses longer ranges (series.MAX_RANGE). */
export const MAX_RANGE_MS = 400 * DAY_MS;

export interface TimeRange {
  from: Date;
  to: Date;
}

function parseTime(value: string | null): Date | null {
  if (!value) return null;
  // Only full timestamps with a zone: the API refuses anything else.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** ISO 8601 in UTC to the second: short enough for a URL, exact enough for a chart. */
export function formatIsoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The range named by the URL, or null for the default (both ends needed, `from` before `to`). */
export function rangeFromSearchParams(params: URLSearchParams): TimeRange | null {
  const from = parseTime(params.get('from'));
  const to = parseTime(params.get('to'));
  if (!from || !to || from >= to || to.getTime() - from.getTime() > MAX_RANGE_MS) return null;
  return { from, to };
}

export function telemetryQuery(range: TimeRange | null): TelemetryQuery {
  return range ? { from: formatIsoSeconds(range.from), to: formatIsoSeconds(range.to) } : {};
}

/** The page's search params with the range replaced (null: back to the default), others kept. */
export function searchParamsWithRange(params: URLSearchParams, range: TimeRange | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (range) {
    next.set('from', formatIsoSeconds(range.from));
    next.set('to', formatIsoSeconds(range.to));
  } else {
    next.delete('from');
    next.delete('to');
  }
  return next;
}

/** The last `ms` up to now, on whole minutes so the URL stays readable. */
export function presetRange(ms: number, now: Date): TimeRange {
  const to = new Date(Math.ceil(now.getTime() / MINUTE_MS) * MINUTE_MS);
  return { from: new Date(to.getTime() - ms), to };
}

/** Which preset button shows as pressed: the one whose span the range has (the default is 24 h). */
export function activePresetKey(range: TimeRange | null): string | undefined {
  const span = range ? range.to.getTime() - range.from.getTime() : DEFAULT_RANGE_MS;
  return RANGE_PRESETS.find((preset) => Math.abs(preset.ms - span) < MINUTE_MS)?.key;
}

/** A brushed interval as a range: ordered, and at least MIN_RANGE_MS wide around its middle. */
export function brushedRange(start: Date, end: Date): TimeRange {
  let from = Math.min(start.getTime(), end.getTime());
  let to = Math.max(start.getTime(), end.getTime());
  if (to - from < MIN_RANGE_MS) {
    const middle = (from + to) / 2;
    from = middle - MIN_RANGE_MS / 2;
    to = middle + MIN_RANGE_MS / 2;
  }
  return { from: new Date(Math.round(from / 1000) * 1000), to: new Date(Math.round(to / 1000) * 1000) };
}

/** Twice the span around the same middle, never reaching past now nor beyond the longest range. */
export function zoomedOutRange(range: TimeRange, now: Date): TimeRange {
  const span = Math.min(2 * (range.to.getTime() - range.from.getTime()), MAX_RANGE_MS);
  const middle = (range.from.getTime() + range.to.getTime()) / 2;
  const to = Math.min(middle + span / 2, Math.max(now.getTime(), range.to.getTime()));
  return { from: new Date(Math.round((to - span) / 1000) * 1000), to: new Date(Math.round(to / 1000) * 1000) };
}
