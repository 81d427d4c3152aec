/**
 * The per-port circuit timeline (Gantt): one row per rack optical port, one bar per circuit held on
 * that port over consecutive slots, and the dark interval at the start of every slot in which the
 * port is (re)configured.
 */
import { scaleLinear } from 'd3';

import type { AxisTick, PlotArea } from '@/components/charts/plotArea';

import type { CircuitSlot } from './api/types';

export interface TimelineRow {
  rack: number;
  /** Port lane of the rack, 0..k_v-1. */
  port: number;
  label: string;
}

export interface TimelineBar {
  row: number;
  peer: number;
  peerName: string;
  /** Slot indices covered, first and last (inclusive). */
  firstSlot: number;
  lastSlot: number;
  t0: number;
  t1: number;
}

export interface DarkInterval {
  row: number;
  slot: number;
  t0: number;
  t1: number;
}

export interface Timeline {
  rows: TimelineRow[];
  bars: TimelineBar[];
  dark: DarkInterval[];
  /** The same per row, in slot order (a page looks up only its rows). */
  barsByRow: TimelineBar[][];
  darkByRow: DarkInterval[][];
  /** Start of the first slot and end of the last, in seconds. */
  start: number;
  end: number;
}

export interface TimelineInput {
  /** Name of each rack index. */
  rackNames: readonly string[];
  /** Optical ports k_v of each rack index (a rack never shows more lanes than it uses). */
  ports: readonly number[];
  slots: readonly CircuitSlot[];
  darkTimeS: number;
  /** Leave out ports that never hold a circuit (a 320-rack zone with sparse demand has many). */
  onlyActive?: boolean;
}

function countOf(values: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** Each rack's peers in a slot, a peer once per parallel circuit, in ascending order. */
function peersPerRack(slot: CircuitSlot): Map<number, number[]> {
  const peers = new Map<number, number[]>();
  const add = (rack: number, peer: number, count: number) => {
    const list = peers.get(rack) ?? [];
    for (let i = 0; i < count; i += 1) list.push(peer);
    peers.set(rack, list);
  };
  for (const circuit of slot.circuits) {
    add(circuit.a, circuit.b, circuit.count);
    add(circuit.b, circuit.a, circuit.count);
  }
  for (const list of peers.values()) list.sort((x, y) => x - y);
  return peers;
}

interface LaneState {
  peer: number | null;
  /** Open bar of this lane, extended while the circuit is kept. */
  bar: TimelineBar | null;
  /** Held a circuit at some point. */
  used: boolean;
}

const NO_PEERS: number[] = [];

/**
 * Lanes follow the circuits: a circuit kept from the previous slot stays on its port, new circuits take
 * the free ports lowest first. The dark ports of a slot are the engine's `changed_ports` (a rack once per
 * dark port); they are put on the lanes that got a new circuit first, then (global reconfiguration, where
 * every port goes dark) on the lanes that kept theirs.
 *
 * Each slot visits only the racks with a circuit in it or in the slot before, with plain loops: a
 * one-hour plan of a 320-rack zone is over a million rack-slots.
 */
export function buildTimeline({ rackNames, ports, slots, darkTimeS, onlyActive = false }: TimelineInput): Timeline {
  const lanes: LaneState[][] = Array.from({ length: rackNames.length }, (_, rack) =>
    Array.from({ length: Math.max(ports[rack] ?? 1, 0) }, () => ({ peer: null, bar: null, used: false })),
  );
  // Bars and dark intervals with their lane, as parallel arrays (rows are known only at the end).
  const bars: TimelineBar[] = [];
  const barLane: [number, number][] = [];
  const dark: DarkInterval[] = [];
  const darkLane: [number, number][] = [];
  const nameOf = (rack: number) => rackNames[rack] ?? `rack ${rack}`;
  const kept: boolean[] = [];
  const fresh: boolean[] = [];
  let active = new Set<number>();

  for (const slot of slots) {
    const peers = peersPerRack(slot);
    const darkCounts = countOf(slot.changed_ports);
    const visit = new Set<number>(peers.keys());
    for (const rack of active) visit.add(rack);
    const nextActive = new Set<number>();
    for (const rack of visit) {
      const rackLanes = lanes[rack];
      if (!rackLanes) continue;
      const wanted = peers.get(rack) ?? NO_PEERS;
      // A schedule may use more ports than declared (an older echo): grow rather than drop circuits.
      while (rackLanes.length < wanted.length) rackLanes.push({ peer: null, bar: null, used: false });
      for (let port = 0; port < rackLanes.length; port += 1) {
        const lane = rackLanes[port]!;
        const at = lane.peer === null ? -1 : wanted.indexOf(lane.peer);
        kept[port] = at >= 0;
        fresh[port] = false;
        if (at >= 0) wanted.splice(at, 1);
      }
      for (let port = 0; port < rackLanes.length; port += 1) {
        const lane = rackLanes[port]!;
        if (kept[port]) {
          lane.bar!.lastSlot = slot.index;
          lane.bar!.t1 = slot.t1;
          nextActive.add(rack);
          continue;
        }
        lane.bar = null;
        lane.peer = null;
        const peer = wanted.shift();
        if (peer === undefined) continue;
        const bar: TimelineBar = {
          row: -1,
          peer,
          peerName: nameOf(peer),
          firstSlot: slot.index,
          lastSlot: slot.index,
          t0: slot.t0,
          t1: slot.t1,
        };
        lane.peer = peer;
        lane.bar = bar;
        lane.used = true;
        fresh[port] = true;
        bars.push(bar);
        barLane.push([rack, port]);
        nextActive.add(rack);
      }
      let darkLeft = darkCounts.get(rack) ?? 0;
      for (const wantFresh of [true, false]) {
        for (let port = 0; port < rackLanes.length && darkLeft > 0; port += 1) {
          if (!(wantFresh ? fresh[port] : kept[port])) continue;
          darkLeft -= 1;
          dark.push({ row: -1, slot: slot.index, t0: slot.t0, t1: Math.min(slot.t0 + darkTimeS, slot.t1) });
          darkLane.push([rack, port]);
        }
      }
    }
    active = nextActive;
  }

  const rows: TimelineRow[] = [];
  const rowOfLane: number[][] = lanes.map((rackLanes, rack) => {
    const multiPort = rackLanes.length > 1;
    return rackLanes.map((lane, port) => {
      if (onlyActive && !lane.used) return -1;
      rows.push({ rack, port, label: multiPort ? `${nameOf(rack)} · port ${port + 1}` : nameOf(rack) });
      return rows.length - 1;
    });
  });
  // Bars and dark intervals lie only on lanes that held a circuit, so every one has a row.
  const barsByRow: TimelineBar[][] = rows.map(() => []);
  bars.forEach((bar, i) => {
    const [rack, port] = barLane[i]!;
    bar.row = rowOfLane[rack]?.[port] ?? -1;
    barsByRow[bar.row]?.push(bar);
  });
  const darkByRow: DarkInterval[][] = rows.map(() => []);
  dark.forEach((interval, i) => {
    const [rack, port] = darkLane[i]!;
    interval.row = rowOfLane[rack]?.[port] ?? -1;
    darkByRow[interval.row]?.push(interval);
  });
  return {
    rows,
    bars,
    dark,
    barsByRow,
    darkByRow,
    start: slots[0]?.t0 ?? 0,
    end: slots.at(-1)?.t1 ?? 0,
  };
}

/** Index of the first entry whose last slot is at or after `slot` (entries are in slot order). */
function firstEndingFrom<T>(entries: readonly T[], slot: number, lastOf: (entry: T) => number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lastOf(entries[middle]!) < slot) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The entries of one row that overlap slots first..last. */
function inSlotRange<T>(entries: readonly T[], first: number, last: number, span: (entry: T) => [number, number]): T[] {
  const out: T[] = [];
  for (let i = firstEndingFrom(entries, first, (entry) => span(entry)[1]); i < entries.length; i += 1) {
    const entry = entries[i]!;
    if (span(entry)[0] > last) break;
    out.push(entry);
  }
  return out;
}

export interface TimelineWindow {
  /** First and last slot shown (inclusive), first and last row shown (exclusive end). */
  firstSlot: number;
  lastSlot: number;
  firstRow: number;
  rowEnd: number;
}

export interface TimelineChart {
  area: PlotArea;
  rowHeight: number;
  /** Position of a time (s) on the page's x axis. */
  xOf: (t: number) => number;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  bars: (TimelineBar & { x: number; y: number; width: number; height: number; showLabel: boolean })[];
  dark: (DarkInterval & { x: number; y: number; width: number; height: number })[];
}

const ROW_HEIGHT = 22;
const MARGIN = { top: 8, right: 16, bottom: 44 };
/** Rough width of one character of the 11px chart labels. */
const CHAR_PX = 6.5;

/** Slots and rows of one page laid out with d3 scales: time across, ports down. */
export function layoutTimeline(
  timeline: Timeline,
  slots: readonly CircuitSlot[],
  window: TimelineWindow,
  width: number,
): TimelineChart {
  const rows = timeline.rows.slice(window.firstRow, window.rowEnd);
  const longest = Math.max(8, ...rows.map((row) => row.label.length));
  const left = Math.min(220, Math.round(longest * CHAR_PX + 36));
  const height = MARGIN.top + rows.length * ROW_HEIGHT + MARGIN.bottom;
  const area: PlotArea = {
    width,
    height,
    left,
    right: Math.max(left + 40, width - MARGIN.right),
    top: MARGIN.top,
    bottom: MARGIN.top + rows.length * ROW_HEIGHT,
  };
  const first = slots.find((slot) => slot.index === window.firstSlot) ?? slots[0];
  const last = slots.find((slot) => slot.index === window.lastSlot) ?? slots.at(-1);
  const t0 = first?.t0 ?? 0;
  const t1 = last?.t1 ?? 1;
  const x = scaleLinear()
    .domain([t0, t1 > t0 ? t1 : t0 + 1])
    .range([area.left, area.right]);
  const yOf = (row: number) => area.top + (row - window.firstRow) * ROW_HEIGHT;
  const pageRows = timeline.rows.slice(window.firstRow, window.rowEnd).map((_, i) => window.firstRow + i);
  const pageBars = pageRows.flatMap((row) =>
    inSlotRange(timeline.barsByRow[row] ?? [], window.firstSlot, window.lastSlot, (bar) => [
      bar.firstSlot,
      bar.lastSlot,
    ]),
  );
  const pageDark = pageRows.flatMap((row) =>
    inSlotRange(timeline.darkByRow[row] ?? [], window.firstSlot, window.lastSlot, (interval) => [
      interval.slot,
      interval.slot,
    ]),
  );

  const xTicks = x.ticks(Math.max(2, Math.floor((area.right - area.left) / 90))).map((value) => ({
    value,
    position: x(value),
    label: `${x.tickFormat()(value)}`,
  }));
  const yTicks = rows.map((row, i) => ({
    value: window.firstRow + i,
    position: area.top + i * ROW_HEIGHT + ROW_HEIGHT / 2,
    label: row.label,
  }));
  return {
    area,
    rowHeight: ROW_HEIGHT,
    xOf: (t: number) => x(t),
    xTicks,
    yTicks,
    bars: pageBars.map((bar) => {
      const x0 = x(Math.max(bar.t0, t0));
      const x1 = x(Math.min(bar.t1, t1));
      return {
        ...bar,
        x: x0,
        y: yOf(bar.row) + 3,
        width: Math.max(1, x1 - x0 - 1),
        height: ROW_HEIGHT - 6,
        showLabel: x1 - x0 > bar.peerName.length * CHAR_PX + 8,
      };
    }),
    dark: pageDark.map((interval) => {
      const x0 = x(interval.t0);
      return {
        ...interval,
        x: x0,
        y: yOf(interval.row) + 3,
        width: Math.max(2, x(interval.t1) - x0),
        height: ROW_HEIGHT - 6,
      };
    }),
  };
}
