/** Builds link telemetry answers for tests, shaped as GET /api/links/{id}/telemetry/ returns them. */
import type { LinkForecast, LinkForecastAnswer } from '@/features/forecasts';

import type {
  Direction,
  DirectionLoss,
  DirectionSignature,
  HourlySideSeries,
  LinkStatus,
  LinkTelemetry,
  LossSeriesSignature,
  RawSideSeries,
  SideStatus,
  SideThresholds,
} from '../api/types';

export const T0 = Date.parse('2026-11-22T00:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export function catalogThresholds(rxLower = -10.3, txLower = -8.4): SideThresholds {
  return {
    input_power_lower_dbm: { value: rxLower, provenance: 'catalog' },
    input_power_upper_dbm: { value: 2.4, provenance: 'catalog' },
    output_power_lower_dbm: { value: txLower, provenance: 'catalog' },
    output_power_upper_dbm: { value: 2.4, provenance: 'catalog' },
  };
}

/** Raw optical samples every 5 minutes; `rx` null at an index = dark receiver there. */
export function rawSide(rx: (number | null)[], tx: number, start = T0): RawSideSeries {
  return {
    time: rx.map((_, index) => iso(start + index * 5 * MINUTE)),
    input_power_dbm: rx,
    output_power_dbm: rx.map(() => tx),
    rx_no_light: rx.map((value) => value === null),
    tx_no_light: rx.map(() => false),
  };
}

export function rates(rates: (number | null)[], start = T0 + 15 * MINUTE, stepMs = 15 * MINUTE) {
  return { time: rates.map((_, index) => iso(start + index * stepMs)), rate: rates };
}

const EMPTY_LOSS: DirectionLoss = { corruption: { time: [], rate: [] }, congestion: { time: [], rate: [] } };

function sideStatus(overrides: Partial<SideStatus> = {}): SideStatus {
  return {
    optical_time: iso(T0 + 2 * HOUR),
    input_power_dbm: -3.1,
    input_power_min_channel_dbm: -3.4,
    output_power_dbm: -1,
    output_power_min_channel_dbm: -1.2,
    laser_bias_current_ma: 6.5,
    temperature_c: 41.2,
    supply_voltage_v: 3.29,
    rx_no_light: false,
    tx_no_light: false,
    rx_class: 'ok',
    tx_class: 'ok',
    counter_time: iso(T0 + 2 * HOUR),
    thresholds: catalogThresholds(),
    ...overrides,
  };
}

export function linkStatus(overrides: Partial<LinkStatus> = {}): LinkStatus {
  return {
    link: 7,
    health: 'corrupting',
    rx_low: true,
    sides: {
      a: sideStatus(),
      z: sideStatus({
        input_power_dbm: -11.8,
        input_power_min_channel_dbm: -12.4,
        rx_class: 'low',
        thresholds: {
          ...catalogThresholds(),
          input_power_lower_dbm: { value: -11, provenance: 'manual' },
          output_power_lower_dbm: { value: -8, provenance: 'device' },
        },
      }),
    },
    directions: {
      a_to_z: {
        health: 'corrupting',
        corruption_rate: 5e-5,
        corruption_time: iso(T0 + 2 * HOUR),
        congestion_rate: 2e-5,
        congestion_time: iso(T0 + 2 * HOUR),
        health_since: iso(T0 + 15 * MINUTE),
      },
      z_to_a: {
        health: 'clean',
        corruption_rate: 0,
        corruption_time: iso(T0 + 2 * HOUR),
        congestion_rate: 0,
        congestion_time: iso(T0 + 2 * HOUR),
        health_since: iso(T0 + 15 * MINUTE),
      },
    },
    ...overrides,
  };
}

/** Two hours of raw telemetry: A healthy, Z's Rx falling and dark once, A→Z corrupting. */
export function lossSignature(overrides: Partial<LossSeriesSignature> = {}): LossSeriesSignature {
  return {
    intervals: 8,
    lossy_intervals: 0,
    mean_rate: 0,
    cv: null,
    load_correlation: null,
    mean_packets_per_s: null,
    signature: 'clean',
    ...overrides,
  };
}

export function signatures(): Record<Direction, DirectionSignature> {
  return {
    a_to_z: {
      corruption: lossSignature({
        lossy_intervals: 8,
        mean_rate: 5e-5,
        cv: 0.12,
        load_correlation: 0.08,
        signature: 'corruption-like',
      }),
      congestion: lossSignature(),
      verdict: 'corruption-like',
    },
    z_to_a: {
      corruption: lossSignature({ intervals: 3 }),
      congestion: lossSignature({ intervals: 3 }),
      verdict: 'insufficient data',
    },
  };
}

export function rawTelemetry(): LinkTelemetry {
  const zRx = Array.from({ length: 24 }, (_, index) => (index === 10 ? null : -9.5 - 0.1 * index));
  return {
    link: 7,
    from: iso(T0),
    to: iso(T0 + 2 * HOUR),
    resolution: 'raw',
    sides: {
      a: rawSide(
        Array.from({ length: 24 }, () => -3.1),
        -1,
      ),
      z: rawSide(zRx, -1.4),
    },
    loss: {
      a_to_z: {
        corruption: rates([5e-5, 5e-5, null, 5e-5, 6e-5]),
        congestion: rates([2e-5, 2e-5, null, 2e-5, 2e-5]),
      },
      z_to_a: { corruption: rates([0, 0, null, 0, 0]), congestion: rates([0, 1e-7, null, 0, 0]) },
    },
    thresholds: { a: catalogThresholds(), z: catalogThresholds() },
    signatures: signatures(),
    corruption_action_threshold: 1e-6,
    corruption_report_threshold: 1e-8,
    status: linkStatus(),
  };
}

/** Hourly aggregates over two days for side A only, with a missing block of hours. */
export function hourlyTelemetry(): LinkTelemetry {
  const hours = [0, 1, 2, 3, 10, 11, 12];
  const a: HourlySideSeries = {
    time: hours.map((hour) => iso(T0 + hour * HOUR)),
    input_power_dbm_avg: hours.map(() => -3),
    input_power_dbm_min: hours.map(() => -3.5),
    input_power_dbm_max: hours.map(() => -2.5),
    output_power_dbm_avg: hours.map(() => -1),
    output_power_dbm_min: hours.map(() => -1.2),
    output_power_dbm_max: hours.map(() => -0.8),
    rx_no_light_samples: hours.map((hour) => (hour === 11 ? 3 : 0)),
  };
  const z: HourlySideSeries = {
    time: [],
    input_power_dbm_avg: [],
    input_power_dbm_min: [],
    input_power_dbm_max: [],
    output_power_dbm_avg: [],
    output_power_dbm_min: [],
    output_power_dbm_max: [],
    rx_no_light_samples: [],
  };
  return {
    link: 7,
    from: iso(T0),
    to: iso(T0 + 2 * 24 * HOUR),
    resolution: 'hour',
    sides: { a, z },
    loss: { a_to_z: EMPTY_LOSS, z_to_a: EMPTY_LOSS },
    thresholds: { a: catalogThresholds(), z: catalogThresholds(-11) },
    signatures: signatures(),
    corruption_action_threshold: 1e-6,
    corruption_report_threshold: 1e-8,
    status: linkStatus({ health: 'clean', rx_low: false }),
  };
}

/**
 * GET /api/links/{id}/forecast/ of a link whose Z Rx falls from -8.0 dBm to the catalog's Rx limit
 * (-10.3 dBm) 1.5 days after rawTelemetry's range ends, when the forecast was made.
 */
export function forecastAnswer(overrides: Partial<LinkForecast> = {}, horizonDays = 7): LinkForecastAnswer {
  const made = T0 + 2 * HOUR;
  return {
    link: 47,
    horizon_days: horizonDays,
    min_confidence: 0.8,
    failed: null,
    forecast: {
      computed_at: iso(made),
      crossing_at: iso(made + 36 * HOUR),
      earliest_at: iso(made + 24 * HOUR),
      latest_at: iso(made + 72 * HOUR),
      confidence: 0.9,
      at_risk: true,
      cause: 'contamination',
      cause_label: 'contamination',
      side: 'z',
      end: { switch: 'p0-fab0', port: 'eth1/1', rack: 'r90' },
      quantity: 'rx',
      lane: 1,
      level_dbm: -8,
      slope_db_per_day: -1.53,
      limit_dbm: -10.3,
      limit_provenance: 'catalog',
      cause_side: 'z',
      recommended_action: 'clean_fiber',
      recommended_action_label: 'Clean the connectors, p0-fab0:eth1/1 (end Z) first',
      ...overrides,
    },
  };
}
