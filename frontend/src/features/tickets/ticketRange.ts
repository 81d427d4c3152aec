/**
 * Which stretch of telemetry the ticket page charts when the URL names none: the last 24 hours,
 * widened back to a few hours before the corruption started so its onset is on the chart, at most
 * 30 days (a ticket open for longer shows its last month).
 */
import type { TimeRange } from '@/features/telemetry';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const BEFORE_ONSET_MS = 6 * HOUR_MS;
const LONGEST_MS = 30 * DAY_MS;

export function ticketChartRange(onset: string | null | undefined, now: Date): TimeRange {
  const to = new Date(Math.ceil(now.getTime() / 60_000) * 60_000);
  let from = to.getTime() - DAY_MS;
  const started = onset ? new Date(onset).getTime() : Number.NaN;
  if (Number.isFinite(started)) from = Math.min(from, started - BEFORE_ONSET_MS);
  from = Math.max(from, to.getTime() - LONGEST_MS);
  return { from: new Date(from), to };
}
