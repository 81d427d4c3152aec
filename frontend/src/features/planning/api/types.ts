/** The RAIL planner's job results: the engine's output (lightpath_engine.pyi, docs/rail.md). */
import type { Job } from '@/features/jobs/api/types';

export type CostCategory = 'transceivers' | 'fiber' | 'switch_ports' | 'power';

export interface CostLine {
  category: CostCategory;
  /** A technology name for transceivers, MMF/SMF for fiber, "ports", "energy". */
  item: string;
  unit_usd: number;
  unit: 'part' | 'm' | 'port' | 'kWh';
  quantity: number;
  total_usd: number;
}

export interface CostBreakdown {
  lines: CostLine[];
  total_usd: number;
  transceiver_share: number;
}

export interface LinkChoice {
  /** The stored link id; the generated link's index in `sampled` mode. */
  link: number;
  /** As the links API prints it ("tor1:eth1 - agg1:eth3"), or "tor3-agg1" for a generated link. */
  name: string;
  length_m: number;
  speed_gbps: number;
  baseline: string;
  plan: string;
  stretched: boolean;
  p_good: number;
  baseline_usd: number;
  plan_usd: number;
}

export interface LengthBand {
  from_m: number;
  to_m: number;
  share: number;
  baseline: string;
  plan: string;
  stretched: boolean;
  p_good: number;
}

export interface TorFraction {
  /** The engine's switch index. */
  tor: number;
  name: string;
  /** The stored switch id; null for a generated fabric. */
  switch: number | null;
  mean: number | null;
  min: number | null;
  min_dst: number | null;
  min_dst_name: string | null;
}

export interface WorstPair {
  src: number;
  dst: number;
  src_name: string;
  dst_name: string;
  fraction: number;
}

export interface PairFractions {
  per_tor: TorFraction[];
  worst_pair: WorstPair | null;
  mean: number | null;
  /** [quantile, value] */
  quantiles: [number, number][];
  connected_pairs: number;
  disconnected_pairs: number;
}

export interface Sweep {
  /** null: no stretch. */
  nrb: number | null;
  /** [maximum link length m, savings fraction or null where no catalog part reaches]. */
  points: [number, number | null][];
}

export interface CatalogEntry {
  id: number;
  name: string;
  speed_gbps: number;
  fiber: 'MMF' | 'SMF';
  rated_reach_m: number;
  price_usd: number | null;
  price_source: PriceSource;
  stretch: StretchReach[];
}

export interface StretchReach {
  nrb: number;
  reach_m: number;
}

export type PriceSource = 'seed' | 'demo' | 'planner' | '';

export interface CostParams {
  mmf_usd_per_m: number;
  smf_usd_per_m: number;
  port_usd: number;
  switch_watts: number;
  usd_per_kwh: number;
  years: number;
}

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

/** The params echoed back, completed with defaults. */
export interface PlanInputs {
  name: string;
  source: 'generated' | 'stored';
  fabric: { id: number; name: string } | null;
  generate: Required<GenerateParams> | null;
  description: string;
  links: number;
  switches: number;
  tors: number;
  default_speed_gbps: number;
  nrb: number | null;
  max_hops: number | null;
  costs: CostParams;
  sweep: SweepParams;
  pair_stats: boolean;
  quantiles: number[];
  catalog: CatalogEntry[];
}

export interface PlanResult extends EnginePlan {
  inputs: PlanInputs;
}

export interface EnginePlan {
  nrb: number | null;
  max_hops: number;
  link_bound: number | null;
  savings: number;
  stretched_links: number;
  min_p_good: number;
  path_bound: number;
  baseline: CostBreakdown;
  plan: CostBreakdown;
  links: LinkChoice[];
  bands: LengthBand[];
  good_paths: PairFractions | null;
  sweeps: Sweep[];
}

export interface FecAnswer {
  loss: number;
  target: number;
  scheme: 'none' | 'xor' | 'replicate3' | 'unusable';
  n: number | null;
  residual_loss: number;
  overhead: number;
}

export interface LossLink {
  link: number;
  name: string;
  loss_up: number;
  loss_down: number;
}

export interface PathHop {
  link: number;
  name: string;
  upward: boolean;
  loss: number;
}

export interface WorstPath {
  loss: number;
  src: number;
  src_name: string;
  dst: number;
  dst_name: string;
  top: number;
  top_name: string;
  switches: string[];
  hops: PathHop[];
}

export interface PathCoding {
  target: number;
  paths: number;
  uncoded: number;
  xor: number;
  replicated: number;
  unusable: number;
  mean_overhead: number;
  max_overhead: number;
}

export interface ReliabilityClass {
  class: number;
  bound: number;
  link_count: number;
  /** Stored link ids. */
  links: number[];
  removed: LossLink[];
  worst: WorstPath | null;
  kept_paths: PairFractions | null;
  fec: PathCoding | null;
}

export interface ClassSummary {
  class: number;
  bound: number;
  links: number;
  removed: number;
  worst_loss: number | null;
  kept_min: number | null;
  kept_p1: number | null;
  kept_p50: number | null;
  kept_mean: number | null;
  fec_mean_overhead: number | null;
}

/** `rail.classes` params (contract 2b). */
export interface ClassesParams {
  window_hours?: number;
  bounds?: number[];
  repair_above?: number;
  fec_target?: number;
  pair_stats?: boolean | null;
}

export interface ClassesResult {
  inputs: {
    fabric: { id: number; name: string };
    window_hours: number;
    since: string;
    bounds: number[];
    repair_above: number;
    fec_target: number;
    pair_stats: boolean;
    quantiles: number[];
  };
  links: number;
  alive: number;
  measured_directions: number;
  unmeasured: { rule: string; directions: number; links: number[] };
  repair: LossLink[];
  classes: ReliabilityClass[];
  summary: ClassSummary[];
}

/** A catalog row of `/api/transceiver-models/`. */
export interface TransceiverModel {
  id: number;
  url: string;
  name: string;
  speed_gbps: number;
  fiber: 'MMF' | 'SMF';
  reach_m: number;
  /** Decimal string, or null when unknown. */
  price_usd: string | null;
  price_source: PriceSource;
  stretch: StretchReach[];
  link_fec: boolean;
  power_w: number | null;
}

export const PLAN_KIND = 'rail.plan';
export const CLASSES_KIND = 'rail.classes';

/** A row of `GET /api/jobs/?kind=…` (the list leaves results out). */
export type JobRow = Omit<Job, 'result'>;

/** What `result.link_rows` of GET /api/rail/plans/{id}/ says of the rows it leaves out. */
export interface LinkRows {
  count: number;
  /** null without per-link rows (expected-value lengths). */
  longest_m: number | null;
  /** Every part a row uses, in the baseline or the plan, sorted. */
  parts: string[];
}

/** A plan as the plan page loads it: without its per-link rows (a 100K-link plan's are 20 MB). */
export type PlanSummary = Omit<PlanResult, 'links'> & { link_rows: LinkRows };

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
