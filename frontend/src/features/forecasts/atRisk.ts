/**
 * The At risk page's filters (they live in the URL) and its order: links by time to crossing.
 * Pure, so vitest checks them without rendering.
 */
import type { AtRiskLink, AtRiskQuery, ForecastCause, SwitchRack } from './api/types';
import { FORECAST_CAUSES, isForecastCause } from './forecastText';

/** The fabric setting's default (Fabric.forecast_horizon_days), until the fabric has loaded. */
export const DEFAULT_HORIZON_DAYS = 7;
/** The fabric setting's bounds: at risk means within the fabric's horizon, so the filter never reaches past it. */
export const MIN_HORIZON_DAYS = 1;

export interface AtRiskFilters {
  fabric?: number;
  /** Empty: every cause. */
  causes: ForecastCause[];
  /** Undefined: the fabric's horizon. */
  horizonDays?: number;
}

/** ?fabric=1&cause=contamination&cause=bent_fiber&horizon=3 */
export function filtersFromSearchParams(params: URLSearchParams): AtRiskFilters {
  const fabric = Number(params.get('fabric'));
  const horizon = Number(params.get('horizon'));
  const causes = params.getAll('cause').filter(isForecastCause);
  return {
    fabric: Number.isInteger(fabric) && fabric > 0 ? fabric : undefined,
    causes: FORECAST_CAUSES.filter((cause) => causes.includes(cause)),
    horizonDays: params.has('horizon') && Number.isFinite(horizon) && horizon > 0 ? horizon : undefined,
  };
}

export function searchParamsFromFilters(filters: AtRiskFilters, page?: number): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.fabric !== undefined) params.set('fabric', String(filters.fabric));
  for (const cause of filters.causes) params.append('cause', cause);
  if (filters.horizonDays !== undefined) params.set('horizon', String(filters.horizonDays));
  if (page !== undefined && page > 1) params.set('page', String(page));
  return params;
}

/** The horizon the list is cut at: the filter's, never beyond the fabric's (no link is at risk past it). */
export function effectiveHorizon(filters: AtRiskFilters, fabricHorizonDays: number): number {
  if (filters.horizonDays === undefined) return fabricHorizonDays;
  return Math.min(Math.max(filters.horizonDays, MIN_HORIZON_DAYS), fabricHorizonDays);
}

export function atRiskQuery(fabric: number, filters: AtRiskFilters, fabricHorizonDays: number): AtRiskQuery {
  const horizon = effectiveHorizon(filters, fabricHorizonDays);
  return {
    fabric,
    at_risk: true,
    ...(filters.causes.length === 0 ? {} : { risk_cause: filters.causes }),
    // The fabric's own horizon is what at_risk already means: no second cut to send.
    ...(horizon < fabricHorizonDays ? { crossing_within_days: horizon } : {}),
  };
}

export function linkName(link: Pick<AtRiskLink, 'a_switch_name' | 'a_port' | 'z_switch_name' | 'z_port'>): string {
  return `${link.a_switch_name} ${link.a_port} ↔ ${link.z_switch_name} ${link.z_port}`;
}

/** Soonest crossing first; at the same time the surer forecast, then by name so the order is stable. */
export function byTimeToCrossing(links: readonly AtRiskLink[]): AtRiskLink[] {
  const crossing = (link: AtRiskLink) =>
    link.forecast ? Date.parse(link.forecast.crossing_at) : Number.POSITIVE_INFINITY;
  return [...links].sort(
    (left, right) =>
      crossing(left) - crossing(right) ||
      (right.forecast?.confidence ?? 0) - (left.forecast?.confidence ?? 0) ||
      linkName(left).localeCompare(linkName(right)),
  );
}

/** The switches whose racks a page of rows shows, by name, sorted (one request for all). */
export function switchNames(links: readonly AtRiskLink[]): string[] {
  return [...new Set(links.flatMap((link) => [link.a_switch_name, link.z_switch_name]))].sort();
}

/** "r12" or "—" when the switch has no rack (or is not loaded yet). */
export function rackOf(name: string, racks: ReadonlyMap<string, SwitchRack>): string {
  return racks.get(name)?.rack || '—';
}

/** Rows per page: each row's full forecast is one request, so a page stays short. */
export const PAGE_SIZE = 25;

/** The page's slice of the links, after sorting all of them by time to crossing. */
export function pageOfLinks(links: readonly AtRiskLink[], page: number): AtRiskLink[] {
  const start = (Math.max(1, Math.floor(page)) - 1) * PAGE_SIZE;
  return byTimeToCrossing(links).slice(start, start + PAGE_SIZE);
}
