import { describe, expect, it } from 'vitest';

import type { DemandMatrix } from './api/types';
import {
  buildHeatMap,
  EMPTY_CELL_COLOUR,
  layoutHeatMap,
  legendTicks,
  matrixEntries,
  rackOrder,
  slotDemand,
} from './heatMap';
import { PARALLEL_GLOBAL, rackNames, REPLAY } from './testSchedule';

const GB = 1_000_000_000;

function replayHeatMap(slot: number, order: 'name' | 'demand' = 'name') {
  const demand = slotDemand(REPLAY.input, slot)!;
  return buildHeatMap({
    rackNames: rackNames(REPLAY),
    entries: demand.entries,
    circuits: REPLAY.slots[slot]!.circuits,
    order,
  });
}

describe('slotDemand', () => {
  it('shows the window a replay slot chose its circuits on', () => {
    const demand = slotDemand(REPLAY.input, 1)!;
    expect(demand.entries).toEqual([
      { src: 0, dst: 5, bytes: 5 * GB },
      { src: 1, dst: 3, bytes: 4 * GB },
      { src: 2, dst: 6, bytes: 2 * GB },
      { src: 4, dst: 7, bytes: 1 * GB },
    ]);
    expect(demand.caption).toBe("demand window 2 of 5, on which slot 2's circuits were chosen");
  });

  it('sums every window in drain mode', () => {
    const demand = slotDemand(PARALLEL_GLOBAL.input, 7)!;
    const total = demand.entries.reduce((sum, entry) => sum + entry.bytes, 0);
    expect(total).toBe(PARALLEL_GLOBAL.metrics.total_bytes);
    expect(demand.caption).toBe('all 4 demand windows summed (drain mode)');
  });

  it('is null without a demand echo', () => {
    expect(slotDemand({ mode: 'replay', windows: null }, 0)).toBeNull();
  });
});

describe('buildHeatMap', () => {
  it('orders racks by name naturally, sources down and destinations across', () => {
    const map = replayHeatMap(0);
    expect(map.labels).toEqual(rackNames(REPLAY));
    const hot = map.cells.find((cell) => cell.src === 0 && cell.dst === 5)!;
    expect([hot.row, hot.col, hot.bytes]).toEqual([0, 5, 6 * GB]);
    // One cell per directed pair with demand.
    expect(map.cells).toHaveLength(6);
  });

  it('sorts tor2 before tor10 by name', () => {
    expect(rackOrder(['tor10', 'tor2', 'tor1'], [], 'name')).toEqual([2, 1, 0]);
  });

  it('puts the busiest racks first when sorted by demand', () => {
    const map = replayHeatMap(0, 'demand');
    // p0-tor0 and p1-tor1 exchange 7 GB, the most in window 1.
    expect(map.labels.slice(0, 2)).toEqual(['p0-tor0', 'p1-tor1']);
    const hot = map.cells.find((cell) => cell.src === 0 && cell.dst === 5)!;
    expect([hot.row, hot.col]).toEqual([0, 1]);
  });

  it('outlines both cells of each circuit of the slot', () => {
    const map = replayHeatMap(0);
    expect(map.outlines.map((outline) => [map.labels[outline.row], map.labels[outline.col]])).toEqual([
      ['p0-tor0', 'p1-tor1'],
      ['p0-tor1', 'p0-tor2'],
      ['p0-tor2', 'p0-tor1'],
      ['p0-tor3', 'p1-tor0'],
      ['p1-tor0', 'p0-tor3'],
      ['p1-tor1', 'p0-tor0'],
    ]);
    // The reverse direction of p0-tor0 → p1-tor1 has 1 GB; p0-tor2 → p0-tor1 none.
    expect(map.outlines.find((o) => o.row === 5 && o.col === 0)?.bytes).toBe(1 * GB);
    expect(map.outlines.find((o) => o.row === 2 && o.col === 1)?.bytes).toBe(0);
  });

  it('colours more bytes darker on a log scale and leaves empty cells pale', () => {
    const map = replayHeatMap(0);
    expect(map.domain).toEqual([400_000, 6 * GB]);
    const lightness = (colour: string) => {
      const [r, g, b] = (colour.match(/\d+/g) ?? []).map(Number);
      return (r! + g! + b!) / 3;
    };
    expect(lightness(map.colour(6 * GB))).toBeLessThan(lightness(map.colour(1 * GB)));
    expect(lightness(map.colour(1 * GB))).toBeLessThan(lightness(map.colour(1_000_000)));
    expect(map.colour(0)).toBe(EMPTY_CELL_COLOUR);
  });

  it('has no colour domain without demand', () => {
    const map = buildHeatMap({ rackNames: ['a', 'b'], entries: [], circuits: [] });
    expect(map.domain).toBeNull();
    expect(map.cells).toEqual([]);
    expect(legendTicks(map.domain)).toEqual([]);
  });
});

describe('legendTicks', () => {
  it('gives the ends and the powers of ten between', () => {
    // 1 MB would print over 400 kB.
    expect(legendTicks([400_000, 6 * GB])).toEqual([400_000, 1e7, 1e8, 1e9, 6 * GB]);
    expect(legendTicks([1, 1e12])).toEqual([1, 1e3, 1e5, 1e7, 1e9, 1e12]);
    expect(legendTicks([2e6, 5e6])).toEqual([2e6, 5e6]);
  });
});

describe('matrixEntries', () => {
  it('maps the matrix endpoint onto the schedule racks by name', () => {
    const matrix: DemandMatrix = {
      window: 0,
      start_s: 0,
      window_total_bytes: 3,
      shown_bytes: 3,
      racks: [
        { id: 1, name: 'p1-tor1' },
        { id: 2, name: 'p0-tor0' },
        { id: 3, name: 'elsewhere' },
      ],
      cells: [
        [1, 0, 2],
        [0, 1, 1],
        [2, 0, 9],
      ],
      racks_with_demand: 3,
      truncated: false,
    };
    expect(matrixEntries(matrix, rackNames(REPLAY))).toEqual([
      { src: 0, dst: 5, bytes: 2 },
      { src: 5, dst: 0, bytes: 1 },
    ]);
  });
});

describe('layoutHeatMap', () => {
  it('labels every rack of a small map and thins labels of a large one', () => {
    const small = layoutHeatMap(rackNames(REPLAY), 800);
    expect(small.cell).toBe(28);
    expect(small.labelEvery).toBe(1);
    const names = Array.from({ length: 1000 }, (_, i) => `tor${i}`);
    const large = layoutHeatMap(names, 900);
    expect(large.cell).toBeLessThan(1);
    expect(large.labelEvery).toBe(Number.POSITIVE_INFINITY);
    expect(large.width).toBeLessThanOrEqual(900);
  });
});
