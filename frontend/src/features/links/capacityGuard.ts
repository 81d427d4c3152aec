/** How the capacity guard's answers read (docs/capacity-guard.md). */
import { ApiError } from '@/lib/api-client';
import { formatCount } from '@/lib/format';

import type { GuardRefusal, GuardTor } from './api/types';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 409 body of a refused change, or null for any other error. */
export function refusalOf(error: unknown): GuardRefusal | null {
  if (!(error instanceof ApiError) || error.status !== 409 || !isRecord(error.body)) return null;
  const { detail, blocking_tors: blocking, links } = error.body;
  if (!Array.isArray(blocking)) return null;
  return {
    detail: typeof detail === 'string' ? detail : 'Refused: a ToR would fall under its capacity constraint.',
    blocking_tors: blocking as GuardTor[],
    links: Array.isArray(links) ? (links as number[]) : [],
  };
}

/** The ToR would keep fewer up-paths than its constraint requires. */
export function fallsUnder(tor: Pick<GuardTor, 'paths_after' | 'required_paths'>): boolean {
  return tor.paths_after < tor.required_paths;
}

/** "16 → 12" */
export function pathsChange(tor: Pick<GuardTor, 'paths_before' | 'paths_after'>): string {
  return `${tor.paths_before} → ${tor.paths_after}`;
}

/** A constraint fraction as the constraint editor writes it: 0.75. */
export function formatConstraint(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** "falls under (needs 12)", "keeps its constraint", "gains 4 up-paths": the ToR's fate in words. */
export function torOutcome(tor: GuardTor): string {
  if (fallsUnder(tor)) {
    const short = tor.required_paths - tor.paths_after;
    return `falls under its constraint, ${short} ${short === 1 ? 'path' : 'paths'} short`;
  }
  if (tor.paths_after > tor.paths_before) return 'gains up-paths';
  return 'keeps its constraint';
}

export interface OverrideChoice {
  override: boolean;
  reason: string;
}

/** What stops the form from being sent, at the reason field: an override needs a reason. */
export function reasonProblem({ override, reason }: OverrideChoice): string | null {
  if (override && reason.trim() === '') {
    return 'An override needs a reason: say why this ToR may fall under its constraint.';
  }
  return null;
}

/** "1 link changes", "48 links change", "No link changes (already in that state)". */
export function linksChanging(count: number): string {
  if (count === 0) return 'No link changes: every link is already in that state.';
  return count === 1 ? '1 link changes.' : `${formatCount(count)} links change.`;
}

/** The ToRs that fall under first (fewest paths to spare), then the others by name. */
export function worstFirst(tors: readonly GuardTor[]): GuardTor[] {
  const spare = (tor: GuardTor) => tor.paths_after - tor.required_paths;
  return [...tors].sort((a, b) => {
    const under = Number(fallsUnder(b)) - Number(fallsUnder(a));
    if (under !== 0) return under;
    if (fallsUnder(a)) return spare(a) - spare(b) || a.name.localeCompare(b.name);
    return a.name.localeCompare(b.name, 'en', { numeric: true });
  });
}
