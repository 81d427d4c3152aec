import { describe, expect, it } from 'vitest';

import type { AffectedTor } from './api/types';
import {
  blockingTors,
  constraintNow,
  decisionFiltersFromSearchParams,
  describeAffected,
  fallsBelow,
  searchParamsFromDecisionFilters,
} from './decisionLog';

const P1_TOR5: AffectedTor = {
  switch: 18,
  name: 'p1-tor5',
  threshold: 0.75,
  paths_after: 8,
  design_paths: 16,
  paths_before: 12,
  fraction_after: 0.5,
  required_paths: 12,
  fraction_before: 0.75,
};

describe('decision log', () => {
  it('round-trips its filters through the URL and drops values the API would refuse', () => {
    const params = new URLSearchParams('fabric=2&link=19&kind=optimizer&action=kept&kept_for_capacity=true&page=3');
    const filters = decisionFiltersFromSearchParams(params);
    expect(filters).toEqual({ fabric: 2, link: 19, kind: 'optimizer', action: 'kept', kept_for_capacity: true });
    expect(searchParamsFromDecisionFilters(filters, 3).toString()).toBe(params.toString());
    expect(decisionFiltersFromSearchParams(new URLSearchParams('fabric=x&kind=magic&action=nuke'))).toEqual({
      fabric: undefined,
      link: undefined,
      kind: undefined,
      action: undefined,
      kept_for_capacity: undefined,
    });
  });

  it('reads a kept decision’s effect on the ToR below', () => {
    expect(describeAffected(P1_TOR5)).toBe('p1-tor5 0.75 → 0.50 (12 → 8 of 16 paths, needs 12)');
    expect(fallsBelow(P1_TOR5)).toBe(true);
    expect(fallsBelow({ ...P1_TOR5, paths_after: 12, fraction_after: 0.75 })).toBe(false);
  });

  it('judges the blocking ToR by the constraint in force now, the others by the stored one', () => {
    const kept = { blocking_tor: 18, blocking_tor_constraint: 0.5 };
    expect(constraintNow(kept, P1_TOR5)).toBe(0.5);
    expect(constraintNow(kept, { ...P1_TOR5, switch: 19 })).toBe(0.75);
    expect(constraintNow({ blocking_tor: 18, blocking_tor_constraint: null }, P1_TOR5)).toBe(0.75);
    // Relaxed to 0.5 since: 8 of 16 paths is no longer under it, and it needs 8 now.
    expect(fallsBelow(P1_TOR5, 0.5)).toBe(false);
    expect(describeAffected(P1_TOR5, 0.5)).toBe('p1-tor5 0.75 → 0.50 (12 → 8 of 16 paths, needs 8)');
    expect(describeAffected(P1_TOR5, 0.75)).toContain('needs 12');
  });

  it('collects the ToRs that keep corrupting links in service', () => {
    expect(
      blockingTors([
        { action: 'kept', blocking_tor: 18 },
        { action: 'kept', blocking_tor: 18 },
        { action: 'disabled', blocking_tor: null },
        { action: 'kept', blocking_tor: 32 },
      ]),
    ).toEqual(new Set([18, 32]));
  });
});
