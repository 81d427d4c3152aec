import { describe, expect, it } from 'vitest';

import type { TorCapacity } from '../api/types';
import {
  barColour,
  buildCapacityChart,
  CAPACITY_COLOURS,
  capacitySummaryText,
  fractionScale,
  orderTors,
} from './capacityChart';

function tor(
  id: number,
  name: string,
  pod: number | null,
  available: number,
  total: number,
  constraint = 0.75,
): TorCapacity {
  const fraction = total === 0 ? 0 : available / total;
  return {
    switch: id,
    name,
    pod,
    available_paths: available,
    total_paths: total,
    fraction,
    constraint,
    below_constraint: fraction < constraint,
  };
}

const TORS = [
  tor(4, 'p1-tor0', 1, 16, 16),
  tor(1, 'p0-tor10', 0, 16, 16),
  tor(2, 'p0-tor2', 0, 8, 16),
  tor(3, 'p0-tor1', 0, 12, 16),
];

describe('fractionScale', () => {
  it('maps 0 to the bottom and 1 to the top, clamped', () => {
    const y = fractionScale(10, 210);
    expect(y(0)).toBe(210);
    expect(y(1)).toBe(10);
    expect(y(0.5)).toBe(110);
    expect(y(1.5)).toBe(10);
  });
});

describe('barColour', () => {
  it('uses the warning colour for ToRs below their constraint', () => {
    expect(barColour({ below_constraint: true })).toBe(CAPACITY_COLOURS.below);
    expect(barColour({ below_constraint: false })).toBe(CAPACITY_COLOURS.ok);
    expect(CAPACITY_COLOURS.below).not.toBe(CAPACITY_COLOURS.ok);
  });
});

describe('orderTors', () => {
  it('orders by pod, then name numerically', () => {
    expect(orderTors(TORS).map((t) => t.name)).toEqual(['p0-tor1', 'p0-tor2', 'p0-tor10', 'p1-tor0']);
  });
});

describe('buildCapacityChart', () => {
  const chart = buildCapacityChart(TORS, { width: 600, plotHeight: 240 });

  it('draws one bar per ToR, left to right in pod order', () => {
    expect(chart.bars).toHaveLength(4);
    const xs = chart.bars.map((bar) => bar.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    for (const bar of chart.bars) {
      expect(bar.x).toBeGreaterThanOrEqual(chart.plotLeft);
      expect(bar.x + bar.width).toBeLessThanOrEqual(chart.plotRight + 1e-9);
    }
  });

  it('makes bar height proportional to the fraction of paths', () => {
    const full = chart.bars.find((bar) => bar.tor.name === 'p0-tor10')!;
    const half = chart.bars.find((bar) => bar.tor.name === 'p0-tor2')!;
    expect(half.height * 2).toBeCloseTo(full.height);
    expect(full.y + full.height).toBeCloseTo(chart.plotBottom);
  });

  it('colours only the bars below the constraint, which sit below the constraint line', () => {
    const y = fractionScale(chart.margin.top, chart.plotBottom);
    const constraintY = y(0.75);
    expect(chart.bars.filter((bar) => bar.colour === CAPACITY_COLOURS.below).map((bar) => bar.tor.name)).toEqual([
      'p0-tor2',
    ]);
    for (const bar of chart.bars) {
      if (bar.tor.below_constraint) expect(bar.y).toBeGreaterThan(constraintY);
      else expect(bar.y).toBeLessThanOrEqual(constraintY);
    }
  });

  it('draws the constraint as a flat line across the plot', () => {
    const y = fractionScale(chart.margin.top, chart.plotBottom);
    expect(chart.constraintPath.startsWith(`M${chart.plotLeft},${y(0.75)}`)).toBe(true);
    const ys = [...chart.constraintPath.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((match) => Number(match[1]));
    expect(new Set(ys)).toEqual(new Set([y(0.75)]));
  });

  it('steps the constraint line where a ToR overrides it', () => {
    const stepped = buildCapacityChart([tor(1, 'a', 0, 16, 16, 0.75), tor(2, 'b', 0, 16, 16, 0.5)], {
      width: 400,
      plotHeight: 160,
    });
    const ys = [...stepped.constraintPath.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((match) => Number(match[1]));
    expect(new Set(ys).size).toBe(2);
  });

  it('labels the fraction axis from 0 to 1', () => {
    expect(chart.yTicks[0]!.label).toBe('0.00');
    expect(chart.yTicks[chart.yTicks.length - 1]!.label).toBe('1.00');
  });

  it('groups bars into pod spans and hides names when bars are thin', () => {
    expect(chart.pods.map((pod) => pod.label)).toEqual(['pod 0', 'pod 1']);
    expect(chart.showBarLabels).toBe(true);
    const many = Array.from({ length: 2000 }, (_, index) =>
      tor(index + 1, `t${index}`, Math.floor(index / 40), 16, 16),
    );
    const dense = buildCapacityChart(many, { width: 1000, plotHeight: 240 });
    expect(dense.bars).toHaveLength(2000);
    expect(dense.showBarLabels).toBe(false);
    expect(dense.pods).toHaveLength(50);
    const labelled = dense.pods.filter((pod) => pod.showLabel);
    expect(labelled.length).toBeGreaterThan(1);
    expect(labelled.length).toBeLessThan(50);
    expect(labelled[0]!.label).toBe('pod 0');
  });

  it('keeps a visible sliver for a ToR with no path left', () => {
    const isolated = buildCapacityChart([tor(1, 'a', 0, 0, 16)], { width: 300, plotHeight: 160 });
    expect(isolated.bars[0]!.height).toBeGreaterThan(0);
    expect(isolated.bars[0]!.colour).toBe(CAPACITY_COLOURS.below);
  });
});

describe('capacitySummaryText', () => {
  it('states ToRs, how many are below and the minimum fraction', () => {
    expect(capacitySummaryText({ tors: 4, below_constraint: 1, min_fraction: 0.5 }, 0.75)).toBe(
      '4 ToRs, 1 below constraint (0.75), minimum fraction 0.50',
    );
    expect(capacitySummaryText({ tors: 1, below_constraint: 0, min_fraction: 1 }, 0.75)).toBe(
      '1 ToR, none below constraint (0.75), minimum fraction 1.00',
    );
  });
});
