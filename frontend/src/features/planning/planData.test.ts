import { describe, expect, it } from 'vitest';

import type { CostBreakdown } from './api/types';
import table41Json from './fixtures/table-4-1.json';
import {
  compareBreakdowns,
  comparisonFacts,
  formatUsdShort,
  goodPathDistribution,
  quantityText,
  stackBreakdowns,
  sweepLines,
} from './planData';
import { PLAN_HIGH, PLAN_LOW } from './testPlans';

const TABLE_4_1 = table41Json as unknown as CostBreakdown;

describe('stackBreakdowns', () => {
  it('stacks baseline and plan in the seed’s Table 4.1 order, each bar up to its total', () => {
    const { bars, series } = stackBreakdowns([
      { key: 'baseline', group: '', label: 'Baseline', breakdown: PLAN_LOW.baseline },
      { key: 'plan', group: '', label: 'Plan', breakdown: PLAN_LOW.plan },
    ]);
    expect(series.map((entry) => entry.label)).toEqual([
      '10GBASE-SR transceivers',
      '10GBASE-LR transceivers',
      'MMF fiber',
      'SMF fiber',
      'Switch ports',
      'Switch power',
    ]);
    expect(new Set(series.map((entry) => entry.colour)).size).toBe(series.length);
    for (const [bar, breakdown] of [
      [bars[0]!, PLAN_LOW.baseline],
      [bars[1]!, PLAN_LOW.plan],
    ] as const) {
      expect(bar.segments[0]!.y0).toBe(0);
      expect(bar.segments.at(-1)!.y1).toBeCloseTo(breakdown.total_usd, 6);
      bar.segments.slice(1).forEach((segment, i) => expect(segment.y0).toBe(bar.segments[i]!.y1));
    }
    // The low-stretch plan moves links from LR to SR: fewer LR dollars, more SR dollars.
    const usd = (bar: number, key: string) => bars[bar]!.segments.find((segment) => segment.key === key)?.usd ?? 0;
    expect(usd(1, 'transceivers:10GBASE-LR')).toBeLessThan(usd(0, 'transceivers:10GBASE-LR'));
    expect(usd(1, 'transceivers:10GBASE-SR')).toBeGreaterThan(usd(0, 'transceivers:10GBASE-SR'));
  });

  it('leaves out rows that cost nothing: high stretch puts every link on SR and MMF', () => {
    const { bars, series } = stackBreakdowns([{ key: 'plan', group: '', label: 'Plan', breakdown: PLAN_HIGH.plan }]);
    expect(series.map((entry) => entry.key)).toEqual([
      'transceivers:10GBASE-SR',
      'fiber:MMF',
      'switch_ports:ports',
      'power:energy',
    ]);
    expect(bars[0]!.segments).toHaveLength(4);
  });

  it('reads Table 4.1’s quantities as the seed prints them', () => {
    const { bars } = stackBreakdowns([{ key: 'b', group: '', label: 'Baseline', breakdown: TABLE_4_1 }]);
    expect(bars[0]!.segments.map((segment) => `${segment.label}: ${segment.quantity} at ${segment.unitText}`)).toEqual([
      '10GBASE-SR transceivers: 19,660 parts at $82.3/part',
      '10GBASE-LR transceivers: 13,108 parts at $187.2/part',
      'MMF fiber: 1,475 km at $0.44/m',
      'SMF fiber: 2,621 km at $0.21/m',
      'Switch ports: 32,768 ports at $90/port',
      'Switch power: 5.05 GWh at $0.07/kWh',
    ]);
    expect(formatUsdShort(TABLE_4_1.total_usd)).toBe('$8.57M');
    expect(quantityText({ unit: 'm', quantity: 850 })).toBe('850 m');
  });
});

describe('sweepLines', () => {
  it('draws no stretch first (dashed, flat at 0), then low and high stretch with their peaks', () => {
    const lines = sweepLines(PLAN_LOW.sweeps);
    expect(lines.map((line) => line.label)).toEqual([
      'No stretch',
      'Stretch (low stretch, NRB 99%)',
      'Stretch (high stretch, NRB 95%)',
    ]);
    expect(lines[0]!.dash).not.toBe('');
    expect(lines[0]!.points.every((point) => point.savings === 0)).toBe(true);
    expect(lines[0]!.peak).toBeNull();
    // On this fabric low stretch saves most at 500 m, high stretch at 550 m (sweep every 50 m).
    expect(lines[1]!.peak).toEqual({ lengthM: 500, savings: expect.closeTo(0.0687, 4) as number });
    expect(lines[2]!.peak).toEqual({ lengthM: 550, savings: expect.closeTo(0.0779, 4) as number });
    expect(lines[1]!.points).toHaveLength(21);
  });

  it('sorts points by length and keeps lengths no part reaches as gaps', () => {
    const [line] = sweepLines([
      {
        nrb: 0.95,
        points: [
          [20000, null],
          [100, 0.02],
          [0, 0],
        ],
      },
    ]);
    expect(line!.points).toEqual([
      { lengthM: 0, savings: 0 },
      { lengthM: 100, savings: 0.02 },
      { lengthM: 20000, savings: null },
    ]);
    expect(line!.peak).toEqual({ lengthM: 100, savings: 0.02 });
  });
});

describe('goodPathDistribution', () => {
  it('gives per-ToR CDFs whose lowest point is the worst pair', () => {
    const distribution = goodPathDistribution(PLAN_HIGH.good_paths!);
    expect(distribution.tors).toBe(8);
    expect(distribution.mean).toHaveLength(8);
    expect(distribution.worst.at(-1)!.share).toBe(1);
    expect(distribution.lowest).toBeCloseTo(PLAN_HIGH.good_paths!.worst_pair!.fraction, 12);
    // Every expected fraction keeps the NRB (Theorem 3).
    expect(distribution.worst[0]!.fraction).toBeGreaterThanOrEqual(PLAN_HIGH.path_bound - 1e-12);
    const fractions = distribution.mean.map((point) => point.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });
});

describe('compareBreakdowns', () => {
  it('lines up two plans row by row with zeros where one has no such row', () => {
    const { rows, totals } = compareBreakdowns([
      { key: 'low', group: 'low', label: 'low stretch', breakdown: PLAN_LOW.plan },
      { key: 'high', group: 'high', label: 'high stretch', breakdown: PLAN_HIGH.plan },
    ]);
    const lr = rows.find((row) => row.key === 'transceivers:10GBASE-LR')!;
    expect(lr.values[0]).toBeGreaterThan(0);
    expect(lr.values[1]).toBe(0);
    expect(lr.quantities[0]).toMatch(/^\d+ parts at \$187.2\/part$/);
    expect(lr.quantities[1]).toBeNull();
    expect(totals).toEqual([PLAN_LOW.plan.total_usd, PLAN_HIGH.plan.total_usd]);
    // Each column's rows add up to its total.
    totals.forEach((total, column) =>
      expect(rows.reduce((sum, row) => sum + row.values[column]!, 0)).toBeCloseTo(total, 6),
    );
  });
});

describe('comparisonFacts', () => {
  it('puts the two plans’ headline figures side by side', () => {
    const facts = Object.fromEntries(comparisonFacts(PLAN_LOW, PLAN_HIGH).map((fact) => [fact.label, fact.values]));
    expect(facts['Stretch']).toEqual(['Stretch (low stretch, NRB 99%)', 'Stretch (high stretch, NRB 95%)']);
    expect(facts['Saved']).toEqual(['4.3%', '5.6%']);
    expect(facts['Baseline total']).toEqual(['$21,180', '$21,180']);
    expect(facts['Stretched links']).toEqual(['8 of 32', '11 of 32']);
    expect(facts['Worst ToR pair’s expected good paths']![1]).toBe('96.85% (tor0 → tor3)');
  });
});
