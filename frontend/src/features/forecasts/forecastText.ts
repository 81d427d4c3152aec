/**
 * How a forecast reads, on the At risk page and under the link page's power chart: when the
 * reading crosses its limit (days from now, the interval, the date), which end and lane, the
 * trend, the cause and what to do. Pure, so vitest reads the sentences without rendering.
 */
import { formatDbm, formatTime, formatTimeWithAge } from '@/lib/format';

import type { ForecastCause, LinkFailure, LinkForecast, LinkForecastAnswer } from './api/types';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every cause the API names, in the order of Table 3.2's rules; labels as the server's (`cause_label`). */
export const CAUSE_LABELS: Record<ForecastCause, string> = {
  loose_transceiver: 'loose transceiver',
  bent_fiber: 'bent or damaged fiber',
  decaying_transmitter: 'decaying transmitter',
  contamination: 'contamination',
  unknown: 'unclear',
};

export const FORECAST_CAUSES = Object.keys(CAUSE_LABELS) as ForecastCause[];

export function isForecastCause(value: string): value is ForecastCause {
  return (FORECAST_CAUSES as string[]).includes(value);
}

const SIDE_LABEL: Record<LinkForecast['side'], string> = { a: 'A', z: 'Z' };

/** Days from `now` to `iso`, never below zero. */
export function daysUntil(iso: string, now: Date): number {
  return Math.max(0, (Date.parse(iso) - now.getTime()) / DAY_MS);
}

function days(value: number): string {
  return value.toFixed(1);
}

type Crossing = Pick<LinkForecast, 'computed_at' | 'crossing_at' | 'earliest_at' | 'latest_at'>;

/**
 * Where the crossing stands: `at_limit` when the reading was already at its limit when the forecast
 * was made (crossing = the forecast's time), `overdue` when the forecast crossing time has passed
 * since, else `ahead`.
 */
function crossingState(forecast: Crossing, now: Date): 'at_limit' | 'overdue' | 'ahead' {
  const crossing = Date.parse(forecast.crossing_at);
  if (crossing <= Date.parse(forecast.computed_at)) return 'at_limit';
  return crossing <= now.getTime() ? 'overdue' : 'ahead';
}

/** "40 min", "2 h", "1.5 days" */
export function durationText(ms: number): string {
  const minutes = Math.max(0, ms) / 60_000;
  if (minutes < 60) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${days(minutes / (24 * 60))} days`;
}

/**
 * A forecast changes when the lane's 6-hour bucket closes, so a live link's forecast is at most
 * about 6 hours old; older than this, the optics stopped coming and the forecast may be out of date.
 */
export const STALE_FORECAST_HOURS = 12;

/** "forecast made 2 h ago" */
export function forecastAgeText(computedAt: string, now: Date): string {
  return `forecast made ${durationText(now.getTime() - Date.parse(computedAt))} ago`;
}

/** "no optics since 2026-11-25 05:45 UTC: the forecast may be out of date" past STALE_FORECAST_HOURS, else null. */
export function staleForecastText(computedAt: string, now: Date): string | null {
  if (now.getTime() - Date.parse(computedAt) <= STALE_FORECAST_HOURS * 60 * 60 * 1000) return null;
  return `no optics since ${formatTime(computedAt)}: the forecast may be out of date`;
}

/**
 * "crosses in 3.2 days (2.1–5.0), 2026-11-30 13:00 UTC"; a reading at its limit when the forecast was
 * made "at its limit now"; a forecast crossing already past "overdue by 1.2 days (forecast for
 * 2026-11-26 08:06 UTC)"; no latest crossing (the gentlest slope does not fall) "(2.1 or later, may never)".
 */
export function crossingText(forecast: Crossing, now: Date) {
  const state = crossingState(forecast, now);
  if (state === 'at_limit') return 'at its limit now';
  if (state === 'overdue') {
    const late = durationText(now.getTime() - Date.parse(forecast.crossing_at));
    return `overdue by ${late} (forecast for ${formatTime(forecast.crossing_at)})`;
  }
  const crossing = daysUntil(forecast.crossing_at, now);
  const earliest = days(daysUntil(forecast.earliest_at, now));
  const interval =
    forecast.latest_at === null
      ? `${earliest} or later, may never`
      : `${earliest}–${days(daysUntil(forecast.latest_at, now))}`;
  return `crosses in ${days(crossing)} days (${interval}), ${formatTime(forecast.crossing_at)}`;
}

/**
 * "Z end Rx lane 3": lanes count from 1, as modules (CMIS) and their labels number them; the API's
 * `lane` counts from 0 (docs/telemetry.md).
 */
export function laneLabel(lane: number): string {
  return `lane ${lane + 1}`;
}

export function readingName(forecast: Pick<LinkForecast, 'side' | 'quantity' | 'lane'>): string {
  return `${SIDE_LABEL[forecast.side]} end ${forecast.quantity === 'rx' ? 'Rx' : 'Tx'} ${laneLabel(forecast.lane)}`;
}

/** "falling 0.40 dB/day" (or rising, or flat when the slope rounds to zero). */
export function slopeText(slopeDbPerDay: number): string {
  const size = Math.abs(slopeDbPerDay).toFixed(2);
  if (size === '0.00') return 'flat';
  return `${slopeDbPerDay < 0 ? 'falling' : 'rising'} ${size} dB/day`;
}

/**
 * "Z end Rx lane 2: -8.9 dBm, falling 0.40 dB/day, limit -10.0 dBm (catalog)"; a dark lane has no
 * level nor slope: "Z end Rx lane 2: dark, limit -10.0 dBm (catalog)".
 */
export function readingText(
  forecast: Pick<
    LinkForecast,
    'side' | 'quantity' | 'lane' | 'level_dbm' | 'slope_db_per_day' | 'limit_dbm' | 'limit_provenance'
  >,
): string {
  const parts = [forecast.level_dbm === null ? 'dark' : formatDbm(forecast.level_dbm)];
  if (forecast.slope_db_per_day !== null) parts.push(slopeText(forecast.slope_db_per_day));
  if (forecast.limit_dbm !== null) {
    const provenance = forecast.limit_provenance ? ` (${forecast.limit_provenance})` : '';
    parts.push(`limit ${formatDbm(forecast.limit_dbm)}${provenance}`);
  }
  return `${readingName(forecast)}: ${parts.join(', ')}`;
}

/**
 * The link page's header line of an at-risk link: "Z end Rx lane 3 crosses its limit in ~2.3 d,
 * 2026-11-29 12:00 UTC" ("… is at its limit now"; "… was forecast to cross its limit <time>, 29 h ago").
 */
export function crossingHeadline(forecast: LinkForecast, now: Date): string {
  const reading = readingName(forecast);
  const state = crossingState(forecast, now);
  if (state === 'at_limit') return `${reading} is at its limit now`;
  if (state === 'overdue') {
    const late = durationText(now.getTime() - Date.parse(forecast.crossing_at));
    return `${reading} was forecast to cross its limit ${formatTime(forecast.crossing_at)}, ${late} ago`;
  }
  return `${reading} crosses its limit in ~${days(daysUntil(forecast.crossing_at, now))} d, ${formatTime(forecast.crossing_at)}`;
}

/** "87%" */
export function confidenceText(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** The line under the link page's power chart: the chart's forecast in words. */
export function forecastSentence(forecast: LinkForecast, horizonDays: number, now: Date): string {
  const reading = readingText(forecast);
  const state = crossingState(forecast, now);
  const when =
    state === 'at_limit'
      ? 'It is at its limit now'
      : state === 'overdue'
        ? `It was forecast to reach its limit ${formatTime(forecast.crossing_at)}, ` +
          `${durationText(now.getTime() - Date.parse(forecast.crossing_at))} ago`
        : `It reaches its limit ${formatTime(forecast.crossing_at)} (between ${formatTime(forecast.earliest_at)} and ` +
          `${forecast.latest_at === null ? 'never' : formatTime(forecast.latest_at)})`;
  const risk = forecast.at_risk
    ? `at risk within the ${horizonDays}-day horizon`
    : `not at risk within the ${horizonDays}-day horizon`;
  return (
    `Forecast made ${formatTime(forecast.computed_at)}. ${reading}. ${when}; ${confidenceText(forecast.confidence)} ` +
    `confidence, ${risk}. Probable cause: ${forecast.cause_label}. Recommended: ${forecast.recommended_action_label}.`
  );
}

/** "No link is forecast to cross its limit within 7 days." */
export function emptyText(horizonDays: number, causes: readonly ForecastCause[]): string {
  const within = `within ${horizonDays} day${horizonDays === 1 ? '' : 's'}`;
  if (causes.length === 0 || causes.length === FORECAST_CAUSES.length) {
    return `No link is forecast to cross its limit ${within}.`;
  }
  const named = causes.map((cause) => CAUSE_LABELS[cause]).join(' or ');
  return `No link is forecast to cross its limit ${within} (cause: ${named}).`;
}

const FAILED_WORDS: Record<LinkFailure['state'], string> = {
  disabled: 'out of service for corruption',
  corrupting: 'corrupting in service',
};

/** "Failed: out of service for corruption since 2026-11-27 13:10 UTC (5 h ago)." */
export function failedText(failed: Pick<LinkFailure, 'state' | 'since'>, now: Date): string {
  const since = failed.since ? ` since ${formatTimeWithAge(failed.since, now)}` : '';
  return `Failed: ${FAILED_WORDS[failed.state]}${since}.`;
}

/**
 * The newest readings of one link end, as the link page's "Newest readings" table shows them
 * (telemetry's SideStatus): the failed sentence reads these, not the forecast's level when it was made.
 */
export interface NewestSideReadings {
  input_power_dbm: number | null;
  input_power_min_channel_dbm: number | null;
  output_power_dbm: number | null;
  output_power_min_channel_dbm: number | null;
  rx_no_light: boolean | null;
  tx_no_light: boolean | null;
}

/**
 * "A end Tx reads −13.7 dBm, lowest lane −14.0 dBm, past its limit −8.4 dBm (catalog)." for the
 * forecast's end and quantity when its newest reading (trial 30: the same numbers as the Newest
 * readings table, not the forecast's older level) is at or past the limit ("… is dark." for a dark
 * end); null when it is still above it (the link failed of something its optics do not show).
 */
export function pastLimitText(
  forecast: Pick<LinkForecast, 'side' | 'quantity' | 'limit_dbm' | 'limit_provenance'>,
  newest: NewestSideReadings,
): string | null {
  const rx = forecast.quantity === 'rx';
  const name = `${SIDE_LABEL[forecast.side]} end ${rx ? 'Rx' : 'Tx'}`;
  if (rx ? newest.rx_no_light : newest.tx_no_light) return `${name} is dark.`;
  const average = rx ? newest.input_power_dbm : newest.output_power_dbm;
  const lowest = (rx ? newest.input_power_min_channel_dbm : newest.output_power_min_channel_dbm) ?? average;
  if (average === null || lowest === null || forecast.limit_dbm === null || lowest > forecast.limit_dbm) return null;
  const lanes = lowest !== average ? `, lowest lane ${formatDbm(lowest)}` : '';
  const provenance = forecast.limit_provenance ? ` (${forecast.limit_provenance})` : '';
  return `${name} reads ${formatDbm(average)}${lanes}, past its limit ${formatDbm(forecast.limit_dbm)}${provenance}.`;
}

/** What owns a failed link when no ticket does yet: CorrOpt for one it keeps in service. */
export function failedWithoutTicketText(failed: Pick<LinkFailure, 'state'>): string {
  return failed.state === 'corrupting'
    ? 'CorrOpt keeps it in service for capacity; no ticket has it yet.'
    : 'No ticket has it yet.';
}

/**
 * The forecast the link's charts draw: none for a failed link (its reading is past the limit: a trend
 * "to its limit" and a crossing band at "now" would say nothing the failure does not).
 */
export function chartedForecast(answer: LinkForecastAnswer | undefined): LinkForecastAnswer | undefined {
  return answer?.failed ? undefined : answer;
}
