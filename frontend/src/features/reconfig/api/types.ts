/**
 * Shapes of the ShareBackup and Larry engine answers (docs/reconfig.md), as the `sharebackup.plan`
 * and `larry.run` jobs and the synchronous endpoints return them.
 */
import type { Job } from '@/features/jobs/api/types';

// --- ShareBackup -------------------------------------------------------------------------------

export type ShareBackupEvent =
  | { type: 'switch_down'; switch: string }
  | { type: 'link_down'; a: string; b: string }
  | { type: 'repair_done'; switch: string }
  | { type: 'diagnosis_result'; switch: string; healthy: boolean };

/** A circuit: [low-side port, high-side port] of one circuit switch. */
export type Circuit = [number, number];

export interface CircuitSwitchWiring {
  circuit_switch: string;
  /** Group on the low side; null for the host side of a host–edge circuit switch. */
  low_group: string | null;
  high_group: string;
  low_ports: number;
  high_ports: number;
}

export interface CircuitSwitchCircuits {
  circuit_switch: string;
  circuits: Circuit[];
}

export interface ReplaceCall {
  circuit_switch: string;
  side: 'low' | 'high';
  failed_port: number;
  backup_port: number;
  /** The port on the other side whose circuit moves from the failed to the backup port. */
  peer_port: number;
  failed_switch: string;
  backup_switch: string;
}

export interface CircuitChange {
  circuit_switch: string;
  removed: Circuit[];
  added: Circuit[];
}

export interface GroupPool {
  group: string;
  spares: string[];
  failed: string[];
  suspects: string[];
}

export interface SlotFallback {
  slot: string;
  lost_links: number;
  disconnected_hosts: number;
  reroute_via: string[];
  capacity_fraction: number;
}

export interface DiagnosisTest {
  suspect: string;
  circuit_switch: string;
  circuit: Circuit | null;
  partner: string | null;
  waiting_for: string | null;
}

export interface PlannedEvent {
  index: number;
  event: ShareBackupEvent;
  status: 'normal' | 'degraded';
  replace_calls: ReplaceCall[];
  circuit_changes: CircuitChange[];
  /** Pools after the event, of the groups it touched only. */
  pools: GroupPool[];
  /** Every group without a working switch for some slot after the event. */
  degraded_groups: string[];
  fallback: SlotFallback[];
  diagnosis_tests: DiagnosisTest[];
  repair_tickets: string[];
  latency_ms: number;
}

export interface ShareBackupCounts {
  hosts: number;
  active_switches: number;
  failure_groups: number;
  backup_switches: number;
  circuit_switches: number;
  circuit_ports: number;
}

export interface ShareBackupPlan {
  fabric: { k: number; pods: number; backups: number };
  counts: ShareBackupCounts;
  wiring: CircuitSwitchWiring[];
  initial_circuits: CircuitSwitchCircuits[];
  events: PlannedEvent[];
  /** What the independent verifier found; empty when the plan is sound. */
  violations: string[];
}

export interface PoolSizePoint {
  backups: number;
  p_group: number;
  p_any: number;
}

export interface PoolSize {
  unavailability: number;
  group_slots: number;
  groups: number;
  backups: number;
  curve: PoolSizePoint[];
  degraded_hours_per_year: number;
}

// --- Larry -------------------------------------------------------------------------------------

export interface RackSet {
  static_uplinks: number;
  /** cables[tor][cs]: passive cables from ToR t to circuit switch c. */
  cables: number[][];
  /** Uplinks R_c of each circuit switch to aggregation. */
  cs_uplinks: number[];
  capacity_gbps: number;
  /** Cables out of service, one [tor, cs] entry per cable. */
  excluded?: [number, number][];
}

export interface MinCut {
  racks: number[];
  circuit_switches: number[];
  /** The most circuit uplinks the whole request can get (the max flow), racks outside the cut included. */
  capacity: number;
  /** Cables crossing the cut: [tor, cs, cables in service]. */
  cables: [number, number, number][];
  explanation: string;
}

export interface Feasibility {
  feasible: boolean;
  requested: number[];
  granted: number[];
  assignment: number[][];
  /** Per CS, [ToR cable port, uplink port] circuits. */
  circuits: [number, number][][];
  min_cut: MinCut | null;
}

export interface CircuitMove {
  cs: number;
  uplink: number;
  /** [rack, cable port] the uplink left; null: it was free. */
  from: [number, number] | null;
  /** [rack, cable port] the uplink joined; null: it is free now. */
  to: [number, number] | null;
}

export interface LarryStep {
  time_s: number;
  demand_gbps: number[];
  uplinks: number[];
  diff: CircuitMove[];
}

export type LarryPolicy = 'conservative' | 'static' | 'one_big_switch' | 'proportional';

export interface LarryMetrics {
  reconfigurations: number;
  reconfigurations_per_hour: number;
  mean_fraction_changed: number;
  max_fraction_changed: number;
  overload_gbit: number;
}

// --- Cost comparison ---------------------------------------------------------------------------

export interface CostRow {
  /** Which comparison the row belongs to; costs are normalised to its first row. */
  comparison: 'rack_set' | 'fat_tree';
  design: string;
  packet_ports: number;
  circuit_ports: number;
  active_cables: number;
  passive_cables: number;
  cost: number;
  normalised_cost: number;
}

export interface PriceSheet {
  packet_port: number;
  circuit_port: number;
  active_cable: number;
  passive_cable: number;
}

export interface CostsRequest {
  racks: number;
  servers: number;
  static_uplinks: number;
  larry_s: number;
  larry_l: number;
  larry_r: number;
  k: number;
  pods: number;
  backups: number;
  prices: PriceSheet;
}

export interface CostsAnswer {
  inputs: CostsRequest;
  designs: CostRow[];
}

// --- Jobs and endpoints (/work/briefs/contract-reconfig.md) --------------------------------------

export const SHAREBACKUP_KIND = 'sharebackup.plan';
export const LARRY_KIND = 'larry.run';

export type EventsParam =
  | { source: 'inline'; events: ShareBackupEvent[] }
  | { source: 'uploaded'; name: string; json: string }
  | { source: 'synthetic'; length: number; seed: number };

export interface ShareBackupParams {
  k: number;
  pods: number;
  backups: number;
  reconfig_ms: number;
  events: EventsParam;
}

export interface ShareBackupResult extends ShareBackupPlan {
  inputs: {
    k: number;
    pods: number;
    backups: number;
    reconfig_ms: number;
    events: { source: EventsParam['source']; count: number; name?: string; length?: number; seed?: number };
  };
  verdict: { sound: boolean; violations: number; checked_events: number };
}

export interface SizeRequest {
  k: number;
  pods: number;
  target: number;
  mtbf_hours: number | null;
  mttr_hours: number | null;
  fabric: number | null;
  window_days: number;
  monte_carlo: { seed: number; horizon_hours: number } | null;
}

export interface MonteCarloPoint {
  backups: number;
  p_group: number;
  estimate: number;
  standard_error: number;
  /** null when the run never saw the group run out (too rare to check at that horizon). */
  within_4_se: boolean | null;
}

export interface SizeAnswer {
  inputs: SizeRequest;
  reliability: {
    source: 'given' | 'tickets';
    mtbf_hours: number;
    mttr_hours: number;
    switches: number;
    failures: number;
    repairs: number;
    window_days: number;
    note: string;
  };
  sizing: PoolSize;
  monte_carlo: {
    seed: number;
    horizon_hours: number;
    /** True when the server lowered the horizon to bound the run time. */
    horizon_capped: boolean;
    backups: number;
    points: MonteCarloPoint[];
  } | null;
}

export type RackSetWithNames = RackSet & { racks?: string[] };

/** A rack set the server builds from a stored fabric's circuit switches (all of them when none is named). */
export interface FabricRackSetRef {
  fabric: number;
  circuit_switches?: number[];
}

export type RackSetParam = RackSetWithNames | FabricRackSetRef;

export function isFabricRackSet(rackSet: RackSetParam | null): rackSet is FabricRackSetRef {
  return rackSet !== null && 'fabric' in rackSet;
}

/** A cable the server left out of a fabric's rack set, and why. */
export interface ExcludedCable {
  tor: number;
  cs: number;
  rack: string;
  circuit_switch: string;
  link: number;
  reason: 'disabled_by_corropt' | 'disabled' | 'down' | 'open_ticket';
  explanation: string;
}

/** What the server built a fabric's rack set from (docs/reconfig.md, "Rack sets from a stored fabric"). */
export interface RackSetSource {
  fabric: { id: number; name: string };
  circuit_switches: { id: number; name: string }[];
  static_uplinks_per_rack: number[];
  excluded_cables: ExcludedCable[];
}

export type CountersParam =
  | { source: 'uploaded'; name: string; csv: string }
  | { source: 'uploaded'; name: string; json: string }
  /** From the job's fabric: rack_set.racks name its ToRs; packets × bytes_per_packet. */
  | { source: 'telemetry'; from: string; to: string; bytes_per_packet: number };

export interface LarryParams {
  rack_set: RackSetParam;
  counters: CountersParam;
  period_s: number | null;
  threshold: number;
  policy: LarryPolicy;
}

/** The server's min cut: the engine's, plus the two numbers of its explanation. */
export interface CheckMinCut extends MinCut {
  /** What the racks on the cut's source side ask for. */
  racks_requested: number;
  /** The most their cables reach: crossing cables plus the uplinks of the switches in the cut. */
  racks_reach: number;
}

/**
 * POST /api/larry/check/'s answer. `min_cut.capacity` is the whole request's max flow
 * (`total_granted`); its explanation speaks of the cut's racks only (`racks_requested`, `racks_reach`).
 */
export interface CheckAnswer extends Omit<Feasibility, 'min_cut'> {
  total_requested: number;
  total_granted: number;
  min_cut: CheckMinCut | null;
  inputs: { rack_set: RackSetWithNames; uplinks: number[]; rack_set_source?: RackSetSource };
}

/** Per-rack uplinks and demand at each step (or, binned, at each bin's start). */
export interface LarrySeries {
  binned: boolean;
  time_s: number[];
  /** uplinks[i][rack]: uplinks after the step (binned: at the bin's last step). */
  uplinks: number[][];
  /** demand_gbps[i][rack]: demand over the period just ended (binned: the bin's maximum). */
  demand_gbps: number[][];
}

export interface LarryChange extends LarryStep {
  step: number;
}

export interface LarryResult {
  inputs: {
    rack_set: RackSetWithNames;
    rack_set_source?: RackSetSource;
    period_s: number | null;
    threshold: number;
    policy: LarryPolicy;
    counters: { source: string; name?: string; samples: number; used_samples: number };
  };
  racks: string[];
  policy: LarryPolicy;
  initial_uplinks: number[];
  initial_circuits: [number, number][][];
  metrics: LarryMetrics;
  baselines: Record<LarryPolicy, LarryMetrics>;
  series: LarrySeries;
  changes: LarryChange[];
  changes_truncated: number;
  total_circuits: number;
}

export type ReconfigJob<R> = Omit<Job, 'result'> & { result: R | null };
export type ReconfigJobBrief = Pick<Job, 'id' | 'url' | 'kind' | 'state' | 'progress'>;
