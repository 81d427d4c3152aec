/**
 * The At risk page's filters (they live in the URL) and the query they make; the server orders
 * (soonest crossing first) and pages the list. Pure, so vitest checks them without rendering.
 */
import type { AtRiskQuery, ForecastCause, LinkForecastRow } from './api/types';
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
    ...(filters.causes.length === 0 ? {} : { cause: filters.causes }),
    // The fabric's own horizon is what at_risk already means: no second cut to send.
    ...(horizon < fabricHorizonDays ? { crossing_within_days: horizon } : {}),
  };
}

export function linkName({ link }: Pick<LinkForecastRow, 'link'>): string {
  return `${link.a.switch} ${link.a.port} ↔ ${link.z.switch} ${link.z.port}`;
}

/** Rows per page, as the server pages them. */
export const PAGE_SIZE = 25;

/** The list's window for a page (1-based). */
export function pageWindow(page: number): { limit: number; offset: number } {
  return { limit: PAGE_SIZE, offset: (Math.max(1, Math.floor(page)) - 1) * PAGE_SIZE };
}
