/** The visit-delay histogram's data: the engine's powers-of-two bins per algorithm, aligned. */
import { formatSeconds } from '@/lib/format';

import type { CircuitMetrics, VisitDelayBin } from './api/types';
import { algorithmLabel } from './scheduleFormat';

export interface HistogramBin {
  minSlots: number;
  maxSlots: number;
  /** "0", "1", "2–3" */
  slotsLabel: string;
  /** The same range in time at the period: "0 s", "1 s", "2–3 s". */
  secondsLabel: string;
}

export interface HistogramSeries {
  algorithm: string;
  label: string;
  chosen: boolean;
  /** Pairs per bin of the model's `bins` (0 past the algorithm's longest wait). */
  pairs: number[];
  totalPairs: number;
}

export interface VisitDelayModel {
  bins: HistogramBin[];
  series: HistogramSeries[];
  maxPairs: number;
}

type Row = Pick<CircuitMetrics, 'visit_delay_histogram'> & { algorithm: string };

function slotsLabel(low: number, high: number): string {
  return low === high ? String(low) : `${low}–${high}`;
}

/** Seconds without repeating the unit inside a range: "2–3 s", "250–750 ms". */
function secondsLabel(lowS: number, highS: number): string {
  if (highS === 0) return '0 s';
  const low = formatSeconds(lowS);
  const high = formatSeconds(highS);
  if (lowS === highS) return low;
  const [lowNumber, lowUnit] = low.split(' ');
  const [highNumber, highUnit] = high.split(' ');
  return lowUnit === highUnit ? `${lowNumber}–${highNumber} ${highUnit}` : `${low}–${high}`;
}

/**
 * One series per algorithm that has a histogram (the chosen one first), over the bins of the
 * longest: every algorithm has the same powers-of-two edges, so bin i means the same range in each.
 * Null when no row has a histogram (results computed before it existed).
 */
export function visitDelayModel(rows: readonly Row[], chosen: string, periodS: number): VisitDelayModel | null {
  const withHistogram = rows.filter(
    (row): row is Row & { visit_delay_histogram: VisitDelayBin[] } => row.visit_delay_histogram !== undefined,
  );
  if (withHistogram.length === 0) return null;
  const sorted = [...withHistogram].sort((a, b) => Number(b.algorithm === chosen) - Number(a.algorithm === chosen));
  const longest = sorted.reduce<VisitDelayBin[]>(
    (most, row) => (row.visit_delay_histogram.length > most.length ? row.visit_delay_histogram : most),
    [],
  );
  const bins = longest.map((bin) => ({
    minSlots: bin.min_slots,
    maxSlots: bin.max_slots,
    slotsLabel: slotsLabel(bin.min_slots, bin.max_slots),
    secondsLabel: secondsLabel(bin.min_slots * periodS, bin.max_slots * periodS),
  }));
  const series = sorted.map((row) => {
    const pairs = bins.map((_, i) => row.visit_delay_histogram[i]?.pairs ?? 0);
    return {
      algorithm: row.algorithm,
      label: algorithmLabel(row.algorithm),
      chosen: row.algorithm === chosen,
      pairs,
      totalPairs: pairs.reduce((sum, count) => sum + count, 0),
    };
  });
  return { bins, series, maxPairs: Math.max(0, ...series.flatMap((s) => s.pairs)) };
}
