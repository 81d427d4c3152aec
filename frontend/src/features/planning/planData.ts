/** Data shaping for the RAIL planner pages: cost stacks, savings curves, link filters, comparisons. */
import { formatCount } from '@/lib/format';

import type { CostBreakdown, CostCategory, CostLine, PairFractions, PlanResult, Sweep } from './api/types';

/** The seed's Table 4.1 rows, in its order. */
export const CATEGORY_ORDER: readonly CostCategory[] = ['transceivers', 'fiber', 'switch_ports', 'power'];

/** Shades per category: transceivers blue, fiber green, ports purple, power orange. */
const CATEGORY_COLOURS: Record<CostCategory, readonly string[]> = {
  transceivers: ['#1f5f9e', '#5b9bd5', '#0b3c6b', '#9cc3e6', '#2f7fc1', '#c6dbef', '#174a7c'],
  fiber: ['#2a8c47', '#8fd19e', '#176130'],
  switch_ports: ['#7b5ea7'],
  power: ['#d9822b'],
};

export function lineLabel(line: Pick<CostLine, 'category' | 'item'>): string {
  switch (line.category) {
    case 'transceivers':
      return `${line.item} transceivers`;
    case 'fiber':
      return `${line.item} fiber`;
    case 'switch_ports':
      return 'Switch ports';
    case 'power':
      return 'Switch power';
  }
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "19,660 parts", "1,475 km", "32,768 ports", "5.05 GWh". */
export function quantityText(line: Pick<CostLine, 'unit' | 'quantity'>): string {
  switch (line.unit) {
    case 'part':
      return `${INTEGER.format(line.quantity)} parts`;
    case 'm':
      return line.quantity >= 10_000
        ? `${INTEGER.format(line.quantity / 1000)} km`
        : `${INTEGER.format(line.quantity)} m`;
    case 'port':
      return `${INTEGER.format(line.quantity)} ports`;
    case 'kWh':
      return line.quantity >= 1e6
        ? `${(line.quantity / 1e6).toPrecision(3)} GWh`
        : line.quantity >= 1e3
          ? `${(line.quantity / 1e3).toPrecision(3)} MWh`
          : `${INTEGER.format(line.quantity)} kWh`;
  }
}

/** "$8,573,468" for totals in tables. */
export function formatUsd(value: number): string {
  return `$${INTEGER.format(value)}`;
}

/** "$8.57M", "$19.6K", "$820": compact, for axes and bar labels. */
export function formatUsdShort(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return `$${trim((value / 1e6).toFixed(2))}M`;
  if (magnitude >= 1e3) return `$${trim((value / 1e3).toFixed(1))}K`;
  return `$${trim(value.toFixed(0))}`;
}

function trim(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export function formatPercent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)}%`;
}

/** A key per Table 4.1 row: "transceivers:10GBASE-SR", "fiber:MMF", "switch_ports:ports". */
export function lineKey(line: Pick<CostLine, 'category' | 'item'>): string {
  return `${line.category}:${line.item}`;
}

export interface StackSegment {
  key: string;
  label: string;
  colour: string;
  usd: number;
  /** Cumulative USD below and above this segment. */
  y0: number;
  y1: number;
  quantity: string;
  unitText: string;
}

export interface StackedBar {
  key: string;
  /** Bars with the same group sit side by side (two plans compared). */
  group: string;
  label: string;
  total: number;
  segments: StackSegment[];
}

export interface CostSeries {
  key: string;
  label: string;
  colour: string;
}

export interface BarInput {
  key: string;
  group: string;
  label: string;
  breakdown: CostBreakdown;
}

function unitText(line: CostLine): string {
  const price = line.unit_usd < 10 ? `$${trim(line.unit_usd.toFixed(2))}` : `$${trim(line.unit_usd.toFixed(1))}`;
  return `${price}/${line.unit === 'part' ? 'part' : line.unit}`;
}

/**
 * Stacks each breakdown's lines in Table 4.1 order (transceivers by technology, fiber, ports,
 * power), one series per row found in any breakdown, coloured by category. Rows that cost
 * nothing in every bar (SMF when every link is stretched onto MMF) get no series; a row that
 * costs nothing in one bar gets no segment there.
 */
export function stackBreakdowns(inputs: readonly BarInput[]): { bars: StackedBar[]; series: CostSeries[] } {
  const order = new Map<string, { category: CostCategory; item: string; first: number }>();
  let seen = 0;
  for (const input of inputs) {
    for (const line of input.breakdown.lines) {
      const key = lineKey(line);
      if (line.total_usd > 0 && !order.has(key))
        order.set(key, { category: line.category, item: line.item, first: seen++ });
    }
  }
  const keys = [...order.entries()].sort(
    ([, a], [, b]) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category) || a.first - b.first,
  );
  const shadeUsed: Record<CostCategory, number> = { transceivers: 0, fiber: 0, switch_ports: 0, power: 0 };
  const series: CostSeries[] = keys.map(([key, { category, item }]) => {
    const shades = CATEGORY_COLOURS[category];
    const colour = shades[shadeUsed[category]++ % shades.length]!;
    return { key, label: lineLabel({ category, item }), colour };
  });
  const bars = inputs.map((input) => {
    const byKey = new Map(input.breakdown.lines.map((line) => [lineKey(line), line]));
    let y = 0;
    const segments: StackSegment[] = [];
    for (const entry of series) {
      const line = byKey.get(entry.key);
      if (!line || line.total_usd <= 0) continue;
      segments.push({
        key: entry.key,
        label: entry.label,
        colour: entry.colour,
        usd: line.total_usd,
        y0: y,
        y1: y + line.total_usd,
        quantity: quantityText(line),
        unitText: unitText(line),
      });
      y += line.total_usd;
    }
    return { key: input.key, group: input.group, label: input.label, total: input.breakdown.total_usd, segments };
  });
  return { bars, series };
}

/** What the seed calls the NRB levels it sweeps: 99 % is low stretch, 95 % high stretch. */
export function stretchLabel(nrb: number | null): string {
  if (nrb === null) return 'No stretch';
  const level = nrb === 0.99 ? 'low stretch, ' : nrb === 0.95 ? 'high stretch, ' : '';
  return `Stretch (${level}NRB ${formatNrb(nrb)})`;
}

export function formatNrb(nrb: number): string {
  return `${trim((nrb * 100).toFixed(2))}%`;
}

export interface SweepPoint {
  lengthM: number;
  /** null where no part of the catalog reaches (the curve has a gap). */
  savings: number | null;
}

export interface SweepLine {
  key: string;
  nrb: number | null;
  label: string;
  colour: string;
  dash: string;
  points: SweepPoint[];
  peak: SweepPoint | null;
}

const SWEEP_COLOURS = ['#6b7785', '#1f6fb4', '#c8402f', '#2a9d4b', '#7b5ea7'];
const SWEEP_DASHES = ['6 4', '', '', '', ''];

/**
 * One savings curve per sweep (the seed's Figure 4.13): no stretch first, then from the highest
 * NRB (least stretch) down, each with the length where it saves most.
 */
export function sweepLines(sweeps: readonly Sweep[]): SweepLine[] {
  const ordered = [...sweeps].sort((a, b) => (a.nrb === null ? -1 : b.nrb === null ? 1 : b.nrb - a.nrb));
  return ordered.map((sweep, index) => {
    const points = sweep.points
      .map(([lengthM, savings]) => ({ lengthM, savings }))
      .sort((a, b) => a.lengthM - b.lengthM);
    let peak: SweepPoint | null = null;
    for (const point of points) {
      if (point.savings !== null && point.savings > 0 && (peak === null || point.savings > (peak.savings ?? 0)))
        peak = point;
    }
    return {
      key: sweep.nrb === null ? 'none' : `nrb-${sweep.nrb}`,
      nrb: sweep.nrb,
      label: stretchLabel(sweep.nrb),
      colour: SWEEP_COLOURS[index % SWEEP_COLOURS.length]!,
      dash: sweep.nrb === null ? SWEEP_DASHES[0]! : '',
      points,
      peak,
    };
  });
}

export interface CdfPoint {
  fraction: number;
  /** Share of ToRs whose value is at most `fraction`. */
  share: number;
}

export interface GoodPathDistribution {
  mean: CdfPoint[];
  worst: CdfPoint[];
  lowest: number | null;
  tors: number;
}

/**
 * The per-ToR expected good-path fractions as two CDFs: the mean over a ToR's destinations and
 * its worst destination. ToRs without any reachable destination (null) are left out.
 */
export function goodPathDistribution(goodPaths: PairFractions): GoodPathDistribution {
  const cdf = (values: number[]): CdfPoint[] => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.map((fraction, i) => ({ fraction, share: (i + 1) / sorted.length }));
  };
  const means = goodPaths.per_tor.flatMap((tor) => (tor.mean === null ? [] : [tor.mean]));
  const mins = goodPaths.per_tor.flatMap((tor) => (tor.min === null ? [] : [tor.min]));
  return {
    mean: cdf(means),
    worst: cdf(mins),
    lowest: mins.length > 0 ? Math.min(...mins) : null,
    tors: goodPaths.per_tor.length,
  };
}

export interface ComparisonRow {
  key: string;
  label: string;
  /** USD per column, in the order of the columns given; 0 where a plan has no such row. */
  values: number[];
  /** "19,660 parts at $82.3/part" per column; null where a plan has no such row. */
  quantities: (string | null)[];
}

/**
 * Table 4.1 rows of several breakdowns side by side (the union of their rows, in the stack's
 * order), then the totals.
 */
export function compareBreakdowns(columns: readonly BarInput[]): { rows: ComparisonRow[]; totals: number[] } {
  const { series } = stackBreakdowns(columns);
  const rows = series.map((entry) => {
    const lines = columns.map((column) => column.breakdown.lines.find((line) => lineKey(line) === entry.key));
    return {
      key: entry.key,
      label: entry.label,
      values: lines.map((line) => line?.total_usd ?? 0),
      quantities: lines.map((line) => (line ? `${quantityText(line)} at ${unitText(line)}` : null)),
    };
  });
  return { rows, totals: columns.map((column) => column.breakdown.total_usd) };
}

/** "low stretch", or "Plan #12" when the plan has no name. */
export function planLabel(jobId: number, inputs: { name: string } | undefined): string {
  return inputs?.name?.trim() ? inputs.name.trim() : `Plan #${jobId}`;
}

/** Downloads of a succeeded `rail.plan` job (GET /api/jobs/{id}/result/, contract 2a). */
export function planDownloads(jobId: number, perLink: boolean): { label: string; href: string }[] {
  const base = `/api/jobs/${jobId}/result/`;
  return [
    { label: 'Result (JSON)', href: `${base}?format=json` },
    { label: 'Costs (CSV)', href: `${base}?format=csv&table=costs` },
    perLink
      ? { label: 'Links (CSV)', href: `${base}?format=csv&table=links` }
      : { label: 'Length bands (CSV)', href: `${base}?format=csv&table=bands` },
    { label: 'Savings curves (CSV)', href: `${base}?format=csv&table=sweeps` },
  ];
}

/** Downloads of a succeeded `rail.classes` job (contract 2b). */
export function classesDownloads(jobId: number): { label: string; href: string }[] {
  const base = `/api/jobs/${jobId}/result/`;
  return [
    { label: 'Result (JSON)', href: `${base}?format=json` },
    { label: 'Class links (CSV)', href: `${base}?format=csv&table=class_links` },
    { label: 'Links to repair (CSV)', href: `${base}?format=csv&table=repair` },
    { label: 'Summary (CSV)', href: `${base}?format=csv&table=summary` },
  ];
}

/**
 * What a plan planned, named once: "demo-fb (192 stored links)" or the generator's description. A
 * stored fabric's description starts with its name, so name and description together read it twice.
 */
export function fabricLabel(inputs: PlanWithoutRows['inputs']): string {
  return inputs.fabric ? `${inputs.fabric.name} (${formatCount(inputs.links)} stored links)` : inputs.description;
}

/** A plan's result with or without its per-link rows (the plan page loads it without). */
export type PlanWithoutRows = Omit<PlanResult, 'links'>;

/** The headline facts of two plans, as text per plan (the comparison's first table). */
export function comparisonFacts(
  left: PlanWithoutRows,
  right: PlanWithoutRows,
): { label: string; values: [string, string] }[] {
  const facts = (result: PlanWithoutRows) => ({
    fabric: fabricLabel(result.inputs),
    stretch: stretchLabel(result.nrb),
    saved: formatPercent(result.savings),
    baseline: formatUsd(result.baseline.total_usd),
    plan: formatUsd(result.plan.total_usd),
    stretched: `${trim(result.stretched_links.toFixed(1))} of ${formatCount(result.inputs.links)}`,
    share: formatPercent(result.plan.transceiver_share),
    worst: result.good_paths?.worst_pair
      ? `${formatPercent(result.good_paths.worst_pair.fraction, 2)} (${result.good_paths.worst_pair.src_name} → ${result.good_paths.worst_pair.dst_name})`
      : '—',
  });
  const a = facts(left);
  const b = facts(right);
  const rows: [string, keyof typeof a][] = [
    ['Fabric', 'fabric'],
    ['Stretch', 'stretch'],
    ['Saved', 'saved'],
    ['Baseline total', 'baseline'],
    ['Plan total', 'plan'],
    ['Stretched links', 'stretched'],
    ['Transceivers’ share of the plan', 'share'],
    ['Worst ToR pair’s expected good paths', 'worst'],
  ];
  return rows.map(([label, key]) => ({ label, values: [a[key], b[key]] }));
}

/** Baseline and plan bars of one plan (grouped under `group` when compared with another). */
export function planBars(result: PlanWithoutRows, group = ''): BarInput[] {
  return [
    { key: 'baseline', group, label: 'Baseline (rated reach)', breakdown: result.baseline },
    {
      key: 'plan',
      group,
      label: result.nrb === null ? 'Plan (no stretch)' : `Plan (NRB ${formatNrb(result.nrb)})`,
      breakdown: result.plan,
    },
  ];
}
