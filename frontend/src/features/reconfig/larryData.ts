/**
 * Data shaping for the Larry view: per-rack uplinks over time, the circuits that moved at each
 * step, the feasibility certificate in words, and the cost comparison's groups.
 */
import type {
  CheckAnswer,
  CircuitMove,
  CostRow,
  LarryChange,
  LarryMetrics,
  LarryPolicy,
  LarryResult,
  LarrySeries,
  RackSet,
} from './api/types';

/** One bar of a rack's uplinks over time. */
export interface UplinkBar {
  /** Index into the series. */
  index: number;
  /** When the controller set these uplinks (s); the bar holds until the next point. */
  t0: number;
  t1: number;
  uplinks: number;
  /** Demand over the period that ended at t0, in links' worth (Gbit/s ÷ C). */
  demandLinks: number;
}

export interface RackSeries {
  rack: number;
  name: string;
  bars: UplinkBar[];
}

/** The spacing of the series' points (the period, or the bin width when binned). */
function seriesStep(series: LarrySeries): number {
  const times = series.time_s;
  if (times.length < 2) return 1;
  return (times.at(-1)! - times[0]!) / (times.length - 1);
}

/**
 * Per rack, the uplinks the controller set at each step as bars that hold until the next step, and
 * the demand it measured over the period just ended (the demand it reacted to) in links' worth.
 */
export function uplinkSeries(result: Pick<LarryResult, 'series' | 'racks' | 'inputs'>): RackSeries[] {
  const { series } = result;
  const capacity = result.inputs.rack_set.capacity_gbps;
  const step = seriesStep(series);
  return result.racks.map((name, rack) => ({
    rack,
    name,
    bars: series.time_s.map((t0, index) => ({
      index,
      t0,
      t1: series.time_s[index + 1] ?? t0 + step,
      uplinks: series.uplinks[index]![rack]!,
      demandLinks: series.demand_gbps[index]![rack]! / capacity,
    })),
  }));
}

export function rackName(racks: readonly string[], rack: number): string {
  return racks[rack] ?? `rack ${rack}`;
}

function end(point: [number, number] | null, racks: readonly string[]): string {
  return point ? `${rackName(racks, point[0])} (cable port ${point[1]})` : 'idle';
}

export function describeMove(move: CircuitMove, racks: readonly string[]): string {
  return `CS ${move.cs} uplink ${move.uplink}: ${end(move.from, racks)} → ${end(move.to, racks)}`;
}

/** Uplinks each rack gained (+) or gave (−) in a change, from its diff. */
export function uplinkDeltas(moves: readonly CircuitMove[], racks: number): number[] {
  const delta = Array.from({ length: racks }, () => 0);
  for (const move of moves) {
    if (move.from) delta[move.from[0]]! -= 1;
    if (move.to) delta[move.to[0]]! += 1;
  }
  return delta;
}

/** The change at the series point `index` (unbinned: the same step), if circuits moved there. */
export function changesAt(result: Pick<LarryResult, 'series' | 'changes'>, index: number): LarryChange[] {
  const { time_s: times } = result.series;
  const t0 = times[index];
  if (t0 === undefined) return [];
  if (!result.series.binned) return result.changes.filter((change) => change.time_s === t0);
  const t1 = times[index + 1] ?? Number.POSITIVE_INFINITY;
  return result.changes.filter((change) => change.time_s >= t0 && change.time_s < t1);
}

/** The series point holding time t: the last one at or before it (0 before the first). */
export function pointAt(series: Pick<LarrySeries, 'time_s'>, t: number): number {
  let found = 0;
  series.time_s.forEach((time, index) => {
    if (time <= t) found = index;
  });
  return found;
}

/** Series points at which circuits moved (their index), for the step slider's marks. */
export function changeIndices(result: Pick<LarryResult, 'series' | 'changes'>): number[] {
  return result.series.time_s.flatMap((_, index) => (changesAt(result, index).length > 0 ? [index] : []));
}

export const POLICY_LABEL: Record<LarryPolicy, string> = {
  conservative: 'Larry (per circuit switch)',
  one_big_switch: 'One big circuit switch',
  proportional: 'Proportional oracle',
  static: 'Static uplinks',
};

export interface MetricsRow {
  policy: LarryPolicy;
  label: string;
  metrics: LarryMetrics;
  /** The policy this run used (the others are baselines over the same counters). */
  run: boolean;
}

/** The run's policy first, then the baselines in a stable order. */
export function metricsRows(result: Pick<LarryResult, 'policy' | 'metrics' | 'baselines'>): MetricsRow[] {
  const order: LarryPolicy[] = ['conservative', 'one_big_switch', 'proportional', 'static'];
  return [
    { policy: result.policy, label: POLICY_LABEL[result.policy], metrics: result.metrics, run: true },
    ...order
      .filter((policy) => policy !== result.policy && result.baselines[policy])
      .map((policy) => ({ policy, label: POLICY_LABEL[policy], metrics: result.baselines[policy], run: false })),
  ];
}

// --- Feasibility -------------------------------------------------------------------------------

/** "3,3,2,0" (commas or spaces) as whole numbers; one message per bad entry. */
export function parseUplinkVector(text: string, racks: number | null): { values: number[] | null; errors: string[] } {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const errors: string[] = [];
  const values = parts.map((part) => {
    const value = Number(part);
    if (!Number.isInteger(value) || value < 0) errors.push(`“${part}” is not a whole number of uplinks.`);
    return value;
  });
  if (parts.length === 0) errors.push('Give one uplink count per rack, e.g. 3,3,2,0.');
  else if (racks !== null && parts.length !== racks) {
    errors.push(`Give one count per rack: the rack set has ${racks} racks, the vector ${parts.length} entries.`);
  }
  return errors.length > 0 ? { values: null, errors } : { values, errors };
}

export interface Certificate {
  /** The verdict in one sentence. */
  headline: string;
  /** The whole request: how much of it the max flow (the min cut's capacity) reaches. */
  wholeRequest: string;
  /** The cut's racks: what they ask for and the most their cables reach (the engine's explanation). */
  bottleneck: string;
  /** The cut's parts in plain words. */
  details: string[];
}

/**
 * The min-cut certificate of an infeasible request in words, each number labelled: the cut's
 * capacity is the whole request's max flow, while its explanation's numbers are its racks' alone
 * (racks outside the cut may get all they ask). Null when the request is feasible.
 */
export function certificateText(answer: CheckAnswer): Certificate | null {
  const cut = answer.min_cut;
  if (answer.feasible || !cut) return null;
  const rack = (index: number) => answer.inputs.rack_set.racks?.[index] ?? `rack ${index}`;
  const switches = answer.inputs.rack_set_source?.circuit_switches;
  const circuitSwitch = (index: number) => switches?.[index]?.name ?? String(index);
  const one = cut.racks.length === 1;
  const details = [
    cut.circuit_switches.length > 0
      ? `Every uplink of circuit switch${cut.circuit_switches.length === 1 ? '' : 'es'} ${cut.circuit_switches.map(circuitSwitch).join(', ')} is used by ${one ? 'this rack' : 'these racks'}.`
      : `No circuit switch has its uplinks all used by ${one ? 'this rack' : 'these racks'}: ${one ? 'its' : 'their'} cables are the limit.`,
    ...cut.cables.map(
      ([tor, cs, count]) =>
        `Crossing the cut: ${count} cable${count === 1 ? '' : 's'} in service from ${rack(tor)} to circuit switch ${circuitSwitch(cs)}.`,
    ),
    `Granted instead: ${answer.granted.join(', ')}.`,
  ];
  return {
    headline: 'Infeasible: the request does not fit the cables in service.',
    wholeRequest: `Whole request: ${answer.total_granted} of ${answer.total_requested} circuit uplinks reachable (max flow).`,
    bottleneck: `Bottleneck: ${cut.racks.map(rack).join(', ')} request${one ? 's' : ''} ${cut.racks_requested} but ${one ? 'its' : 'their'} cables reach at most ${cut.racks_reach}.`,
    details,
  };
}

/** Cables in service per (ToR, CS): the cable matrix less the excluded ones. */
export function usableCables(rackSet: RackSet): number[][] {
  const usable = rackSet.cables.map((row) => [...row]);
  for (const [tor, cs] of rackSet.excluded ?? []) {
    const row = usable[tor];
    if (row && row[cs] !== undefined) row[cs] = Math.max(0, row[cs] - 1);
  }
  return usable;
}

// --- Cost comparison ---------------------------------------------------------------------------

export interface CostGroup {
  comparison: CostRow['comparison'];
  title: string;
  /** The row costs are normalised to. */
  baseline: string;
  rows: CostRow[];
}

const COMPARISON_TITLE: Record<CostRow['comparison'], string> = {
  rack_set: 'Rack set: static oversubscription and Larry',
  fat_tree: 'Fat tree: plain and ShareBackup',
};

/** Rows by comparison; each comparison's costs are normalised to its first row. */
export function costGroups(rows: readonly CostRow[]): CostGroup[] {
  const groups: CostGroup[] = [];
  for (const row of rows) {
    const group = groups.find((candidate) => candidate.comparison === row.comparison);
    if (group) group.rows.push(row);
    else
      groups.push({
        comparison: row.comparison,
        title: COMPARISON_TITLE[row.comparison],
        baseline: row.design,
        rows: [row],
      });
  }
  return groups;
}
