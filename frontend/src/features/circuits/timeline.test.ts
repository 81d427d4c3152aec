import { describe, expect, it } from 'vitest';

import { PARALLEL_GLOBAL, rackNames, REPLAY } from './testSchedule';
import { buildTimeline, layoutTimeline } from './timeline';

function timelineOf(result: typeof REPLAY, onlyActive = false) {
  return buildTimeline({
    rackNames: rackNames(result),
    ports: result.input.ports,
    slots: result.slots,
    darkTimeS: result.input.dark_time_s,
    onlyActive,
  });
}

describe('buildTimeline', () => {
  it('has one row per rack port, named by ToR', () => {
    const timeline = timelineOf(REPLAY);
    expect(timeline.rows.map((row) => row.label)).toEqual(rackNames(REPLAY));
    expect(timeline.start).toBe(0);
    expect(timeline.end).toBe(4);
  });

  it('keeps a circuit held over several slots as one bar with its peer', () => {
    const timeline = timelineOf(REPLAY);
    // p0-tor0 (rack 0) holds its circuit to p1-tor1 (rack 5) in all four slots.
    const rack0 = timeline.bars.filter((bar) => timeline.rows[bar.row]?.rack === 0);
    expect(rack0).toEqual([
      expect.objectContaining({ peer: 5, peerName: 'p1-tor1', firstSlot: 0, lastSlot: 3, t0: 0, t1: 4 }),
    ]);
    const rack5 = timeline.bars.filter((bar) => timeline.rows[bar.row]?.rack === 5);
    expect(rack5.map((bar) => [bar.peerName, bar.t0, bar.t1])).toEqual([['p0-tor0', 0, 4]]);
  });

  it("splits a port's bars where its peer changes", () => {
    const timeline = timelineOf(REPLAY);
    // p0-tor1 (rack 1): p0-tor2 in slot 1, p0-tor3 in slots 2-3, p1-tor3 in slot 4.
    const rack1 = timeline.bars.filter((bar) => timeline.rows[bar.row]?.rack === 1);
    expect(rack1.map((bar) => [bar.peerName, bar.firstSlot, bar.lastSlot])).toEqual([
      ['p0-tor2', 0, 0],
      ['p0-tor3', 1, 2],
      ['p1-tor3', 3, 3],
    ]);
  });

  it('darkens a port for the dark time at the start of each slot it is reconfigured in (per port)', () => {
    const timeline = timelineOf(REPLAY);
    const darkOf = (rack: number) =>
      timeline.dark.filter((interval) => timeline.rows[interval.row]?.rack === rack).map((i) => [i.t0, i.t1]);
    // Rack 0 keeps its circuit: dark only when it is first set up.
    expect(darkOf(0)).toEqual([[0, 0.01]]);
    expect(darkOf(1)).toEqual([
      [0, 0.01],
      [1, 1.01],
      [3, 3.01],
    ]);
    // As many dark intervals as the engine's changed_ports entries.
    expect(timeline.dark).toHaveLength(REPLAY.slots.reduce((sum, slot) => sum + slot.changed_ports.length, 0));
  });

  it('leaves out ports that never hold a circuit when asked', () => {
    const all = timelineOf(REPLAY);
    const active = timelineOf(REPLAY, true);
    expect(active.rows.length).toBe(all.rows.length);
    const sparse = buildTimeline({
      rackNames: ['a', 'b', 'c'],
      ports: [1, 1, 1],
      slots: [{ ...REPLAY.slots[0]!, circuits: [{ a: 0, b: 2, count: 1 }], changed_ports: [0, 2] }],
      darkTimeS: 0.01,
      onlyActive: true,
    });
    expect(sparse.rows.map((row) => row.label)).toEqual(['a', 'c']);
    expect(sparse.bars.map((bar) => [bar.row, bar.peerName])).toEqual([
      [0, 'c'],
      [1, 'a'],
    ]);
  });

  it('puts parallel circuits on separate port rows and keeps a kept circuit on its port', () => {
    const timeline = timelineOf(PARALLEL_GLOBAL);
    expect(timeline.rows.map((row) => row.label)).toEqual([
      'p0-tor0 · port 1',
      'p0-tor0 · port 2',
      'p0-tor1 · port 1',
      'p0-tor1 · port 2',
      'p0-tor2',
      'p0-tor3',
    ]);
    const bars = (row: number) =>
      timeline.bars.filter((bar) => bar.row === row).map((bar) => [bar.peerName, bar.t0, bar.t1]);
    // Two circuits p0-tor0 - p0-tor1 in slots 1-4; in slot 5 one is kept (port 1), port 2 turns to
    // p0-tor2; in slot 11 p0-tor0 has none, in slot 12 its circuit to p0-tor2 takes port 1.
    expect(bars(0)).toEqual([
      ['p0-tor1', 0, 10],
      ['p0-tor2', 11, 12],
    ]);
    expect(bars(1)).toEqual([
      ['p0-tor1', 0, 4],
      ['p0-tor2', 4, 10],
    ]);
  });

  it('darkens kept circuits too under global reconfiguration', () => {
    const timeline = timelineOf(PARALLEL_GLOBAL);
    const darkAt = (t0: number) => timeline.dark.filter((interval) => interval.t0 === t0).map((i) => i.row);
    // Slot 5 changes circuits: every port goes dark, the kept p0-tor0 - p0-tor1 circuit (rows 0, 2) too.
    expect(darkAt(4).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(darkAt(1)).toEqual([]);
    expect(darkAt(10)).toEqual([4, 5]);
  });
});

describe('layoutTimeline', () => {
  it('places bars on the time axis and keeps only the page of slots and rows', () => {
    const timeline = timelineOf(REPLAY);
    const chart = layoutTimeline(timeline, REPLAY.slots, { firstSlot: 1, lastSlot: 2, firstRow: 0, rowEnd: 2 }, 600);
    expect(chart.yTicks.map((tick) => tick.label)).toEqual(['p0-tor0', 'p0-tor1']);
    expect(chart.bars.every((bar) => bar.row < 2)).toBe(true);
    // Rack 0's bar spans slots 1-4 but is clipped to the page (t 1..3).
    const rack0 = chart.bars.find((bar) => bar.row === 0)!;
    expect(rack0.x).toBeCloseTo(chart.area.left);
    expect(rack0.x + rack0.width + 1).toBeCloseTo(chart.area.right);
    // Rack 1 shows p0-tor3 only (its p0-tor2 and p1-tor3 bars lie outside slots 2-3).
    expect(chart.bars.filter((bar) => bar.row === 1).map((bar) => bar.peerName)).toEqual(['p0-tor3']);
    expect(chart.dark.map((interval) => [interval.row, interval.t0])).toEqual([[1, 1]]);
    expect(chart.dark[0]!.width).toBeGreaterThanOrEqual(2);
  });
});
