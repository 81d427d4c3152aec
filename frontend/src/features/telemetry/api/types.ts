import type { LinkHealth } from '@/lib/linkHealth';

/** Sides of a link: A is the lower tier. */
export type Side = 'a' | 'z';
/** `a_to_z`: side A transmits, side Z receives. */
export type Direction = 'a_to_z' | 'z_to_a';
export type Resolution = 'raw' | 'hour';
export type PowerClass = 'ok' | 'low' | 'high' | 'unknown';
export type ThresholdProvenance = 'manual' | 'device' | 'catalog';

export interface ResolvedThreshold {
  value: number | null;
  provenance: ThresholdProvenance | null;
}

export type ThresholdField =
  'input_power_lower_dbm' | 'input_power_upper_dbm' | 'output_power_lower_dbm' | 'output_power_upper_dbm';

export type SideThresholds = Record<ThresholdField, ResolvedThreshold>;

/** Raw samples of one side; values are null where not measured or dark. */
export interface RawSideSeries {
  time: string[];
  input_power_dbm: (number | null)[];
  output_power_dbm: (number | null)[];
  rx_no_light: boolean[];
  tx_no_light: boolean[];
}

/** Hourly aggregates of one side. */
export interface HourlySideSeries {
  time: string[];
  input_power_dbm_avg: (number | null)[];
  input_power_dbm_min: (number | null)[];
  input_power_dbm_max: (number | null)[];
  output_power_dbm_avg: (number | null)[];
  output_power_dbm_min: (number | null)[];
  output_power_dbm_max: (number | null)[];
  rx_no_light_samples: number[];
}

/** Loss rates as fractions; a null rate is a gap (counter reset, missing polls), not a zero. */
export interface RateSeries {
  time: string[];
  rate: (number | null)[];
}

export interface DirectionLoss {
  corruption: RateSeries;
  congestion: RateSeries;
}

export interface SideStatus {
  optical_time: string | null;
  input_power_dbm: number | null;
  input_power_min_channel_dbm: number | null;
  output_power_dbm: number | null;
  output_power_min_channel_dbm: number | null;
  laser_bias_current_ma: number | null;
  temperature_c: number | null;
  supply_voltage_v: number | null;
  rx_no_light: boolean | null;
  tx_no_light: boolean | null;
  rx_class: PowerClass | null;
  tx_class: PowerClass | null;
  counter_time: string | null;
  thresholds: SideThresholds;
}

export interface DirectionStatus {
  health: LinkHealth | null;
  corruption_rate: number | null;
  corruption_time: string | null;
  congestion_rate: number | null;
  congestion_time: string | null;
  health_since: string | null;
}

export interface LinkStatus {
  link: number;
  health: LinkHealth;
  rx_low: boolean;
  sides: Record<Side, SideStatus>;
  directions: Record<Direction, DirectionStatus>;
}

/** Statistics of one loss series over the range (docs/telemetry.md, "Loss signatures"). */
export interface LossSeriesSignature {
  intervals: number;
  lossy_intervals: number;
  mean_rate: number | null;
  cv: number | null;
  load_correlation: number | null;
  signature: string;
}

export interface DirectionSignature {
  corruption: LossSeriesSignature;
  congestion: LossSeriesSignature;
  /** 'corruption-like', 'congestion-like', 'clean', 'unclear' or 'insufficient data'. */
  verdict: string;
}

interface LinkTelemetryCommon {
  link: number;
  from: string;
  to: string;
  loss: Record<Direction, DirectionLoss>;
  signatures: Record<Direction, DirectionSignature>;
  thresholds: Record<Side, SideThresholds>;
  corruption_action_threshold: number;
  corruption_report_threshold: number;
  status: LinkStatus;
}

export type LinkTelemetry =
  | (LinkTelemetryCommon & { resolution: 'raw'; sides: Record<Side, RawSideSeries> })
  | (LinkTelemetryCommon & { resolution: 'hour'; sides: Record<Side, HourlySideSeries> });

export interface TelemetryQuery {
  /** ISO 8601; both absent means the API's default, the last 24 hours. */
  from?: string;
  to?: string;
}

export interface CorruptionEvent {
  id: number;
  link: number;
  link_name: string;
  fabric: number;
  direction: Direction;
  rate: number;
  first_seen: string;
  last_rate: number | null;
  peak_rate: number | null;
  last_seen: string | null;
  ended_at: string | null;
}
