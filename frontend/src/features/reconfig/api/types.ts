/**
 * The ShareBackup and Larry answers (docs/reconfig.md), as the `sharebackup.plan` and `larry.run`
 * jobs and the synchronous endpoints return them: generated from the server's OpenAPI document
 * (reconfig/api/serializers.py). UI-only: the requests below (the server takes them as documents it
 * checks itself, every problem listed in a 400), `ShareBackupPlan` (a view of the result) and the
 * `ReconfigJob*` narrowings of a job to its kind.
 */
import type { Job } from '@/features/jobs';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

// --- ShareBackup -------------------------------------------------------------------------------

export type ShareBackupEvent = Schemas['ShareBackupEvent'];
/** A circuit: [low-side port, high-side port] of one circuit switch. */
export type Circuit = Schemas['CircuitSwitchCircuits']['circuits'][number];
export type CircuitSwitchWiring = Schemas['CircuitSwitchWiring'];
export type CircuitSwitchCircuits = Schemas['CircuitSwitchCircuits'];
export type ReplaceCall = Schemas['ReplaceCall'];
export type CircuitChange = Schemas['CircuitChange'];
export type GroupPool = Schemas['GroupPool'];
export type SlotFallback = Schemas['SlotFallback'];
export type DiagnosisTest = Schemas['DiagnosisTest'];
/** One event of the engine's plan; the job's result adds `matchings`, which the UI derives itself. */
export type PlannedEvent = Omit<Schemas['PlannedEvent'], 'matchings'>;
export type ShareBackupCounts = Schemas['ShareBackupCounts'];
export type ShareBackupResult = Schemas['ShareBackupResult'];
/**
 * The engine's plan, which the UI reads (a UI view of the result): the job's result adds `inputs`,
 * `groups`, `verdict` and each event's `matchings`; the UI derives groups and matchings itself
 * (sharebackupData.ts), so that fixtures of plain engine answers serve.
 */
export type ShareBackupPlan = Omit<ShareBackupResult, 'inputs' | 'groups' | 'verdict' | 'events'> & {
  events: PlannedEvent[];
};
export type PoolSizePoint = Schemas['PoolSizePoint'];
export type PoolSize = Schemas['PoolSize'];
export type MonteCarloPoint = Schemas['MonteCarloPoint'];
export type SizeAnswer = Schemas['SizeAnswer'];

// --- Larry -------------------------------------------------------------------------------------

export type RackSet = Schemas['RackSet'];
export type RackSetWithNames = RackSet;
export type CircuitMove = Schemas['CircuitMove'];
export type LarryPolicy = Schemas['LarryPolicyEnum'];
export type LarryMetrics = Schemas['LarryMetrics'];
export type LarrySeries = Schemas['LarrySeries'];
export type LarryChange = Schemas['LarryChange'];
export type LarryStep = Omit<LarryChange, 'step'>;
export type LarryResult = Schemas['LarryResult'];
/** A cable the server left out of a fabric's rack set, and why. */
export type ExcludedCable = Schemas['ExcludedCable'];
/** What the server built a fabric's rack set from (docs/reconfig.md, "Rack sets from a stored fabric"). */
export type RackSetSource = Schemas['RackSetSource'];
/** The server's min cut: the engine's, plus the two numbers of its explanation. */
export type CheckMinCut = Schemas['CheckMinCut'];
export type MinCut = CheckMinCut;
/**
 * POST /api/larry/check/'s answer. `min_cut.capacity` is the whole request's max flow
 * (`total_granted`); its explanation speaks of the cut's racks only (`racks_requested`, `racks_reach`).
 */
export type CheckAnswer = Schemas['CheckAnswer'];

// --- Cost comparison ---------------------------------------------------------------------------

export type CostRow = Schemas['CostRow'];
export type PriceSheet = Schemas['PriceSheet'];
export type CostsAnswer = Schemas['CostsAnswer'];

// --- Requests ----------------------------------------------------------------------------------

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

export const SHAREBACKUP_KIND = 'sharebackup.plan';
export const LARRY_KIND = 'larry.run';

export type EventsParam =
  | { source: 'inline'; events: ShareBackupEvent[] }
  | { source: 'uploaded'; name: string; json: string }
  | { source: 'synthetic'; length: number; seed: number };

export interface ShareBackupParams {
  /** Left out for a stored fabric: the server reads them from it. */
  k?: number;
  pods?: number;
  backups: number;
  reconfig_ms: number;
  events: EventsParam;
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

/** A rack set the server builds from a stored fabric's circuit switches (all of them when none is named). */
export interface FabricRackSetRef {
  fabric: number;
  circuit_switches?: number[];
}

export type RackSetParam = RackSetWithNames | FabricRackSetRef;

export function isFabricRackSet(rackSet: RackSetParam | null): rackSet is FabricRackSetRef {
  return rackSet !== null && 'fabric' in rackSet;
}

export type CountersParam =
  | { source: 'uploaded'; name: string; csv: string }
  | { source: 'uploaded'; name: string; json: string }
  /** From the job's fabric: rack_set.racks name its ToRs; packets × bytes_per_packet. */
  /** from/to left out: the racks' counters, first to last sample (the server fills them in). */
  | { source: 'telemetry'; from?: string; to?: string; bytes_per_packet: number };

export interface LarryParams {
  rack_set: RackSetParam;
  counters: CountersParam;
  period_s: number | null;
  threshold: number;
  policy: LarryPolicy;
}

export type ReconfigJob<R> = Omit<Job, 'result'> & { result: R | null };
export type ReconfigJobBrief = Pick<Job, 'id' | 'url' | 'kind' | 'state' | 'progress'>;
