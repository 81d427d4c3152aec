import { describe, expect, it } from 'vitest';

import {
  buildClassesParams,
  classLinkRoles,
  codingText,
  countRoles,
  fecQuery,
  fecText,
  formatLoss,
  INITIAL_CLASSES_FORM,
  keptExplanation,
  worstPathText,
} from './classData';
import { CLASSES, CLASSES_TOPOLOGY } from './testPlans';

describe('classLinkRoles', () => {
  it('colours the class’s links, its worst path and the links to repair; the rest stay grey', () => {
    const tightest = CLASSES.classes[0]!;
    const roles = classLinkRoles(CLASSES_TOPOLOGY.links, tightest, CLASSES.repair);
    const counts = countRoles(roles);
    expect(counts.worst).toBe(tightest.worst!.hops.length);
    expect(counts.member + counts.worst).toBe(tightest.link_count);
    expect(counts.repair).toBe(CLASSES.repair.length);
    // Removed for class 1 (the 2e-4 and 3e-6 links) and the 0.4 % link: grey.
    expect(counts.other).toBe(CLASSES_TOPOLOGY.links.length - tightest.link_count - CLASSES.repair.length);
    for (const removed of tightest.removed) expect(roles.get(removed.link)).toBe('other');
    expect(roles.get(CLASSES.repair[0]!.link)).toBe('repair');
  });

  it('makes the classes nested: each looser class draws at least the tighter one’s links', () => {
    const sizes = CLASSES.classes.map(
      (cls) => countRoles(classLinkRoles(CLASSES_TOPOLOGY.links, cls, CLASSES.repair)).other,
    );
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });
});

describe('worst paths and coding as text', () => {
  it('names the switches of the worst path and its loss', () => {
    const loosest = CLASSES.classes.at(-1)!;
    expect(worstPathText(loosest.worst!)).toBe('tor0 → agg0 → core1 → agg4 → tor5');
    expect(formatLoss(loosest.worst!.loss)).toBe('0.40%');
    expect(formatLoss(CLASSES.classes[0]!.bound)).toBe('4.8e-8');
    expect(formatLoss(1e-9)).toBe('1e-9');
  });

  it('summarises how a class’s paths are coded', () => {
    expect(codingText(CLASSES.classes[0]!.fec!)).toBe(
      '124 paths for a target of 0.10%: 124 uncoded; mean overhead 0.00% (at most 0.0%)',
    );
    const loosest = codingText(CLASSES.classes.at(-1)!.fec!);
    expect(loosest).toMatch(/XOR-coded/);
  });

  it('reads the seed’s FEC example', () => {
    expect(
      fecText({
        loss: 0.003,
        target: 0.001,
        scheme: 'xor',
        n: 14,
        residual_loss: 0.0009207587942430727,
        overhead: 1 / 14,
      }),
    ).toBe('XOR(14): one parity packet per 14 data packets; residual loss 9.2e-4, overhead 7.14%.');
    expect(fecQuery('0.003', '0.001')).toEqual({ query: { loss: 0.003, target: 0.001 }, errors: [] });
    expect(fecQuery('2', '0').errors).toHaveLength(2);
  });
});

describe('buildClassesParams', () => {
  it('sends the defaults for a chosen fabric', () => {
    expect(buildClassesParams({ ...INITIAL_CLASSES_FORM, fabric: '3' })).toEqual({
      fabric: 3,
      errors: [],
      params: { window_hours: 24, bounds: [4.8e-8, 1e-3, 0.1], repair_above: 0.1, fec_target: 0.001 },
    });
  });

  it('lists every problem at once', () => {
    const built = buildClassesParams({
      fabric: '',
      windowHours: '0',
      bounds: '1e-3, 1e-4, x',
      repairAbove: '2',
      fecTarget: '1',
    });
    expect(built.params).toBeNull();
    expect(built.errors).toEqual([
      'Choose a fabric.',
      'Window must be more than 0 and at most 8,760 hours.',
      'Bounds: 1e-4 must be above 0.001 (tightest first).',
      'Bounds: “x” is not a loss rate in (0, 1].',
      'Repair above must be a loss rate in (0, 1], e.g. 0.1.',
      'FEC target must be a loss rate in (0, 1), e.g. 0.001.',
    ]);
  });
});

describe('keptExplanation', () => {
  it('says in words why class 1’s worst ToR pair keeps 0% of its paths', () => {
    const [first, second, third] = CLASSES.classes;
    expect(keptExplanation(first!, 2)).toBe(
      'Class 1 keeps only links whose every path loses at most 4.8e-8: 2 links losing more than 4.8e-8 are left ' +
        'out of it. Every shortest path from tor1 → tor5 crosses one of them, so that pair keeps 0% of its paths ' +
        'and has no class 1 route (class 2 carries it).',
    );
    expect(keptExplanation(second!, 3)).toContain('Its worst pair, tor0 → tor5, keeps 50.0% of its shortest paths.');
    expect(keptExplanation(third!, null)).toContain('tor0 → tor2, keeps 75.0%');
  });
});
