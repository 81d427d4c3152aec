import { describe, expect, it } from 'vitest';

import type { FabricTopology, TorCapacity } from '@/features/fabrics';

import { belowMarksShift, buildHealthChart, torLinkCounts } from './healthChart';

function tor(id: number, name: string, available: number, constraint = 0.75): TorCapacity {
  const fraction = available / 4;
  return {
    switch: id,
    name,
    pod: 0,
    available_paths: available,
    total_paths: 4,
    fraction,
    constraint,
    below_constraint: fraction < constraint,
  };
}

const TOPOLOGY: Pick<FabricTopology, 'switches' | 'links'> = {
  switches: [
    { id: 1, name: 't0', tier: 0, pod: 0, plane: null },
    { id: 2, name: 't1', tier: 0, pod: 0, plane: null },
    { id: 10, name: 'f0', tier: 1, pod: 0, plane: 0 },
    { id: 20, name: 's0', tier: 2, pod: null, plane: 0 },
  ],
  links: [
    { id: 100, a: 1, z: 10, admin_state: 'disabled', oper_state: 'up', health: 'corrupting' },
    { id: 101, a: 1, z: 10, admin_state: 'enabled', oper_state: 'up', health: 'corrupting' },
    { id: 102, a: 1, z: 10, admin_state: 'enabled', oper_state: 'up', health: 'clean' },
    { id: 103, a: 2, z: 10, admin_state: 'disabled', oper_state: 'up', health: 'unknown' },
    // Above the ToRs: counted by neither ToR.
    { id: 104, a: 10, z: 20, admin_state: 'disabled', oper_state: 'up', health: 'corrupting' },
  ],
};

describe('fabric health chart', () => {
  it('counts each ToR’s disabled uplinks and its corrupting uplinks still in service', () => {
    const counts = torLinkCounts(TOPOLOGY);
    // A disabled corrupting link counts as disabled only: it no longer hurts traffic.
    expect(counts.get(1)).toEqual({ disabled: 1, corrupting: 1 });
    expect(counts.get(2)).toEqual({ disabled: 1, corrupting: 0 });
    expect(counts.has(10)).toBe(false);
  });

  it('outlines the blocking ToRs and lays the marks under the plot, below-axis labels moved down', () => {
    const tors = [tor(1, 't0', 3), tor(2, 't1', 2)];
    const counts = torLinkCounts(TOPOLOGY);
    const chart = buildHealthChart(tors, { width: 600, plotHeight: 200, blocking: new Set([1]), counts });
    expect(chart.bars.map((bar) => [bar.tor.name, bar.blocking, bar.tor.below_constraint])).toEqual([
      ['t0', true, false],
      ['t1', false, true],
    ]);
    expect(chart.bars[0]!.counts).toEqual({ disabled: 1, corrupting: 1 });
    // The bars' heights come from the capacity chart's scale: 3/4 of 200 px.
    expect(chart.bars[0]!.height).toBeCloseTo(150);
    const [disabledRow, corruptingRow] = chart.markRows;
    expect(disabledRow!.y).toBeGreaterThan(chart.plotBottom);
    expect(corruptingRow!.y).toBeGreaterThanOrEqual(disabledRow!.y + disabledRow!.height);
    const shift = belowMarksShift(chart);
    expect(shift).toBe(corruptingRow!.y + corruptingRow!.height - chart.plotBottom);
    // The chart grew by the room the marks take (and a gap), so nothing overlaps the pods and the title.
    expect(chart.height - chart.margin.bottom).toBe(chart.plotBottom);
    expect(chart.margin.bottom).toBeGreaterThanOrEqual(shift + 52);
  });
});
