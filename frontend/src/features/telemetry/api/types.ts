/**
 * Telemetry answers, generated from the server's OpenAPI document (telemetry/api/serializers.py).
 * UI-only: `Resolution` (the chart's choice) and `TelemetryQuery` (the range the page asks for).
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** Sides of a link: A is the lower tier. */
export type Side = Schemas['SideEnum'];
/** `a_to_z`: side A transmits, side Z receives. */
export type Direction = Schemas['DirectionEnum'];
export type Resolution = 'raw' | 'hour';
export type PowerClass = Schemas['PowerClassEnum'];
export type ThresholdProvenance = Schemas['ProvenanceEnum'];

/* GET /api/links/{id}/telemetry/: the generated OpenAPI types (telemetry/api/serializers.py). */

export type ResolvedThreshold = Schemas['ResolvedThreshold'];
export type SideThresholds = Schemas['SideThresholds'];
export type ThresholdField = keyof SideThresholds;
/** Raw samples of one side; values are null where not measured or dark. */
export type RawSideSeries = Schemas['RawSideSeries'];
/** Hourly aggregates of one side. */
export type HourlySideSeries = Schemas['HourlySideSeries'];
/** Loss rates as fractions; a null rate is a gap (counter reset, missing polls), not a zero. */
export type RateSeries = Schemas['RateSeries'];
export type DirectionLoss = Schemas['DirectionLoss'];
export type SideStatus = Schemas['SideStatus'];
export type DirectionStatus = Schemas['DirectionStatus'];
export type LinkStatus = Schemas['LinkStatus'];
/** Statistics of one loss series over the range (docs/telemetry.md, "Loss signatures"). */
export type LossSeriesSignature = Schemas['LossSeriesSignature'];
export type DirectionSignature = Schemas['DirectionSignature'];
/** `resolution` says which columns `sides` has. */
export type LinkTelemetry = Schemas['LinkTelemetry'];

export interface TelemetryQuery {
  /** ISO 8601; both absent means the API's default, the last 24 hours. */
  from?: string;
  to?: string;
}

/** A row of GET /api/corruption-events/. */
export type CorruptionEvent = Schemas['CorruptionEvent'];
