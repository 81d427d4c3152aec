import { describe, expect, it } from 'vitest';

import { goodPathDistribution } from '../planData';
import { buildGoodPathChart, buildSavingsChart, roomForLastLabel } from './planCharts';
import type { PairFractions } from '../api/types';

const SIZE = { width: 640, height: 260 };
const LABEL_PX = 6.5;

/** ToR fractions as a stored plan reports them: every ToR between 99.95 % and 100 %. */
function fractions(values: number[]): PairFractions {
  return {
    per_tor: values.map((value, i) => ({ tor: i, name: `tor${i}`, mean: value, min: value })),
  } as unknown as PairFractions;
}

function lastLabelFits(ticks: { position: number; label: string }[], width: number): boolean {
  const last = ticks.at(-1)!;
  return last.position + (last.label.length * LABEL_PX) / 2 <= width;
}

describe('buildGoodPathChart', () => {
  const near = goodPathDistribution(fractions([0.9995, 0.9997, 0.9999, 1]));

  it('fits the x axis to the data, not to a bound far below it', () => {
    const chart = buildGoodPathChart(near, SIZE, 0.99);
    const xs = chart.xTicks.map((tick) => tick.value);
    // The data (0.9995..1) spans most of the axis instead of its last 0.1 %.
    const start = xs[0]!;
    expect(start).toBeGreaterThan(0.999);
    expect(chart.bound).toBeNull();
    expect(chart.boundOffChart).toBe(0.99);
    // Neighbouring ticks read differently, and the last one ("100.00%") is not clipped.
    const labels = chart.xTicks.map((tick) => tick.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.at(-1)).toMatch(/^100\.0+%$/);
    expect(lastLabelFits(chart.xTicks, SIZE.width)).toBe(true);
  });

  it('draws a bound that lies near the data', () => {
    const spread = goodPathDistribution(fractions([0.97, 0.98, 0.99, 1]));
    const chart = buildGoodPathChart(spread, SIZE, 0.95);
    expect(chart.bound?.label).toBe('bound 95.00%');
    expect(chart.boundOffChart).toBeNull();
    expect(chart.bound!.x).toBeGreaterThanOrEqual(chart.area.left);
  });
});

describe('chart labels stay inside the svg', () => {
  it('narrows the plot so the last label fits', () => {
    const area = roomForLastLabel({ width: 640, height: 260, left: 72, right: 624, top: 14, bottom: 216 }, '100.00%');
    expect(area.right + (7 * LABEL_PX) / 2).toBeLessThanOrEqual(640);
  });

  it('savings against length: the last length label fits', () => {
    const points = [0, 500, 1000].map((lengthM) => ({ lengthM, savings: 0.05 }));
    const chart = buildSavingsChart(
      [{ key: 'low', nrb: 0.99, label: 'low', colour: '#000', dash: '', points, peak: null }],
      { width: 640, height: 320 },
      null,
    );
    expect(chart.xTicks.at(-1)!.label).toBe('1 km');
    expect(lastLabelFits(chart.xTicks, 640)).toBe(true);
  });
});
