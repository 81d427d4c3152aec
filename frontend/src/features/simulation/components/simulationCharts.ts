/** Chart models of the simulation page: D3 owns scales, ticks and paths; components draw them. */
import * as d3 from 'd3';

import { type AxisTick, type PlotArea, plotArea } from '@/components/charts/plotArea';

import type { PolicyOutcome, SimulationResult, SimulationRun } from '../api/types';
import {
  formatNumber,
  POLICY_STYLE,
  type RatioKind,
  ratioLines,
  stepPoints,
  type StepPoint,
  timeUnit,
} from '../simulationData';

export interface ChartLine {
  key: string;
  /** With "(same as X)" when the line is drawn exactly over an earlier one. */
  label: string;
  colour: string;
  dash: string;
  path: string;
}

export interface TimeChartModel {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  xTitle: string;
  lines: ChartLine[];
  /** A horizontal line (the capacity constraint). */
  reference: { y: number; label: string } | null;
  hasData: boolean;
}

function timeAxis(result: SimulationResult, area: PlotArea) {
  const unit = timeUnit(result.trace.horizon_s);
  const end = Math.max(result.trace.horizon_s / unit.seconds, 1e-9);
  const x = d3.scaleLinear().domain([0, end]).range([area.left, area.right]);
  const xTicks = x.ticks(Math.max(2, Math.floor((area.right - area.left) / 80))).map((value) => ({
    value,
    position: x(value),
    label: x.tickFormat()(value),
  }));
  return { unit, x, xTicks, xTitle: `Time since the trace starts (${unit.label})` };
}

/** 10^exponent exactly (10 ** -4 is 0.00009999999999999999 in floating point). */
function decade(exponent: number): number {
  return Number(`1e${exponent}`);
}

/** 0 and whole decades between the smallest step above 0 and the largest value (a symlog axis). */
export function decadeTicks(smallest: number, largest: number, maxTicks = 6): number[] {
  if (!(largest > 0)) return [0];
  const low = Math.ceil(Math.log10(smallest));
  const high = Math.floor(Math.log10(largest));
  const exponents = d3.range(low, high + 1);
  const stride = Math.max(1, Math.ceil(exponents.length / (maxTicks - 1)));
  const chosen = exponents.filter((_, i) => (exponents.length - 1 - i) % stride === 0);
  return [0, ...chosen.map(decade)];
}

function decadeLabel(value: number): string {
  if (value === 0) return '0';
  const exponent = Math.round(Math.log10(value));
  return exponent >= -2 && exponent <= 3 ? String(value) : `1e${exponent}`;
}

function policyLine(
  outcome: PolicyOutcome,
  points: StepPoint[],
  x: (t: number) => number,
  y: (v: number) => number,
): ChartLine {
  const line = d3
    .line<StepPoint>()
    .x((point) => x(point.t))
    .y((point) => y(point.value))
    .curve(d3.curveStepAfter);
  return {
    key: outcome.policy,
    label: POLICY_STYLE[outcome.policy].label,
    colour: POLICY_STYLE[outcome.policy].colour,
    dash: '',
    path: line(points) ?? '',
  };
}

/** Policies often behave identically (the fast checker and CorrOpt at a loose constraint): say so in the legend. */
export function markCoinciding(lines: ChartLine[]): ChartLine[] {
  return lines.map((line, i) => {
    const same = lines.slice(0, i).find((earlier) => earlier.path === line.path);
    return same ? { ...line, label: `${line.label} (same as ${same.label})` } : line;
  });
}

/**
 * Penalty per second over time per policy (the seed's Figure 3.14): a symlog axis, since
 * switch-local can lose orders of magnitude more than CorrOpt and CorrOpt's penalty is often 0.
 */
export function buildPenaltyChart(
  result: SimulationResult,
  run: SimulationRun,
  size: { width: number; height: number },
): TimeChartModel {
  const area = plotArea(size.width, size.height);
  const { unit, x, xTicks, xTitle } = timeAxis(result, area);
  const values = run.policies.flatMap((outcome) => outcome.series.penalty);
  const largest = d3.max(values) ?? 0;
  const smallest = d3.min(values.filter((value) => value > 0)) ?? 1;
  // The constant sets where the axis turns from linear to logarithmic: a decade under the smallest step.
  const constant = decade(Math.floor(Math.log10(smallest)) - 1);
  const y = d3
    .scaleSymlog()
    .constant(constant)
    .domain([0, largest > 0 ? largest * 1.15 : 1])
    .range([area.bottom, area.top]);
  const yTicks = decadeTicks(smallest, largest > 0 ? largest * 1.15 : 0).map((value) => ({
    value,
    position: y(value),
    label: decadeLabel(value),
  }));
  const lines = markCoinciding(
    run.policies.map((outcome) =>
      policyLine(
        outcome,
        stepPoints(outcome.series.time_s, outcome.series.penalty, result.trace.horizon_s, unit.seconds),
        x,
        y,
      ),
    ),
  );
  return { area, xTicks, yTicks, xTitle, lines, reference: null, hasData: values.length > 0 };
}

/** The worst ToR's fraction of up-paths over time per policy, with the run's constraint (Figs. 3.15/3.16). */
export function buildWorstFractionChart(
  result: SimulationResult,
  run: SimulationRun,
  size: { width: number; height: number },
): TimeChartModel {
  const area = plotArea(size.width, size.height);
  const { unit, x, xTicks, xTitle } = timeAxis(result, area);
  const values = run.policies.flatMap((outcome) => outcome.series.worst_fraction);
  const lowest = Math.min(d3.min(values) ?? 1, run.constraint);
  const y = d3
    .scaleLinear()
    .domain([Math.max(0, Math.floor((lowest - 0.05) * 20) / 20), 1])
    .range([area.bottom, area.top]);
  const yTicks = y.ticks(5).map((value) => ({ value, position: y(value), label: `${Math.round(value * 100)}%` }));
  const lines = markCoinciding(
    run.policies.map((outcome) =>
      policyLine(
        outcome,
        stepPoints(outcome.series.time_s, outcome.series.worst_fraction, result.trace.horizon_s, unit.seconds),
        x,
        y,
      ),
    ),
  );
  return {
    area,
    xTicks,
    yTicks,
    xTitle,
    lines,
    reference: { y: y(run.constraint), label: `constraint ${Math.round(run.constraint * 1000) / 10}%` },
    hasData: values.length > 0,
  };
}

export interface RatioMarker {
  key: string;
  cx: number;
  cy: number;
  colour: string;
  kind: RatioKind;
  text: string;
}

export interface RatioChartModel {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  lines: (ChartLine & { markers: RatioMarker[] })[];
  /** Where infinite ratios (CorrOpt lost nothing) and zero ratios are drawn. */
  infinityY: number;
  zeroY: number;
  hasInfinite: boolean;
  hasZero: boolean;
}

/** Penalty ÷ CorrOpt's by constraint, one line per baseline and repair accuracy, on a log axis (Fig. 3.17). */
export function buildRatioChart(result: SimulationResult, size: { width: number; height: number }): RatioChartModel {
  const area = plotArea(size.width, size.height);
  const ratioLinesData = ratioLines(result);
  const constraints = [...result.settings.constraints].sort((a, b) => a - b);
  const x = d3
    .scalePoint<number>()
    .domain(constraints)
    .range([area.left, area.right])
    .padding(constraints.length === 1 ? 1 : 0.4);
  const finite = ratioLinesData.flatMap((line) =>
    line.points.filter((point) => point.kind === 'finite').map((point) => point.ratio as number),
  );
  const hasInfinite = ratioLinesData.some((line) => line.points.some((point) => point.kind === 'infinite'));
  const hasZero = ratioLinesData.some((line) => line.points.some((point) => point.kind === 'zero'));
  // Room at the top for infinite ratios and at the bottom for zero ones, outside the log range.
  const band = 18;
  const top = area.top + (hasInfinite ? band : 0);
  const bottom = area.bottom - (hasZero ? band : 0);
  // A decade of room below the lowest ratio (often exactly 1: a policy that did as well as CorrOpt).
  const low = Math.min(1, d3.min(finite) ?? 1) / 10;
  const high = Math.max(10, d3.max(finite) ?? 10);
  const y = d3
    .scaleLog()
    .domain([decade(Math.floor(Math.log10(low))), decade(Math.ceil(Math.log10(high)))])
    .range([bottom, top]);
  const [domainLow, domainHigh] = y.domain() as [number, number];
  const exponents = d3.range(Math.round(Math.log10(domainLow)), Math.round(Math.log10(domainHigh)) + 1);
  const stride = Math.max(1, Math.ceil(exponents.length / 6));
  const yTicks = exponents
    .filter((_, i) => i % stride === 0)
    .map((exponent) => ({
      value: decade(exponent),
      position: y(decade(exponent)),
      label: decadeLabel(decade(exponent)),
    }));
  const infinityY = area.top + band / 2;
  const zeroY = area.bottom - band / 2;
  const position = (point: { ratio: number | null; kind: RatioKind }) =>
    point.kind === 'infinite' ? infinityY : point.kind === 'zero' ? zeroY : y(point.ratio as number);
  const lines = ratioLinesData.map((line) => {
    const path =
      d3
        .line<(typeof line.points)[number]>()
        .x((point) => x(point.constraint) ?? area.left)
        .y(position)(line.points) ?? '';
    return {
      key: line.key,
      label: line.label,
      colour: line.colour,
      dash: line.dash,
      path,
      markers: line.points.map((point) => ({
        key: `${line.key}-${point.constraint}`,
        cx: x(point.constraint) ?? area.left,
        cy: position(point),
        colour: line.colour,
        kind: point.kind,
        text: `${line.label}, constraint ${point.constraint}: ${formatNumber(point.ratio)} × CorrOpt's penalty`,
      })),
    };
  });
  const xTicks = constraints.map((value) => ({
    value,
    position: x(value) ?? area.left,
    label: `${Math.round(value * 1000) / 10}%`,
  }));
  return { area, xTicks, yTicks, lines, infinityY, zeroY, hasInfinite, hasZero };
}
