/**
 * The fabric page's forecast settings form: what the fields hold, the body they send, and where a
 * 400's problems go (each field's under it, the rest above the button). Pure, so vitest reads it.
 */
import { ApiError, errorMessages } from '@/lib/api-client';

import type { ForecastSettings } from './api/types';

export type ForecastField = keyof ForecastSettings;

export const FORECAST_FIELDS: readonly ForecastField[] = [
  'forecast_horizon_days',
  'forecast_min_confidence',
  'auto_preventive_tickets',
];

/** The inputs as typed: numbers stay text until sent, so a half-typed value is not rewritten. */
export interface ForecastForm {
  horizonDays: string;
  minConfidence: string;
  autoTickets: boolean;
}

export function formFromSettings(settings: ForecastSettings): ForecastForm {
  return {
    horizonDays: String(settings.forecast_horizon_days),
    minConfidence: String(settings.forecast_min_confidence),
    autoTickets: settings.auto_preventive_tickets,
  };
}

export type FieldProblems = Partial<Record<ForecastField, string[]>>;

/**
 * The body to send, or the fields that are not numbers at all (said at the field, nothing sent).
 * Ranges are the server's to judge: its 400 names every field out of range.
 */
export function settingsFromForm(form: ForecastForm): { body: ForecastSettings } | { problems: FieldProblems } {
  const horizon = form.horizonDays.trim() === '' ? Number.NaN : Number(form.horizonDays);
  const confidence = form.minConfidence.trim() === '' ? Number.NaN : Number(form.minConfidence);
  const problems: FieldProblems = {};
  if (!Number.isInteger(horizon)) problems.forecast_horizon_days = ['Enter a whole number of days.'];
  if (!Number.isFinite(confidence)) problems.forecast_min_confidence = ['Enter a fraction, e.g. 0.8.'];
  if (Object.keys(problems).length > 0) return { problems };
  return {
    body: {
      forecast_horizon_days: horizon,
      forecast_min_confidence: confidence,
      auto_preventive_tickets: form.autoTickets,
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A 400's messages under the fields they name; everything else (a 403, a network error) as general lines. */
export function splitServerProblems(error: unknown): { fields: FieldProblems; general: string[] } {
  if (!(error instanceof ApiError) || error.status !== 400 || !isRecord(error.body)) {
    return { fields: {}, general: error ? errorMessages(error) : [] };
  }
  const fields: FieldProblems = {};
  const general: string[] = [];
  for (const [key, value] of Object.entries(error.body)) {
    const messages = (Array.isArray(value) ? value : [value]).map(String);
    if ((FORECAST_FIELDS as readonly string[]).includes(key)) fields[key as ForecastField] = messages;
    else general.push(...messages);
  }
  return { fields, general };
}
