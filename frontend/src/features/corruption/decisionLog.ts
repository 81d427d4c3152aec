/** The decision log's filters in the URL, and how a decision's effect on ToRs reads. */
import type { AffectedTor, Decision, DecisionAction, DecisionFilters, DecisionKind } from './api/types';

export const DECISION_KINDS: readonly { value: DecisionKind; label: string }[] = [
  { value: 'fast_checker', label: 'fast checker' },
  { value: 'optimizer', label: 'optimizer' },
];

export const DECISION_ACTIONS: readonly { value: DecisionAction; label: string }[] = [
  { value: 'disabled', label: 'disabled' },
  { value: 'kept', label: 'kept for capacity' },
];

function positiveInt(value: string | null): number | undefined {
  if (!value) return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

export function decisionFiltersFromSearchParams(params: URLSearchParams): DecisionFilters {
  return {
    fabric: positiveInt(params.get('fabric')),
    link: positiveInt(params.get('link')),
    kind: DECISION_KINDS.find((kind) => kind.value === params.get('kind'))?.value,
    action: DECISION_ACTIONS.find((action) => action.value === params.get('action'))?.value,
    kept_for_capacity: params.get('kept_for_capacity') === 'true' ? true : undefined,
  };
}

export function searchParamsFromDecisionFilters(filters: DecisionFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined) params.set(key, String(value));
  }
  if (page > 1) params.set('page', String(page));
  return params;
}

export function formatFraction(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(2);
}

/** Paths a constraint requires of a ToR: ceil(constraint × design paths), as the fast checker counts. */
export function requiredPaths(constraint: number, designPaths: number): number {
  // The epsilon keeps 0.75 × 16 = 12.000000000000002 at 12.
  return Math.ceil(constraint * designPaths - 1e-9);
}

/** "p0-tor4 1.00 → 0.75 (16 → 12 of 16 paths, needs 12)"; given a constraint, "needs" follows it. */
export function describeAffected(tor: AffectedTor, constraint?: number): string {
  const needs = constraint === undefined ? tor.required_paths : requiredPaths(constraint, tor.design_paths);
  return (
    `${tor.name} ${formatFraction(tor.fraction_before)} → ${formatFraction(tor.fraction_after)} ` +
    `(${tor.paths_before} → ${tor.paths_after} of ${tor.design_paths} paths, needs ${needs})`
  );
}

/**
 * The constraint to judge a ToR of a decision by: for the blocking ToR, the one in force now (the server's
 * `blocking_tor_constraint`: it may have been changed since the decision); else the one stored with it.
 */
export function constraintNow(
  decision: Pick<Decision, 'blocking_tor' | 'blocking_tor_constraint'>,
  tor: Pick<AffectedTor, 'switch' | 'threshold'>,
): number {
  const now = decision.blocking_tor_constraint;
  // typeof, not `!== null`: an older server leaves the field out.
  if (decision.blocking_tor === tor.switch && typeof now === 'number') return now;
  return tor.threshold;
}

/** A ToR that the decision would take (or took) under its constraint (the stored one unless given). */
export function fallsBelow(tor: AffectedTor, constraint: number = tor.threshold): boolean {
  return tor.fraction_after < constraint;
}

/** The ToR ids that keep some corrupting link in service, from kept-for-capacity decisions. */
export function blockingTors(decisions: readonly Pick<Decision, 'action' | 'blocking_tor'>[]): Set<number> {
  const ids = new Set<number>();
  for (const decision of decisions) {
    if (decision.action === 'kept' && decision.blocking_tor !== null) ids.add(decision.blocking_tor);
  }
  return ids;
}
