import { describe, expect, it } from 'vitest';

import { PARALLEL_GLOBAL, REPLAY } from './testSchedule';
import { visitDelayModel } from './visitDelay';

describe('visitDelayModel', () => {
  it('aligns every algorithm on the same powers-of-two bins, the chosen one first', () => {
    const model = visitDelayModel(REPLAY.comparison, 'exact', 1)!;
    expect(model.series.map((s) => [s.algorithm, s.chosen])).toEqual([
      ['exact', true],
      ['greedy', false],
      ['round_robin', false],
    ]);
    // Round-robin makes some pairs wait 2-3 slots; exact and greedy serve everyone within a slot.
    expect(model.bins.map((bin) => [bin.slotsLabel, bin.secondsLabel])).toEqual([
      ['0', '0 s'],
      ['1', '1 s'],
      ['2–3', '2–3 s'],
    ]);
    const roundRobin = model.series.find((s) => s.algorithm === 'round_robin')!;
    expect(roundRobin.pairs[2]).toBeGreaterThan(0);
    expect(model.series[0]!.pairs[2]).toBe(0);
    // Every pair with demand is counted once per algorithm.
    expect(new Set(model.series.map((s) => s.totalPairs)).size).toBe(1);
    expect(model.maxPairs).toBe(Math.max(...model.series.flatMap((s) => s.pairs)));
  });

  it('labels the bins in time at the period, and lists the chosen algorithm first', () => {
    const model = visitDelayModel(
      [
        {
          algorithm: 'greedy',
          visit_delay_histogram: [
            { min_slots: 0, max_slots: 0, min_s: 0, max_s: 0, pairs: 4 },
            { min_slots: 1, max_slots: 1, min_s: 0.25, max_s: 0.25, pairs: 0 },
            { min_slots: 2, max_slots: 3, min_s: 0.5, max_s: 0.75, pairs: 1 },
            { min_slots: 4, max_slots: 7, min_s: 1, max_s: 1.75, pairs: 2 },
          ],
        },
        {
          algorithm: 'exact',
          visit_delay_histogram: [{ min_slots: 0, max_slots: 0, min_s: 0, max_s: 0, pairs: 7 }],
        },
      ],
      'exact',
      0.25,
    )!;
    expect(model.bins.map((bin) => bin.secondsLabel)).toEqual(['0 s', '250 ms', '500–750 ms', '1–1.75 s']);
    expect(model.series[0]).toMatchObject({ algorithm: 'exact', pairs: [7, 0, 0, 0], totalPairs: 7 });
    expect(model.series[1]!.pairs).toEqual([4, 0, 1, 2]);
  });

  it('is null for a result computed before the histogram existed', () => {
    const older = { ...PARALLEL_GLOBAL.metrics };
    delete older.visit_delay_histogram;
    expect(visitDelayModel([{ ...older, algorithm: 'exact' }], 'exact', 1)).toBeNull();
  });
});
