/** Shapes of /api/decisions/ and /api/fabrics/{id}/constraints/ (README "Corruption decisions"). */
import type { Job } from '@/features/jobs/api/types';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type DecisionKind = 'fast_checker' | 'optimizer';
export type DecisionAction = 'disabled' | 'kept';

/** One ToR below the link: its up-paths and capacity fraction before and after the decision. */
export interface AffectedTor {
  switch: number;
  name: string;
  paths_before: number;
  paths_after: number;
  design_paths: number;
  required_paths: number;
  fraction_before: number;
  fraction_after: number;
  /** The ToR's capacity constraint at the time. */
  threshold: number;
}

export interface Decision {
  id: number;
  url: string;
  fabric: number;
  link: number;
  link_name: string;
  event: number | null;
  kind: DecisionKind;
  action: DecisionAction;
  /** Loss rates as fractions; A is the lower tier. */
  loss_rate_a_to_z: number;
  loss_rate_z_to_a: number;
  penalty: number;
  affected: AffectedTor[];
  /** Set when the link was kept: the ToR that would have fallen under its constraint. */
  blocking_tor: number | null;
  blocking_tor_name: string | null;
  blocking_tor_fraction: number | null;
  /** The blocking ToR's effective constraint now (it may have changed since the decision). */
  blocking_tor_constraint: number | null;
  engine_ms: number;
  /** The optimizer run that made the decision (null for the fast checker). */
  job: number | null;
  created: string;
}

export interface DecisionFilters {
  fabric?: number;
  /** One link's decisions (the ticket page links here). */
  link?: number;
  kind?: DecisionKind;
  action?: DecisionAction;
  /** Only links whose newest decision kept them and that still corrupt in service. */
  kept_for_capacity?: true;
}

/** GET /api/fabrics/{id}/constraints/ */
export type CapacityConstraints = Schemas['CapacityConstraints'];

/** PATCH body: what changes; an override of null clears it. */
export interface ConstraintsPatch {
  default?: number;
  overrides?: Record<string, number | null>;
}

export type ConstraintChange = Schemas['ConstraintChange'];

/** PUT/PATCH /api/fabrics/{id}/constraints/: the constraints, what changed, the optimizer run queued. */
export type ConstraintsAnswer = Schemas['ConstraintsChanged'];

/** A link the optimizer disabled or kept, in its job's result. */
export interface OptimizerRow {
  decision: number;
  link: number;
  link_name: string;
  penalty: number;
  /** Set on kept links: the ToR that would fall under its constraint. */
  blocking_tor: number | null;
  blocking_tor_name: string | null;
}

/** Result of a `corruption.optimize` job that ran. */
export interface OptimizerRunResult {
  resumed?: undefined;
  fabric: number;
  /** Enabled corrupting links it considered. */
  candidates: number;
  disabled: OptimizerRow[];
  kept: OptimizerRow[];
  /** Kept links whose newest decision already kept them for the same ToR (no new row). */
  still_kept: number;
  /** Sum of the candidates' penalties before the run. */
  penalty_before: number;
  /** Penalty of the links left in service. */
  remaining_penalty: number;
  remaining_penalty_lower_bound: number;
  proven_optimal: boolean;
  time_budget_s: number | null;
  worst_tor: { switch: number; name: string; fraction: number } | null;
  tors_below_threshold: string[];
  engine_ms: number;
  /** Why it ran (a constraint change, a link enabled, an operator's request…). */
  reasons: string[];
}

/** Result of a job whose worker was lost after its commit: answered from its decisions alone. */
export interface OptimizerResumedResult {
  fabric: number;
  disabled: OptimizerRow[];
  kept: OptimizerRow[];
  resumed: true;
}

export type OptimizerResult = OptimizerRunResult | OptimizerResumedResult;

export interface OptimizerParams {
  reasons?: string[];
  time_budget_s?: number;
}

export type OptimizerJob = Omit<Job, 'result'> & { result: OptimizerResult | null; params?: OptimizerParams };
