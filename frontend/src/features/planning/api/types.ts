/**
 * The RAIL planner's job results (the engine's output, docs/rail.md) and the transceiver catalog,
 * generated from the server's OpenAPI document (planning/api/serializers.py). UI-only: the jobs'
 * params (`PlanParams`, `GenerateParams`, `SweepParams`, `ClassesParams`: documents the server checks
 * itself), `LinkFilter` (the plan page's filter), and views of results the pages read (`Sweep` with
 * typed points, `PlanResult`, `EnginePlan`, `PlanSummary`, the `*Job` narrowings).
 */
import type { Job } from '@/features/jobs';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type CostCategory = 'transceivers' | 'fiber' | 'switch_ports' | 'power';

export type CostLine = Schemas['CostLine'];

export type CostBreakdown = Schemas['CostBreakdown'];

export type LinkChoice = Schemas['LinkChoice'];

export type LengthBand = Schemas['LengthBand'];

export type TorFraction = Schemas['TorFraction'];

export type WorstPair = Schemas['WorstPair'];

export type PairFractions = Schemas['PairFractions'];

export type Sweep = Omit<Schemas['Sweep'], 'points'> & {
  /** [maximum link length m, savings or null]: OpenAPI 3.0 cannot say that only the second may be null. */
  points: [number, number | null][];
};

export type CatalogEntry = Schemas['CatalogEntry'];

export type StretchReach = Schemas['StretchEntry'];

export type PriceSource = Schemas['PriceSourceEnum'] | Schemas['BlankEnum'];

export type CostParams = Schemas['CostParams'];

export interface GenerateParams {
  k: number;
  min_length_m?: number;
  max_length_m?: number;
  lengths?: 'expected' | 'sampled';
  seed?: number;
  speed_gbps?: number;
}

export interface SweepParams {
  max_length_m: number;
  step_m: number;
  nrbs: number[];
}

/** `rail.plan` params (contract 2a); omitted keys take the server's defaults. */
export interface PlanParams {
  name?: string;
  generate?: GenerateParams | null;
  default_speed_gbps?: number;
  catalog?: number[] | null;
  nrb?: number | null;
  max_hops?: number | null;
  costs?: Partial<CostParams>;
  sweep?: Partial<SweepParams>;
  pair_stats?: boolean | null;
}

export type PlanInputs = Schemas['PlanInputs'];

export type PlanResult = Omit<Schemas['RailPlanResult'], 'sweeps'> & { sweeps: Sweep[] };

/** The engine's plan: the job's result without the server's inputs. */
export type EnginePlan = Omit<PlanResult, 'inputs'>;

export type FecAnswer = Schemas['RailFec'];

export type LossLink = Schemas['LossLink'];

export type PathHop = Schemas['PathHop'];

export type WorstPath = Schemas['WorstPath'];

export type PathCoding = Schemas['PathCoding'];

export type ReliabilityClass = Schemas['ReliabilityClass'];

export type ClassSummary = Schemas['ClassSummary'];

/** `rail.classes` params (contract 2b). */
export interface ClassesParams {
  window_hours?: number;
  bounds?: number[];
  repair_above?: number;
  fec_target?: number;
  pair_stats?: boolean | null;
}

export type ClassesResult = Schemas['RailClassesResult'];

/** A catalog row of `/api/transceiver-models/`. */
export type TransceiverModel = Schemas['TransceiverModel'];

export const PLAN_KIND = 'rail.plan';
export const CLASSES_KIND = 'rail.classes';

/** A row of `GET /api/jobs/?kind=…` (the list leaves results out). */
export type JobRow = Schemas['JobList'];

export type LinkRows = Schemas['LinkRows'];

/** GET /api/rail/plans/{id}/links/: one page of a plan's per-link rows. */
export type LinkPage = Schemas['RailPlanLinks'];

/** A plan as the plan page loads it: without its per-link rows (a 100K-link plan's are 20 MB). */
export type PlanSummary = Omit<Schemas['RailPlanPageResult'], 'sweeps'> & { sweeps: Sweep[] };

/** GET /api/rail/plans/{id}/: the job, its result a summary. */
export type PlanJob = Omit<Job, 'result'> & { result: PlanSummary | null };

/** The filters of GET /api/rail/plans/{id}/links/. */
export interface LinkFilter {
  stretchedOnly: boolean;
  /** A part name the link uses in the plan or the baseline; '' for any. */
  part: string;
  /** Text in the link's name, any case. */
  text: string;
}

export const NO_LINK_FILTER: LinkFilter = { stretchedOnly: false, part: '', text: '' };
export type ClassesJob = Omit<Job, 'result'> & { result: ClassesResult | null };
