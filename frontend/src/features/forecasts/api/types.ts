/**
 * Forecast answers of issue #19 (docs/telemetry.md, "Forecasts: optics at risk"), generated from
 * the server's OpenAPI document (telemetry/api/serializers.py): the brief forecast every link row
 * carries, and GET /api/links/{id}/forecast/. UI-only: `AtRiskQuery` (the list's query parameters).
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type ForecastCause = Schemas['ForecastCauseEnum'];

/** A row of GET /api/links/?at_risk=true: a link with its brief forecast (null: none). */
export type AtRiskLink = Schemas['Link'];

/** The forecast in full: level, slope and limit are null for a dark lane (no light, nothing to fit). */
export type LinkForecast = Schemas['LinkForecastDetail'];

/** GET /api/links/{id}/forecast/: the forecast (null: none) with the fabric's horizon it was judged by. */
export type LinkForecastAnswer = Schemas['LinkForecast'];

/** What the At risk page needs of a switch: its rack (GET /api/switches/?name=…). */
export type SwitchRack = Pick<Schemas['Switch'], 'id' | 'name' | 'rack'>;

/** Query parameters of the at-risk list, as the API reads them (a repeated parameter means OR). */
export interface AtRiskQuery {
  fabric: number;
  at_risk: true;
  risk_cause?: ForecastCause[];
  crossing_within_days?: number;
}

/** POST /api/tickets/preventive/ body. */
export type OpenPreventiveRequest = Schemas['OpenPreventiveRequest'];

/** Its 201 answer: the new ticket (kind "preventive"). */
export type PreventiveTicket = Schemas['TicketDetail'];
