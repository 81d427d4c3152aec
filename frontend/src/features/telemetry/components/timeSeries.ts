/**
 * Pieces shared by the telemetry charts: points in time, gaps, the time axis and the layout.
 * Pure functions, so that what a chart draws can be tested without a browser.
 */
import { scaleUtc, utcDay, utcFormat, type ScaleTime } from 'd3';

import type { AxisTick, PlotArea } from '@/components/charts/plotArea';

export interface TimePoint {
  /** Milliseconds since the epoch. */
  t: number;
  /** null breaks the line: not measured, dark, or a gap. */
  v: number | null;
}

/** Room for the y labels and title on the left, the time labels and title below. */
const MARGIN = { top: 12, right: 12, bottom: 44, left: 64 };
/** Consecutive samples further apart than this many typical steps are not joined by a line. */
export const GAP_FACTOR = 2.5;

export function plotArea(width: number, plotHeight: number): PlotArea {
  const left = MARGIN.left;
  const right = Math.max(left + 1, width - MARGIN.right);
  const top = MARGIN.top;
  const bottom = top + Math.max(1, plotHeight);
  return { width, height: bottom + MARGIN.bottom, left, right, top, bottom };
}

/** Zips the API's columns into points; a missing value is null. */
export function toPoints(times: readonly string[], values: readonly (number | null | undefined)[]): TimePoint[] {
  return times.map((time, index) => ({ t: Date.parse(time), v: values[index] ?? null }));
}

/** The median spacing of consecutive times, or null with fewer than two distinct times. */
export function typicalStepMs(times: readonly number[]): number | null {
  const steps: number[] = [];
  for (let index = 1; index < times.length; index++) {
    const step = times[index]! - times[index - 1]!;
    if (step > 0) steps.push(step);
  }
  if (steps.length === 0) return null;
  steps.sort((a, b) => a - b);
  return steps[Math.floor(steps.length / 2)]!;
}

/**
 * Inserts a gap point between two samples further apart than GAP_FACTOR typical steps, so
 * missing polls show as a break in the line instead of a straight line across the hole.
 */
export function insertGaps<T extends { t: number }>(points: readonly T[], gapAt: (t: number) => T): T[] {
  const step = typicalStepMs(points.map((point) => point.t));
  if (step === null) return [...points];
  const maxGap = step * GAP_FACTOR;
  const result: T[] = [];
  points.forEach((point, index) => {
    const previous = points[index - 1];
    if (previous && point.t - previous.t > maxGap) result.push(gapAt((point.t + previous.t) / 2));
    result.push(point);
  });
  return result;
}

export function breakAtGaps(points: readonly TimePoint[]): TimePoint[] {
  return insertGaps(points, (t) => ({ t, v: null }));
}

/** What every time chart shares: its plot area, the time scale across it and the time ticks. */
export interface TimeFrame {
  area: PlotArea;
  x: ScaleTime<number, number>;
  xTicks: AxisTick[];
}

/** The frame of a chart of [from, to] at this size; the chart adds its value axis. */
export function timeFrame(from: string, to: string, width: number, plotHeight: number): TimeFrame {
  const area = plotArea(width, plotHeight);
  const x = timeScale(from, to, area);
  return { area, x, xTicks: timeTicks(x) };
}

export function timeScale(from: string, to: string, area: PlotArea): ScaleTime<number, number> {
  return scaleUtc()
    .domain([new Date(from), new Date(to)])
    .range([area.left, area.right]);
}

const formatClock = utcFormat('%H:%M');
const formatDay = utcFormat('%b %d');

/** 24-hour clock within a day, the date at midnight: what an operator reads off a UTC axis. */
export function formatTimeTick(date: Date): string {
  return utcDay.floor(date).getTime() === date.getTime() ? formatDay(date) : formatClock(date);
}

/** Time ticks spaced for the width (about one label per 90 px), in UTC. */
export function timeTicks(x: ScaleTime<number, number>): AxisTick[] {
  const [left, right] = x.range() as [number, number];
  const count = Math.max(2, Math.floor((right - left) / 90));
  return x.ticks(count).map((date) => ({ value: date.getTime(), position: x(date), label: formatTimeTick(date) }));
}

/** Line height of an 11 px label, for keeping threshold labels apart. */
const LABEL_PX = 12;

/**
 * Baselines for the labels of horizontal lines at `ys`: just above each line, or just below
 * it when that would overlap the label of the line above. Same order as `ys`.
 */
export function labelBaselines(ys: readonly number[], area: PlotArea): number[] {
  const order = ys.map((y, index) => ({ y, index })).sort((a, b) => a.y - b.y);
  const baselines = new Array<number>(ys.length);
  let previous = Number.NEGATIVE_INFINITY;
  for (const { y, index } of order) {
    let baseline = Math.max(area.top + LABEL_PX - 2, y - 4);
    if (baseline - previous < LABEL_PX) baseline = y + LABEL_PX;
    baseline = Math.min(baseline, area.bottom - 2);
    baselines[index] = baseline;
    previous = baseline;
  }
  return baselines;
}
