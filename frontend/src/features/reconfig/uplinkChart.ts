/** The model of the per-rack uplink chart: D3 owns scales, ticks and paths; UplinkChart draws them. */
import * as d3 from 'd3';

import type { LarryResult } from './api/types';
import { changeIndices, changesAt, uplinkSeries } from './larryData';

export interface Tick {
  value: number;
  position: number;
  label: string;
}

export interface RackRow {
  rack: number;
  name: string;
  top: number;
  bottom: number;
  yTicks: Tick[];
  bars: { index: number; x: number; width: number; y: number; height: number; changed: boolean; uplinks: number }[];
  demandPath: string;
  staticY: number;
}

export interface UplinkChartModel {
  width: number;
  height: number;
  left: number;
  right: number;
  rows: RackRow[];
  xTicks: Tick[];
  xTitle: string;
  /** Centre of the selected step, or null when it is not drawn. */
  cursorX: number | null;
  /** The top of the first row and the bottom of the last (the brush's extent). */
  plotTop: number;
  plotBottom: number;
  /** The series index of the bar drawn at (or nearest to) pixel x. */
  indexAtX: (px: number) => number;
}

const MARGIN = { left: 96, right: 16, top: 8, bottom: 44 };
const ROW_HEIGHT = 76;
const ROW_GAP = 14;

/** Seconds, minutes or hours, whichever keeps the axis labels short. */
export function timeUnit(spanSeconds: number): { seconds: number; label: string } {
  if (spanSeconds >= 3 * 3600) return { seconds: 3600, label: 'h' };
  if (spanSeconds >= 10 * 60) return { seconds: 60, label: 'min' };
  return { seconds: 1, label: 's' };
}

/**
 * `range` zooms to the series points [first, last] (inclusive); the value axis keeps the whole
 * run's scale so that zooming never changes what a bar's height means.
 */
export function buildUplinkChart(
  result: Pick<LarryResult, 'series' | 'racks' | 'inputs' | 'changes'>,
  width: number,
  selected: number | null,
  range: [number, number] | null = null,
): UplinkChartModel {
  const whole = uplinkSeries(result);
  const peak = d3.max(whole.flatMap((rack) => rack.bars.flatMap((bar) => [bar.uplinks, bar.demandLinks]))) ?? 1;
  const yMax = Math.max(1, peak);
  const series = range
    ? whole.map((rack) => ({
        ...rack,
        bars: rack.bars.filter((bar) => bar.index >= range[0] && bar.index <= range[1]),
      }))
    : whole;
  // A bar is marked where that rack gained or gave circuits, not merely where some rack did.
  const moved = new Set(
    changeIndices(result).flatMap((index) =>
      changesAt(result, index).flatMap((change) =>
        change.diff.flatMap((move) => [move.from, move.to].flatMap((end) => (end ? [`${index}:${end[0]}`] : []))),
      ),
    ),
  );
  const first = series[0]?.bars[0]?.t0 ?? 0;
  const last = series[0]?.bars.at(-1)?.t1 ?? first + 1;
  const unit = timeUnit(last - first);
  const left = MARGIN.left;
  const right = Math.max(left + 20, width - MARGIN.right);
  const x = d3
    .scaleLinear()
    .domain([first / unit.seconds, last / unit.seconds])
    .range([left, right]);
  const sx = (t: number) => x(t / unit.seconds);

  const rows = series.map((rack, i): RackRow => {
    const top = MARGIN.top + i * (ROW_HEIGHT + ROW_GAP);
    const bottom = top + ROW_HEIGHT;
    const y = d3.scaleLinear().domain([0, yMax]).range([bottom, top]).nice(3);
    const demand = d3
      .line<{ t: number; v: number }>()
      .x((point) => sx(point.t))
      .y((point) => y(point.v))
      .curve(d3.curveStepAfter);
    const lastBar = rack.bars.at(-1);
    const points = rack.bars.map((bar) => ({ t: bar.t0, v: bar.demandLinks }));
    if (lastBar) points.push({ t: lastBar.t1, v: lastBar.demandLinks });
    return {
      rack: rack.rack,
      name: rack.name,
      top,
      bottom,
      yTicks: y.ticks(2).map((value) => ({ value, position: y(value), label: String(value) })),
      bars: rack.bars.map((bar) => {
        const x0 = sx(bar.t0);
        const x1 = sx(bar.t1);
        return {
          index: bar.index,
          x: x0,
          // A hairline gap between bars while they are wide enough to show it.
          width: Math.max(0.5, x1 - x0 - (x1 - x0 > 4 ? 1 : 0)),
          y: y(bar.uplinks),
          height: bottom - y(bar.uplinks),
          changed: moved.has(`${bar.index}:${rack.rack}`),
          uplinks: bar.uplinks,
        };
      }),
      demandPath: demand(points) ?? '',
      staticY: y(result.inputs.rack_set.static_uplinks),
    };
  });

  const plotBottom = rows.at(-1)?.bottom ?? MARGIN.top + ROW_HEIGHT;
  const xTicks = x.ticks(Math.max(2, Math.floor((right - left) / 90))).map((value) => ({
    value,
    position: x(value),
    label: x.tickFormat()(value),
  }));
  const drawn = series[0]?.bars ?? [];
  const selectedBar = selected === null ? undefined : drawn.find((bar) => bar.index === selected);
  const indexAtX = (px: number) => {
    const t = x.invert(px) * unit.seconds;
    const hit = drawn.find((bar) => t >= bar.t0 && t < bar.t1);
    if (hit) return hit.index;
    return t < first ? (drawn[0]?.index ?? 0) : (drawn.at(-1)?.index ?? 0);
  };
  return {
    width,
    height: plotBottom + MARGIN.bottom,
    left,
    right,
    rows,
    xTicks,
    xTitle: `Time since the counters start (${unit.label})`,
    cursorX: selectedBar ? (sx(selectedBar.t0) + sx(selectedBar.t1)) / 2 : null,
    plotTop: MARGIN.top,
    plotBottom,
    indexAtX,
  };
}
