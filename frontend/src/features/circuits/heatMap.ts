/**
 * The demand heat map: racks × racks (row = source, column = destination), a cell's colour its bytes
 * on a log scale, and the circuits of the chosen slot outlined (both cells of a pair, since a circuit
 * carries both directions).
 */
import { interpolateYlOrRd, scaleSequentialLog } from 'd3';

import type { Circuit, DemandMatrix, ScheduleInput } from './api/types';

export interface DemandEntry {
  src: number;
  dst: number;
  bytes: number;
}

export type RackOrder = 'name' | 'demand';

export interface HeatMapCell {
  row: number;
  col: number;
  src: number;
  dst: number;
  bytes: number;
  colour: string;
}

export interface HeatMapOutline {
  row: number;
  col: number;
  a: number;
  b: number;
  count: number;
  /** Bytes of the outlined cell (0 when the circuit was kept or filled without demand here). */
  bytes: number;
}

export interface HeatMapModel {
  /** Rack index shown at each row and column position. */
  order: number[];
  labels: string[];
  cells: HeatMapCell[];
  outlines: HeatMapOutline[];
  /** Smallest and largest positive cell, the colour scale's domain. */
  domain: [number, number] | null;
  colour: (bytes: number) => string;
}

export const EMPTY_CELL_COLOUR = '#f3f5f7';

const collator = new Intl.Collator('en', { numeric: true });

/**
 * Rack positions: by name (natural order, so tor-2 precedes tor-10 and a pod's racks stay together) or
 * by total demand, busiest first (ties by name), which gathers the hot pairs in the top left corner.
 */
export function rackOrder(rackNames: readonly string[], entries: readonly DemandEntry[], order: RackOrder): number[] {
  const racks = rackNames.map((_, rack) => rack);
  const byName = (x: number, y: number) => collator.compare(rackNames[x] ?? '', rackNames[y] ?? '') || x - y;
  if (order === 'name') return racks.sort(byName);
  const totals = new Array<number>(rackNames.length).fill(0);
  for (const entry of entries) {
    totals[entry.src] = (totals[entry.src] ?? 0) + entry.bytes;
    totals[entry.dst] = (totals[entry.dst] ?? 0) + entry.bytes;
  }
  return racks.sort((x, y) => (totals[y] ?? 0) - (totals[x] ?? 0) || byName(x, y));
}

export function buildHeatMap({
  rackNames,
  entries,
  circuits,
  order = 'name',
}: {
  rackNames: readonly string[];
  entries: readonly DemandEntry[];
  circuits: readonly Circuit[];
  order?: RackOrder;
}): HeatMapModel {
  const positions = rackOrder(rackNames, entries, order);
  const positionOf = new Array<number>(rackNames.length);
  positions.forEach((rack, position) => {
    positionOf[rack] = position;
  });
  const pairs = new Map<string, DemandEntry>();
  for (const entry of entries) {
    const key = `${entry.src}:${entry.dst}`;
    const known = pairs.get(key);
    pairs.set(key, { ...entry, bytes: (known?.bytes ?? 0) + entry.bytes });
  }
  const positive = [...pairs.values()].map((pair) => pair.bytes).filter((bytes) => bytes > 0);
  const domain: [number, number] | null = positive.length > 0 ? [Math.min(...positive), Math.max(...positive)] : null;
  const scale =
    domain === null
      ? null
      : scaleSequentialLog(interpolateYlOrRd).domain(domain[0] === domain[1] ? [domain[0], domain[0] * 10] : domain);
  const colour = (bytes: number) => (scale === null || bytes <= 0 ? EMPTY_CELL_COLOUR : scale(bytes));

  const cells: HeatMapCell[] = [];
  for (const { src, dst, bytes } of pairs.values()) {
    if (bytes <= 0) continue;
    const row = positionOf[src];
    const col = positionOf[dst];
    if (row === undefined || col === undefined) continue;
    cells.push({ row, col, src, dst, bytes, colour: colour(bytes) });
  }
  cells.sort((x, y) => x.row - y.row || x.col - y.col);

  const outlines: HeatMapOutline[] = [];
  for (const circuit of circuits) {
    for (const [src, dst] of [
      [circuit.a, circuit.b],
      [circuit.b, circuit.a],
    ] as const) {
      const row = positionOf[src];
      const col = positionOf[dst];
      if (row === undefined || col === undefined) continue;
      outlines.push({
        row,
        col,
        a: circuit.a,
        b: circuit.b,
        count: circuit.count,
        bytes: pairs.get(`${src}:${dst}`)?.bytes ?? 0,
      });
    }
  }
  outlines.sort((x, y) => x.row - y.row || x.col - y.col);

  return {
    order: positions,
    labels: positions.map((rack) => rackNames[rack] ?? `rack ${rack}`),
    cells,
    outlines,
    domain,
    colour,
  };
}

/** Colour legend stops: the scale's ends and the powers of ten between them. */
export function legendTicks(domain: [number, number] | null): number[] {
  if (domain === null) return [];
  const [low, high] = domain;
  const ticks = [low];
  for (let power = Math.ceil(Math.log10(low)); 10 ** power < high; power += 1) {
    const value = 10 ** power;
    if (value > low) ticks.push(value);
  }
  if (high > low) ticks.push(high);
  // A power of ten next to an end would print over it.
  const span = Math.log(high / low);
  const clear = (value: number) =>
    value === low || value === high || (Math.log(value / low) > 0.12 * span && Math.log(high / value) > 0.12 * span);
  const spaced = ticks.filter(clear);
  // Many decades would crowd the legend: keep the ends and every other power.
  if (spaced.length > 7) return spaced.filter((_, i) => i === 0 || i === spaced.length - 1 || i % 2 === 0);
  return spaced;
}

/** Racks above which the heat map is drawn on a canvas: 1,000 racks would be a million SVG cells at worst. */
export const CANVAS_RACKS = 200;

/**
 * The demand the heat map shows with a slot's circuits. Replay: the window the circuits were chosen
 * on (they then carry the next one). Drain: every window summed, the volume being drained. Null when
 * the result holds no demand echo (too large); the page then asks the matrix endpoint.
 */
export function slotDemand(
  input: Pick<ScheduleInput, 'mode' | 'windows'>,
  slotIndex: number,
): { entries: DemandEntry[]; caption: string } | null {
  const windows = input.windows;
  if (windows === null) return null;
  const toEntries = (window: readonly (readonly [number, number, number])[]) =>
    window.map(([src, dst, bytes]) => ({ src, dst, bytes }));
  if (input.mode === 'drain') {
    return {
      entries: windows.flatMap(toEntries),
      caption: `all ${windows.length} demand window${windows.length === 1 ? '' : 's'} summed (drain mode)`,
    };
  }
  const window = windows[slotIndex];
  return {
    entries: window ? toEntries(window) : [],
    caption: `demand window ${slotIndex + 1} of ${windows.length}, on which slot ${slotIndex + 1}'s circuits were chosen`,
  };
}

/** Matrix endpoint cells mapped onto the schedule's rack indices by ToR name (racks it lacks are dropped). */
export function matrixEntries(matrix: DemandMatrix, rackNames: readonly string[]): DemandEntry[] {
  const indexOf = new Map(rackNames.map((name, index) => [name, index]));
  return matrix.cells.flatMap(([row, col, bytes]) => {
    const src = indexOf.get(matrix.racks[row]?.name ?? '');
    const dst = indexOf.get(matrix.racks[col]?.name ?? '');
    return src === undefined || dst === undefined ? [] : [{ src, dst, bytes }];
  });
}

export interface HeatMapLayout {
  cell: number;
  /** Left edge and top edge of the grid (room for row and column labels). */
  left: number;
  top: number;
  size: number;
  width: number;
  height: number;
  /** Label every k-th rack (Infinity: none). */
  labelEvery: number;
}

const MAX_CELL_PX = 28;

export function layoutHeatMap(labels: readonly string[], width: number): HeatMapLayout {
  const longest = Math.max(4, ...labels.map((label) => label.length));
  const margin = Math.min(140, Math.round(longest * 6.5 + 12));
  const n = Math.max(1, labels.length);
  const cell = Math.max(0.05, Math.min(MAX_CELL_PX, (Math.max(width, 200) - margin - 8) / n));
  const size = cell * n;
  const labelEvery = cell >= 11 ? 1 : cell * 8 >= 11 ? Math.ceil(11 / cell) : Number.POSITIVE_INFINITY;
  return { cell, left: margin, top: margin, size, width: margin + size + 8, height: margin + size + 8, labelEvery };
}
