/** Shapes of /api/decisions/ and /api/fabrics/{id}/constraints/ (README "Corruption decisions"). */
import type { Job } from '@/features/jobs/api/types';

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
  engine_ms: number;
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
export interface CapacityConstraints {
  fabric: number;
  /** Fraction of its up-paths every ToR must keep, 0..1. */
  default: number;
  /** ToR name → its own fraction. */
  overrides: Record<string, number>;
  tors: number;
}

/** PATCH body: what changes; an override of null clears it. */
export interface ConstraintsPatch {
  default?: number;
  overrides?: Record<string, number | null>;
}

export interface ConstraintChange {
  /** null for the fabric's default. */
  switch: string | null;
  before: number | null;
  after: number | null;
}

export interface ConstraintsAnswer extends CapacityConstraints {
  changes: ConstraintChange[];
  /** The optimizer run the change queued (or the fabric's pending one). */
  optimizer_job: Job | null;
}
