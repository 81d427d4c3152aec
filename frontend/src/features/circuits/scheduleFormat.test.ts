import { describe, expect, it } from 'vitest';

import { formatPercent, formatSeconds } from '@/lib/format';

import { comparisonRows, formatBytes, formatSlots, metricCards, slotCaveat } from './scheduleFormat';
import { PARALLEL_GLOBAL, REPLAY } from './testSchedule';

describe('formatting', () => {
  it('writes bytes in decimal units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_250_000_000)).toBe('1.25 GB');
    expect(formatBytes(41_500_000_000)).toBe('41.5 GB');
    expect(formatBytes(7_000_000)).toBe('7 MB');
  });

  it('writes seconds, percentages and slots', () => {
    expect(formatSeconds(0.000075673)).toBe('0.0757 ms');
    expect(formatSeconds(0.01)).toBe('10 ms');
    expect(formatSeconds(3)).toBe('3 s');
    expect(formatSeconds(3600)).toBe('60 min');
    expect(formatPercent(0.1798)).toBe('18.0%');
    expect(formatSlots(1, 1)).toBe('1 slot (1 s)');
    expect(formatSlots(3, 0.5)).toBe('3 slots (1.5 s)');
  });
});

describe('metricCards', () => {
  it('reads the optical ratio against the uniform ratio', () => {
    const cards = metricCards(REPLAY.metrics, REPLAY.input.period_s, REPLAY.slots.length);
    const optical = cards.find((card) => card.key === 'optical-ratio')!;
    expect(optical.value).toBe('18.0%');
    // 8 racks, one port each: 4 of 28 pairs, 1/7.
    expect(optical.detail).toBe('uniform demand 14.3% (1.3× uniform); 7.46 GB of 41.5 GB on circuits');
  });

  it('gives visit delay, flaps, gap and runtime', () => {
    const cards = Object.fromEntries(
      metricCards(REPLAY.metrics, 1, REPLAY.slots.length).map((card) => [card.key, card]),
    );
    expect(cards['visit-delay']!.value).toBe('max 1, p95 1 slots');
    expect(cards.flaps!.value).toBe('0');
    expect(cards.gap!.value).toBe('2.13%');
    expect(cards.gap!.detail).toBe('weight 18.4 GB of bound 18.8 GB');
    expect(cards.runtime!.detail).toBe('4 slots of 1 s');
  });

  it('says how many slots fell back to greedy', () => {
    const metrics = { ...PARALLEL_GLOBAL.metrics, fallback_slots: 2 };
    const runtime = metricCards(metrics, 1, 3).find((card) => card.key === 'runtime')!;
    expect(runtime.detail).toBe('3 slots of 1 s; 2 fell back to greedy past the time budget');
  });
});

describe('comparisonRows', () => {
  it('lists exact, greedy and round-robin with the chosen one marked', () => {
    const rows = comparisonRows(REPLAY.comparison, 'exact');
    expect(rows.map((row) => [row.label, row.chosen, row.cells.optical])).toEqual([
      ['Exact (blossom)', true, '18.0%'],
      ['Greedy', false, '18.0%'],
      ['Round-robin', false, '5.4%'],
    ]);
    expect(rows[0]!.relativeToBest).toBe(1);
    expect(rows[2]!.relativeToBest).toBeCloseTo(REPLAY.comparison[2]!.offloaded_bytes / REPLAY.metrics.offloaded_bytes);
  });

  it('keeps a fixed order whatever order the result lists', () => {
    const rows = comparisonRows([...REPLAY.comparison].reverse(), 'round_robin');
    expect(rows.map((row) => row.algorithm)).toEqual(['exact', 'greedy', 'round_robin']);
    expect(rows.filter((row) => row.chosen).map((row) => row.algorithm)).toEqual(['round_robin']);
  });
});

describe('slotCaveat', () => {
  it('says why a slot is not proven optimal', () => {
    const slot = REPLAY.slots[0]!;
    expect(slotCaveat(slot, 'exact', false)).toBe('');
    expect(slotCaveat({ exact: false, algorithm: 'greedy' }, 'exact', false)).toBe('Greedy past the time budget');
    expect(slotCaveat({ exact: false, algorithm: 'exact' }, 'exact', true)).toBe(
      'edge groups chose it, not proven optimal',
    );
    expect(slotCaveat({ exact: false, algorithm: 'round_robin' }, 'round_robin', false)).toBe(
      'Round-robin baseline, not exact',
    );
  });
});
