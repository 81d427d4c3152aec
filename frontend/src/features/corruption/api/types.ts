/** Shapes of /api/decisions/ and /api/fabrics/{id}/constraints/ (README "Corruption decisions"). */
import type { Job } from '@/features/jobs';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type DecisionKind = 'fast_checker' | 'optimizer';
export type DecisionAction = 'disabled' | 'kept';

/** One ToR below the link: its up-paths and capacity fraction before and after the decision. */
export type AffectedTor = Schemas['AffectedTor'];

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

/** A link the optimizer disabled or kept, in its job's result (the page leaves out the blocking ToR's paths). */
export type OptimizerRow = Omit<Schemas['OptimizerRow'], 'blocking'>;

/** Result of a `corruption.optimize` job that ran (`resumed` absent: narrows the union). */
export type OptimizerRunResult = Omit<Schemas['OptimizerRunResult'], 'disabled' | 'kept'> & {
  disabled: OptimizerRow[];
  kept: OptimizerRow[];
  resumed?: undefined;
};

/** Result of a job whose worker was lost after its commit: answered from its decisions alone. */
export type OptimizerResumedResult = Omit<Schemas['OptimizerResumedResult'], 'disabled' | 'kept'> & {
  disabled: OptimizerRow[];
  kept: OptimizerRow[];
  resumed: true;
};

export type OptimizerResult = OptimizerRunResult | OptimizerResumedResult;

export interface OptimizerParams {
  reasons?: string[];
  time_budget_s?: number;
}

export type OptimizerJob = Omit<Job, 'result'> & { result: OptimizerResult | null; params?: OptimizerParams };
