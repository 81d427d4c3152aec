/** Numbers of a circuit schedule as people read them: metric cards and the algorithm comparison. */
import { formatCount, formatPercent, formatSeconds } from '@/lib/format';

import type { CircuitMetrics, CircuitSlot, ComparisonMetrics } from './api/types';

const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in decimal units (a 10 Gb/s circuit carries 1.25 GB a second), three significant digits. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1000 && unit < DECIMAL_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const text = unit === 0 ? String(Math.round(value)) : value.toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, '$1');
  return `${bytes < 0 ? '−' : ''}${text} ${DECIMAL_UNITS[unit]}`;
}

/** "3 slots (3 s)": a visit delay in slots and in time at the period. */
export function formatSlots(slots: number, periodS: number): string {
  return `${slots} slot${slots === 1 ? '' : 's'} (${formatSeconds(slots * periodS)})`;
}

export interface MetricCard {
  key: string;
  label: string;
  value: string;
  detail: string;
}

/** The schedule's headline numbers (docs/circuits.md "Outputs"). */
export function metricCards(metrics: CircuitMetrics, periodS: number, slotCount: number): MetricCard[] {
  const ratioVsUniform =
    metrics.uniform_ratio > 0
      ? `${(metrics.optical_ratio / metrics.uniform_ratio).toFixed(1)}× uniform`
      : 'no uniform ratio';
  return [
    {
      key: 'optical-ratio',
      label: 'Optical ratio',
      value: formatPercent(metrics.optical_ratio),
      detail: `uniform demand ${formatPercent(metrics.uniform_ratio)} (${ratioVsUniform}); ${formatBytes(
        metrics.offloaded_bytes,
      )} of ${formatBytes(metrics.total_bytes)} on circuits`,
    },
    {
      key: 'visit-delay',
      label: 'Circuit visit delay',
      value: `max ${metrics.visit_delay_max_slots}, p95 ${metrics.visit_delay_p95_slots} slots`,
      detail: `longest wait of a demanded pair without a circuit: ${formatSlots(metrics.visit_delay_max_slots, periodS)}`,
    },
    {
      key: 'flaps',
      label: 'Flaps',
      value: formatCount(metrics.flap_count),
      detail: 'circuits set up again one slot after being torn down',
    },
    {
      key: 'gap',
      label: 'Gap to upper bound',
      value: formatPercent(metrics.gap, 2),
      detail: `weight ${formatBytes(metrics.weight)} of bound ${formatBytes(metrics.bound)}`,
    },
    {
      key: 'runtime',
      label: 'Runtime',
      value: formatSeconds(metrics.runtime_s),
      detail:
        `${formatCount(slotCount)} slots of ${formatSeconds(periodS)}` +
        (metrics.fallback_slots > 0
          ? `; ${formatCount(metrics.fallback_slots)} fell back to greedy past the time budget`
          : ''),
    },
  ];
}

export interface ComparisonRow {
  algorithm: string;
  label: string;
  chosen: boolean;
  opticalRatio: number;
  /** Offloaded bytes relative to the best algorithm of the comparison (1 = best). */
  relativeToBest: number;
  cells: { optical: string; offloaded: string; gap: string; visitDelay: string; flaps: string; runtime: string };
}

export const ALGORITHM_LABELS: Record<string, string> = {
  exact: 'Exact (blossom)',
  greedy: 'Greedy',
  round_robin: 'Round-robin',
  'round-robin': 'Round-robin',
  static: 'Static (slot 1)',
  random: 'Random maximal',
};

export const ALGORITHM_ORDER = ['exact', 'greedy', 'round_robin', 'round-robin', 'static', 'random'];

export function algorithmLabel(algorithm: string): string {
  return ALGORITHM_LABELS[algorithm] ?? algorithm;
}

/** One row per algorithm, in a fixed order (exact first) so two comparisons read alike. */
export function comparisonRows(entries: readonly ComparisonMetrics[], chosen: string): ComparisonRow[] {
  const best = Math.max(0, ...entries.map((entry) => entry.offloaded_bytes));
  const rank = (algorithm: string) => {
    const at = ALGORITHM_ORDER.indexOf(algorithm);
    return at < 0 ? ALGORITHM_ORDER.length : at;
  };
  return [...entries]
    .sort((x, y) => rank(x.algorithm) - rank(y.algorithm) || x.algorithm.localeCompare(y.algorithm))
    .map((metrics) => ({
      algorithm: metrics.algorithm,
      label: algorithmLabel(metrics.algorithm),
      chosen: metrics.algorithm.replace('-', '_') === chosen.replace('-', '_'),
      opticalRatio: metrics.optical_ratio,
      relativeToBest: best > 0 ? metrics.offloaded_bytes / best : 0,
      cells: {
        optical: formatPercent(metrics.optical_ratio),
        offloaded: formatBytes(metrics.offloaded_bytes),
        gap: formatPercent(metrics.gap, 2),
        visitDelay: `${metrics.visit_delay_max_slots} / ${metrics.visit_delay_p95_slots}`,
        flaps: formatCount(metrics.flap_count),
        runtime: formatSeconds(metrics.runtime_s),
      },
    }));
}

/**
 * Why a slot is not certified optimal, or '' when it is: the exact plan fell back to greedy past the
 * time budget, edge groups steered it (a slot completing a group is reported inexact), or the plan
 * uses a baseline.
 */
export function slotCaveat(
  slot: Pick<CircuitSlot, 'exact' | 'algorithm'>,
  planAlgorithm: string,
  hasGroups: boolean,
): string {
  if (slot.exact) return '';
  if (planAlgorithm === 'exact' && slot.algorithm !== 'exact')
    return `${algorithmLabel(slot.algorithm)} past the time budget`;
  if (planAlgorithm === 'exact' && hasGroups) return 'edge groups chose it, not proven optimal';
  return `${algorithmLabel(slot.algorithm)} baseline, not exact`;
}
