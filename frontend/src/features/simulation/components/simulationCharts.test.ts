import { describe, expect, it } from 'vitest';

import { testSimulationResult } from '../testSimulation';
import { buildPenaltyChart, buildRatioChart, buildWorstFractionChart, decadeTicks } from './simulationCharts';

const SIZE = { width: 600, height: 300 };

describe('decadeTicks', () => {
  it('starts at 0 and keeps whole decades, thinned to a readable count', () => {
    expect(decadeTicks(1e-4, 0.05)).toEqual([0, 1e-4, 1e-3, 1e-2]);
    expect(decadeTicks(1e-9, 1)).toEqual([0, 1e-8, 1e-6, 1e-4, 1e-2, 1]);
    expect(decadeTicks(1, 0)).toEqual([0]);
  });
});

describe('time charts', () => {
  const result = testSimulationResult();
  const run = result.runs[3]!;

  it('draws one step line per policy over the window, in hours', () => {
    const chart = buildPenaltyChart(result, run, SIZE);
    expect(chart.xTitle).toBe('Time since the trace starts (hours)');
    expect(chart.lines.map((line) => line.key)).toEqual(['corropt', 'fast-checker', 'switch-local']);
    expect(chart.lines.every((line) => line.path.startsWith('M'))).toBe(true);
    const last = chart.xTicks.at(-1)!;
    expect(last.value).toBe(10);
    expect(last.position).toBeCloseTo(chart.area.right);
    // Zero sits on the bottom of the symlog axis; the highest step fits inside it.
    const zero = chart.yTicks.find((tick) => tick.value === 0)!;
    expect(zero.position).toBeCloseTo(chart.area.bottom);
    expect(chart.yTicks.map((tick) => tick.label)).toContain('0.01');
  });

  it('puts the constraint line of the run on the worst-ToR chart', () => {
    const chart = buildWorstFractionChart(result, run, SIZE);
    const tick75 = chart.yTicks.find((tick) => tick.label === '75%')!;
    expect(chart.reference?.label).toBe('constraint 75%');
    expect(chart.reference?.y).toBeCloseTo(tick75.position);
    expect(chart.yTicks.at(-1)?.label).toBe('100%');
  });
});

describe('ratio chart', () => {
  it('places finite ratios on the log axis and infinite ones in the top band', () => {
    const chart = buildRatioChart(testSimulationResult(), SIZE);
    expect(chart.hasInfinite).toBe(true);
    expect(chart.hasZero).toBe(false);
    expect(chart.xTicks.map((tick) => tick.label)).toEqual(['50%', '75%']);
    const local = chart.lines.find((line) => line.key === 'switch-local@0.8')!;
    const [atHalf, atThreeQuarters] = local.markers;
    expect(atHalf?.kind).toBe('infinite');
    expect(atHalf?.cy).toBe(chart.infinityY);
    const tick100 = chart.yTicks.find((tick) => tick.value === 100)!;
    expect(atThreeQuarters?.cy).toBeCloseTo(tick100.position);
    expect(atThreeQuarters?.text).toBe("Switch-local, repair accuracy 0.8, constraint 0.75: 100 × CorrOpt's penalty");
  });
});

describe('coinciding lines', () => {
  it('names the earlier policy a line is drawn over', () => {
    const result = testSimulationResult();
    const chart = buildPenaltyChart(result, result.runs[3]!, SIZE);
    expect(chart.lines.map((line) => line.label)).toEqual([
      'CorrOpt',
      'Fast checker (same as CorrOpt)',
      'Switch-local',
    ]);
  });
});
