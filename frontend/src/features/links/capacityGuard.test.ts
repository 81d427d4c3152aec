import { describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import type { GuardTor } from './api/types';
import { reasonProblem, refusalOf, torOutcome, worstFirst } from './capacityGuard';

const tor = (name: string, before: number, after: number, required = 12): GuardTor => ({
  switch: name.length,
  name,
  paths_before: before,
  paths_after: after,
  required_paths: required,
  design_paths: 16,
  constraint: 0.75,
});

describe('capacity guard answers', () => {
  it('reads a 409 body as a refusal, and nothing else', () => {
    const body = {
      detail: 'Refused: p1-tor5 would fall to 8 of 16 up-paths.',
      blocking_tors: [tor('p1-tor5', 12, 8)],
      links: [12],
    };
    expect(refusalOf(new ApiError(409, [], body))).toEqual(body);
    expect(refusalOf(new ApiError(409, [], { detail: 'Conflict.' }))).toBeNull();
    expect(refusalOf(new ApiError(400, [], body))).toBeNull();
    expect(refusalOf(new TypeError('Failed to fetch'))).toBeNull();
  });

  it('says each ToR’s fate in words', () => {
    expect(torOutcome(tor('a', 12, 8))).toBe('falls under its constraint, 4 paths short');
    expect(torOutcome(tor('a', 12, 11))).toBe('falls under its constraint, 1 path short');
    expect(torOutcome(tor('a', 16, 12))).toBe('keeps its constraint');
    expect(torOutcome(tor('a', 12, 16))).toBe('gains up-paths');
  });

  it('lists the ToRs that fall under first, the worst first, then the others by name', () => {
    const sorted = worstFirst([
      tor('p0-tor10', 16, 15),
      tor('p0-tor2', 16, 15),
      tor('p1-tor3', 8, 7),
      tor('p0-tor1', 12, 11),
    ]);
    expect(sorted.map((row) => row.name)).toEqual(['p1-tor3', 'p0-tor1', 'p0-tor2', 'p0-tor10']);
  });

  it('needs a reason only for an override', () => {
    expect(reasonProblem({ override: true, reason: '  ' })).toMatch(/^An override needs a reason/);
    expect(reasonProblem({ override: true, reason: 'fibre cut' })).toBeNull();
    expect(reasonProblem({ override: false, reason: '' })).toBeNull();
  });
});
