/**
 * Scales and shapes of the per-ToR capacity chart. D3 computes every position;
 * the React component only turns the result into SVG elements.
 */
import { line, scaleBand, scaleLinear } from 'd3';

import { formatCount } from '@/lib/format';
import { labelStride } from '@/lib/labelStride';

import type { TorCapacity } from '../api/types';

export const CAPACITY_COLOURS = {
  ok: '#3b76b8',
  below: '#d9822b',
  constraint: '#b3261e',
} as const;

export interface ChartMargin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface CapacityChartOptions {
  width: number;
  /** Height of the plotting area; the total grows with the room the x labels need. */
  plotHeight: number;
}

export interface CapacityBar {
  tor: TorCapacity;
  x: number;
  width: number;
  y: number;
  height: number;
  colour: string;
}

export interface AxisTick {
  value: number;
  position: number;
  label: string;
}

export interface PodSpan {
  pod: number | null;
  label: string;
  x0: number;
  x1: number;
  /** False where naming every pod would make labels overlap. */
  showLabel: boolean;
}

export interface CapacityChartModel {
  width: number;
  height: number;
  margin: ChartMargin;
  bars: CapacityBar[];
  /** SVG path of the constraint: a step line, flat unless a ToR overrides the fabric constraint. */
  constraintPath: string;
  yTicks: AxisTick[];
  pods: PodSpan[];
  /** Where the constraint line ends at the right edge, for its label. */
  constraintLabel: { y: number; text: string } | null;
  /** Whether bars are wide enough for a ToR name under each. */
  showBarLabels: boolean;
  plotBottom: number;
  plotLeft: number;
  plotRight: number;
}

// The right margin holds the constraint line's label.
const CHART_MARGIN = { top: 16, right: 116, left: 64 };
/** Below the plot: pod labels and the axis title; rotated ToR names need more. */
const BOTTOM_WITHOUT_NAMES = 52;
const BOTTOM_WITH_NAMES = 112;
const MIN_LABELLED_BAR_PX = 14;
/** Even a ToR with no path left keeps a sliver so it can be seen and pointed at. */
const MIN_BAR_HEIGHT_PX = 2;

const naturalCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function isBelowConstraint(tor: Pick<TorCapacity, 'below_constraint'>): boolean {
  return tor.below_constraint;
}

export function barColour(tor: Pick<TorCapacity, 'below_constraint'>): string {
  return isBelowConstraint(tor) ? CAPACITY_COLOURS.below : CAPACITY_COLOURS.ok;
}

/** Bars ordered like the topology: by pod, then by name numerically, then by id. */
export function orderTors(tors: readonly TorCapacity[]): TorCapacity[] {
  return [...tors].sort((a, b) => {
    const podA = a.pod ?? Number.POSITIVE_INFINITY;
    const podB = b.pod ?? Number.POSITIVE_INFINITY;
    if (podA !== podB) return podA < podB ? -1 : 1;
    return naturalCollator.compare(a.name, b.name) || a.switch - b.switch;
  });
}

/** The y scale: fraction of paths available, 0 at the bottom, 1 at the top. */
export function fractionScale(plotTop: number, plotBottom: number) {
  return scaleLinear().domain([0, 1]).range([plotBottom, plotTop]).clamp(true);
}

export function formatFraction(value: number): string {
  return value.toFixed(2);
}

export function buildCapacityChart(tors: readonly TorCapacity[], options: CapacityChartOptions): CapacityChartModel {
  const { width } = options;
  const plotLeft = CHART_MARGIN.left;
  const plotRight = Math.max(plotLeft + 1, width - CHART_MARGIN.right);

  const ordered = orderTors(tors);
  const x = scaleBand<number>()
    .domain(ordered.map((tor) => tor.switch))
    .range([plotLeft, plotRight])
    // Wide bars get gaps; thousands of bars touch so none disappears into padding.
    .paddingInner(ordered.length > 200 ? 0 : 0.2)
    .paddingOuter(ordered.length > 200 ? 0 : 0.1);
  const showBarLabels = x.bandwidth() >= MIN_LABELLED_BAR_PX;

  const margin: ChartMargin = {
    ...CHART_MARGIN,
    bottom: showBarLabels ? BOTTOM_WITH_NAMES : BOTTOM_WITHOUT_NAMES,
  };
  const plotTop = margin.top;
  const plotBottom = plotTop + Math.max(1, options.plotHeight);
  const height = plotBottom + margin.bottom;
  const y = fractionScale(plotTop, plotBottom);

  const bars: CapacityBar[] = ordered.map((tor) => {
    const top = Math.min(y(tor.fraction), plotBottom - MIN_BAR_HEIGHT_PX);
    return {
      tor,
      x: x(tor.switch) ?? plotLeft,
      width: Math.max(x.bandwidth(), 0.5),
      y: top,
      height: plotBottom - top,
      colour: barColour(tor),
    };
  });

  // Step through each bar's own constraint, edge to edge of the plot.
  const step = x.step();
  const points: [number, number][] = [];
  bars.forEach((bar, index) => {
    const start = index === 0 ? plotLeft : bar.x - (step - x.bandwidth()) / 2;
    const end = index === bars.length - 1 ? plotRight : bar.x + bar.width + (step - x.bandwidth()) / 2;
    points.push([start, y(bar.tor.constraint)], [end, y(bar.tor.constraint)]);
  });
  const constraintPath = line()(points) ?? '';
  const lastBar = bars[bars.length - 1];
  const constraintLabel = lastBar
    ? { y: y(lastBar.tor.constraint), text: `constraint ${formatFraction(lastBar.tor.constraint)}` }
    : null;

  const yTicks: AxisTick[] = y.ticks(5).map((value) => ({ value, position: y(value), label: formatFraction(value) }));

  const pods: PodSpan[] = [];
  for (const bar of bars) {
    const last = pods[pods.length - 1];
    if (last && last.pod === bar.tor.pod) {
      last.x1 = bar.x + bar.width;
    } else {
      pods.push({
        pod: bar.tor.pod,
        label: bar.tor.pod === null ? 'no pod' : `pod ${bar.tor.pod}`,
        x0: bar.x,
        x1: bar.x + bar.width,
        showLabel: true,
      });
    }
  }
  const narrowestPod = Math.min(...pods.map((pod) => pod.x1 - pod.x0));
  const longestPodLabel = Math.max(0, ...pods.map((pod) => pod.label.length));
  const podStride = labelStride(narrowestPod, longestPodLabel);
  pods.forEach((pod, index) => {
    pod.showLabel = index % podStride === 0;
  });

  return {
    width,
    height,
    margin,
    bars,
    constraintPath,
    constraintLabel,
    yTicks,
    pods,
    showBarLabels,
    plotBottom,
    plotLeft,
    plotRight,
  };
}

export interface CapacitySummaryNumbers {
  tors: number;
  below_constraint: number;
  min_fraction: number | null;
}

export function capacitySummaryText(summary: CapacitySummaryNumbers, fabricConstraint: number): string {
  const tors = `${formatCount(summary.tors)} ToR${summary.tors === 1 ? '' : 's'}`;
  const below =
    summary.below_constraint === 0
      ? 'none below constraint'
      : `${formatCount(summary.below_constraint)} below constraint`;
  const minimum =
    summary.min_fraction === null ? 'no paths measured' : `minimum fraction ${formatFraction(summary.min_fraction)}`;
  return `${tors}, ${below} (${formatFraction(fabricConstraint)}), ${minimum}`;
}
