/**
 * Shapes of /api/decisions/ and /api/fabrics/{id}/constraints/ (README "Corruption decisions"),
 * generated from the server's OpenAPI document (corruption/api/serializers.py). UI-only:
 * `DecisionFilters` (the list's query), `OptimizerParams` (a job's params, which the server checks
 * as a document) and the views of the optimizer's result the page reads (`OptimizerRow`, ...).
 */
import type { Job } from '@/features/jobs';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type DecisionKind = Schemas['DecisionKindEnum'];
export type DecisionAction = Schemas['DecisionActionEnum'];

/** One ToR below the link: its up-paths and capacity fraction before and after the decision. */
export type AffectedTor = Schemas['AffectedTor'];

export type Decision = Schemas['Decision'];

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
export type ConstraintsPatch = Schemas['PatchedCapacityConstraintsInputRequest'];

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
