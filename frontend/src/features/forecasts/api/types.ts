/**
 * Forecast answers of issue #19 (docs/telemetry.md, "Forecasts: optics at risk"), generated from
 * the server's OpenAPI document (telemetry/api/serializers.py): GET /api/links/{id}/forecast/ and
 * the rows of GET /api/link-forecasts/. UI-only: `AtRiskQuery` (the list's query parameters).
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type ForecastCause = Schemas['ForecastCauseEnum'];

/** The forecast in full: level, slope and limit are null for a dark lane (no light, nothing to fit). */
export type LinkForecast = Schemas['LinkForecastDetail'];

/** GET /api/links/{id}/forecast/: the forecast (null: none) with the fabric's horizon it was judged by. */
export type LinkForecastAnswer = Schemas['LinkForecast'];

/** How a failed link failed (corrupting, or out of service for corruption), since when, and its ticket. */
export type LinkFailure = Schemas['LinkFailure'];

/** A row of GET /api/link-forecasts/: the forecast in full with its link's name and both ends (racks included). */
export type LinkForecastRow = Schemas['LinkForecastRow'];

/** Query parameters of GET /api/link-forecasts/ for the At risk page (a repeated parameter means OR). */
export interface AtRiskQuery {
  fabric: number;
  at_risk: true;
  cause?: ForecastCause[];
  crossing_within_days?: number;
}

/** POST /api/tickets/preventive/ body. */
export type OpenPreventiveRequest = Schemas['OpenPreventiveRequest'];

/** Its 201 answer: the new ticket (kind "preventive"). */
export type PreventiveTicket = Schemas['TicketDetail'];
