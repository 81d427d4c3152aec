/** Chart models of the planner: D3 owns scales, ticks and paths; the components draw them. */
import * as d3 from 'd3';

import { type AxisTick, type PlotArea, plotArea } from '@/components/charts/plotArea';

import {
  type CdfPoint,
  type CostSeries,
  formatPercent,
  formatUsdShort,
  type GoodPathDistribution,
  type StackedBar,
  type SweepLine,
} from '../planData';

export interface BarRect {
  key: string;
  x: number;
  width: number;
  y: number;
  height: number;
  colour: string;
  /** "10GBASE-SR transceivers: $1.6M (19,660 parts at $82.3/part)" */
  title: string;
}

export interface PlacedBar {
  key: string;
  label: string;
  group: string;
  x: number;
  width: number;
  totalY: number;
  totalText: string;
  rects: BarRect[];
}

export interface GroupLabel {
  key: string;
  label: string;
  x: number;
}

export interface BreakdownChartModel {
  area: PlotArea;
  yTicks: AxisTick[];
  bars: PlacedBar[];
  groups: GroupLabel[];
  series: CostSeries[];
}

const BAR_MAX_WIDTH = 120;

/** Stacked bars in USD, side by side within a group, groups apart (one plan: one group of two). */
export function buildBreakdownChart(
  bars: readonly StackedBar[],
  series: CostSeries[],
  size: { width: number; height: number },
): BreakdownChartModel {
  // Room under the axis for bar names and, with several groups, the group names.
  const groupsInOrder = [...new Set(bars.map((bar) => bar.group))];
  const grouped = groupsInOrder.length > 1;
  const area = plotArea(size.width, size.height);
  area.bottom = Math.max(area.top + 10, size.height - (grouped ? 62 : 44));
  const outer = d3.scaleBand<string>().domain(groupsInOrder).range([area.left, area.right]).padding(0.15);
  const top = d3.max(bars, (bar) => bar.total) ?? 0;
  const y = d3
    .scaleLinear()
    .domain([0, top > 0 ? top * 1.08 : 1])
    .range([area.bottom, area.top])
    .nice();
  const yTicks = y.ticks(5).map((value) => ({ value, position: y(value), label: formatUsdShort(value) }));
  const placed: PlacedBar[] = [];
  for (const group of groupsInOrder) {
    const members = bars.filter((bar) => bar.group === group);
    const inner = d3
      .scaleBand<string>()
      .domain(members.map((bar) => bar.key))
      .range([outer(group) ?? area.left, (outer(group) ?? area.left) + outer.bandwidth()])
      .padding(0.2);
    const width = Math.min(BAR_MAX_WIDTH, inner.bandwidth());
    for (const bar of members) {
      const x = (inner(bar.key) ?? 0) + (inner.bandwidth() - width) / 2;
      placed.push({
        key: bar.key,
        label: bar.label,
        group: bar.group,
        x,
        width,
        totalY: y(bar.total),
        totalText: formatUsdShort(bar.total),
        rects: bar.segments.map((segment) => ({
          key: segment.key,
          x,
          width,
          y: y(segment.y1),
          height: Math.max(0, y(segment.y0) - y(segment.y1)),
          colour: segment.colour,
          title: `${bar.label}, ${segment.label}: ${formatUsdShort(segment.usd)} (${segment.quantity} at ${segment.unitText})`,
        })),
      });
    }
  }
  const groups = grouped
    ? groupsInOrder.map((group) => ({
        key: group,
        label: group,
        x: (outer(group) ?? area.left) + outer.bandwidth() / 2,
      }))
    : [];
  return { area, yTicks, bars: placed, groups, series };
}

export interface LineMark {
  key: string;
  label: string;
  colour: string;
  dash: string;
  path: string;
  peak: { x: number; y: number; text: string } | null;
}

export interface SavingsChartModel {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  lines: LineMark[];
  /** The plan's own maximum link length, where one was given. */
  marker: { x: number; label: string } | null;
}

/** Savings against the maximum link length (Figure 4.13): one line per stretch level, gaps where nothing reaches. */
export function buildSavingsChart(
  lines: readonly SweepLine[],
  size: { width: number; height: number },
  maxLengthM: number | null,
): SavingsChartModel {
  const lengths = lines.flatMap((line) => line.points.map((point) => point.lengthM));
  const savings = lines.flatMap((line) =>
    line.points.flatMap((point) => (point.savings === null ? [] : [point.savings])),
  );
  const longest = Math.max(d3.max(lengths) ?? 1, 1);
  const lengthLabel = (value: number) => (value >= 1000 && value % 1000 === 0 ? `${value / 1000} km` : `${value} m`);
  const area = roomForLastLabel(plotArea(size.width, size.height), lengthLabel(longest));
  const x = d3.scaleLinear().domain([0, longest]).range([area.left, area.right]);
  const y = d3
    .scaleLinear()
    .domain([Math.min(0, d3.min(savings) ?? 0), Math.max(0.01, (d3.max(savings) ?? 0) * 1.1)])
    .range([area.bottom, area.top])
    .nice();
  const xTicks = x.ticks(Math.max(2, Math.floor((area.right - area.left) / 80))).map((value) => ({
    value,
    position: x(value),
    label: lengthLabel(value),
  }));
  const yTicks = y.ticks(5).map((value) => ({ value, position: y(value), label: formatPercent(value, 0) }));
  const draw = d3
    .line<{ lengthM: number; savings: number | null }>()
    .defined((point) => point.savings !== null)
    .x((point) => x(point.lengthM))
    .y((point) => y(point.savings ?? 0));
  return {
    area,
    xTicks,
    yTicks,
    lines: lines.map((line) => ({
      key: line.key,
      label: line.label,
      colour: line.colour,
      dash: line.dash,
      path: draw(line.points) ?? '',
      peak:
        line.peak && line.peak.savings !== null
          ? {
              x: x(line.peak.lengthM),
              y: y(line.peak.savings),
              text: `${line.label}: at most ${formatPercent(line.peak.savings)} saved, at ${line.peak.lengthM} m`,
            }
          : null,
    })),
    marker:
      maxLengthM !== null && maxLengthM <= x.domain()[1]!
        ? { x: x(maxLengthM), label: `this fabric: ${Math.round(maxLengthM)} m` }
        : null,
  };
}

export interface CdfChartModel {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  lines: LineMark[];
  /** The bound every expected fraction keeps (the NRB), as a vertical line. */
  bound: { x: number; label: string } | null;
  /** The bound when it lies so far below the data that drawing it would squeeze the lines. */
  boundOffChart: number | null;
}

export const GOOD_PATH_LINES = {
  mean: { label: 'Mean over its destinations', colour: '#1f6fb4', dash: '' },
  worst: { label: 'Its worst destination', colour: '#c8402f', dash: '6 3' },
} as const;

/** Roughly how wide an axis label is drawn (11 px sans-serif): for keeping the last one inside the svg. */
const LABEL_PX_PER_CHAR = 6.5;

/** The plot area narrowed so that a tick label centred on its right edge is not cut off. */
export function roomForLastLabel(area: PlotArea, label: string): PlotArea {
  const half = Math.ceil((label.length * LABEL_PX_PER_CHAR) / 2) + 2;
  return { ...area, right: Math.max(area.left + 10, Math.min(area.right, area.width - half)) };
}

/** Percent tick labels with just enough decimals that neighbouring ticks read differently. */
export function percentTicks(scale: d3.ScaleLinear<number, number>, count: number): AxisTick[] {
  const values = scale.ticks(count);
  const step = values.length > 1 ? values[1]! - values[0]! : 1;
  const digits = d3.precisionFixed(step * 100);
  return values.map((value) => ({ value, position: scale(value), label: formatPercent(value, digits) }));
}

/**
 * Per-ToR expected good-path fractions as CDFs (share of ToRs at or below a fraction). The x axis
 * fits the data: it starts a tenth of the data's spread below the lowest fraction, and takes in the
 * bound only when the bound is near the data (within twice its spread from 100%); a bound far below
 * would squeeze every line against the right edge, so it is then stated (`boundOffChart`), not drawn.
 */
export function buildGoodPathChart(
  distribution: GoodPathDistribution,
  size: { width: number; height: number },
  bound: number | null,
): CdfChartModel {
  const lowestData = distribution.lowest ?? 1;
  const spread = Math.max(1 - lowestData, 1e-6);
  const boundShown = bound !== null && 1 - bound <= 2 * spread;
  const lowest = boundShown ? Math.min(lowestData, bound) : lowestData;
  const start = Math.max(0, lowest - Math.max((1 - lowest) * 0.1, 1e-7));
  let area = plotArea(size.width, size.height);
  const draft = d3.scaleLinear().domain([start, 1]).range([area.left, area.right]);
  const tickCount = Math.max(2, Math.floor((area.right - area.left) / 90));
  area = roomForLastLabel(area, percentTicks(draft, tickCount).at(-1)?.label ?? '100%');
  const x = d3.scaleLinear().domain([start, 1]).range([area.left, area.right]);
  const y = d3.scaleLinear().domain([0, 1]).range([area.bottom, area.top]);
  const xTicks = percentTicks(x, tickCount);
  const yTicks = y.ticks(5).map((value) => ({ value, position: y(value), label: formatPercent(value, 0) }));
  const stepLine = (points: CdfPoint[]) => {
    if (points.length === 0) return '';
    // The empirical CDF: 0 left of the smallest value, a step up at each value, 100 % to the right edge.
    const steps: [number, number][] = [[x.domain()[0]!, 0]];
    for (const point of points) steps.push([point.fraction, point.share]);
    steps.push([1, 1]);
    return (
      d3
        .line<[number, number]>()
        .curve(d3.curveStepAfter)
        .x(([fraction]) => x(fraction))
        .y(([, share]) => y(share))(steps) ?? ''
    );
  };
  return {
    area,
    xTicks,
    yTicks,
    lines: (['mean', 'worst'] as const).map((key) => ({
      key,
      ...GOOD_PATH_LINES[key],
      path: stepLine(distribution[key]),
      peak: null,
    })),
    bound: boundShown ? { x: x(bound), label: `bound ${formatPercent(bound, 2)}` } : null,
    boundOffChart: bound !== null && !boundShown ? bound : null,
  };
}
