/**
 * Deterministic tiered layout of a Clos fabric.
 *
 * Tiers are rows with the top tier (spines) at the top. Within a row switches are
 * grouped: by pod where they have one, else by plane (spines), else ungrouped.
 * Rows made only of pods share one set of pod columns, so pod 3's ToRs sit under
 * pod 3's fabric switches and intra-pod links stay short and readable. A force
 * layout would move on every load and tangle a Clos; this layout depends only on
 * the switches given, never on their order.
 */
import { scaleLinear } from 'd3';

import type { TopologySwitch } from '../api/types';

export type GroupKind = 'pod' | 'plane' | 'none';

export interface LayoutMargin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface TierLayoutOptions {
  /** Total drawing width in px. */
  width: number;
  /** Vertical distance between tier rows in px. */
  rowSpacing?: number;
  margin?: Partial<LayoutMargin>;
  /** Gap between neighbouring groups, as a share of the widest column. */
  groupGapRatio?: number;
}

export interface PlacedSwitch {
  id: number;
  name: string;
  tier: number;
  pod: number | null;
  plane: number | null;
  x: number;
  y: number;
  groupKey: string;
}

export interface LayoutGroup {
  key: string;
  kind: GroupKind;
  value: number | null;
  label: string;
  /** Horizontal extent of the group's column in px. */
  x0: number;
  x1: number;
  switchCount: number;
}

export interface LayoutRow {
  tier: number;
  name: string;
  y: number;
  switchCount: number;
  groups: LayoutGroup[];
  /** Radius that keeps neighbouring nodes of this row from overlapping. */
  nodeRadius: number;
}

export interface TierLayout {
  width: number;
  height: number;
  margin: LayoutMargin;
  /** Top tier first. */
  rows: LayoutRow[];
  positions: Map<number, PlacedSwitch>;
}

export const DEFAULT_MARGIN: LayoutMargin = { top: 36, right: 16, bottom: 36, left: 96 };
const DEFAULT_ROW_SPACING = 140;
const DEFAULT_GROUP_GAP_RATIO = 0.2;
const MAX_NODE_RADIUS = 6;
const MIN_NODE_RADIUS = 0.75;

// Numeric-aware so "p0-tor2" sorts before "p0-tor10"; fixed locale keeps it deterministic.
const naturalCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

const KIND_ORDER: Record<GroupKind, number> = { pod: 0, plane: 1, none: 2 };

interface GroupIdentity {
  key: string;
  kind: GroupKind;
  value: number | null;
}

export function groupOf(sw: Pick<TopologySwitch, 'pod' | 'plane'>): GroupIdentity {
  if (sw.pod !== null && sw.pod !== undefined) return { key: `pod:${sw.pod}`, kind: 'pod', value: sw.pod };
  if (sw.plane !== null && sw.plane !== undefined) {
    return { key: `plane:${sw.plane}`, kind: 'plane', value: sw.plane };
  }
  return { key: 'none', kind: 'none', value: null };
}

export function groupLabel(group: Pick<GroupIdentity, 'kind' | 'value'>): string {
  if (group.kind === 'pod') return `pod ${group.value}`;
  if (group.kind === 'plane') return `plane ${group.value}`;
  return 'ungrouped';
}

function compareGroups(a: GroupIdentity, b: GroupIdentity): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.value ?? 0) - (b.value ?? 0);
}

/** Order inside a group: by plane (aligns fabric switches with their spine plane), then name, then id. */
export function compareSwitches(a: TopologySwitch, b: TopologySwitch): number {
  const planeA = a.plane ?? Number.POSITIVE_INFINITY;
  const planeB = b.plane ?? Number.POSITIVE_INFINITY;
  if (planeA !== planeB) return planeA < planeB ? -1 : 1;
  return naturalCollator.compare(a.name, b.name) || a.id - b.id;
}

interface RowGroups {
  tier: number;
  groups: { identity: GroupIdentity; switches: TopologySwitch[] }[];
}

function groupRow(tier: number, switches: TopologySwitch[]): RowGroups {
  const byKey = new Map<string, { identity: GroupIdentity; switches: TopologySwitch[] }>();
  for (const sw of switches) {
    const identity = groupOf(sw);
    const entry = byKey.get(identity.key);
    if (entry) entry.switches.push(sw);
    else byKey.set(identity.key, { identity, switches: [sw] });
  }
  const groups = [...byKey.values()].sort((a, b) => compareGroups(a.identity, b.identity));
  for (const group of groups) group.switches.sort(compareSwitches);
  return { tier, groups };
}

interface Column {
  identity: GroupIdentity;
  /** Width in node slots. */
  weight: number;
}

/** Place columns left to right in slot units: [start, end] per column plus the total. */
function placeColumns(columns: Column[], gapSlots: number) {
  let cursor = 0;
  const spans = columns.map((column, index) => {
    if (index > 0) cursor += gapSlots;
    const span = { start: cursor, end: cursor + column.weight };
    cursor = span.end;
    return span;
  });
  return { spans, total: Math.max(cursor, 1) };
}

export function computeTierLayout(
  tierNames: readonly string[],
  switches: readonly TopologySwitch[],
  options: TierLayoutOptions,
): TierLayout {
  const margin: LayoutMargin = { ...DEFAULT_MARGIN, ...options.margin };
  const rowSpacing = options.rowSpacing ?? DEFAULT_ROW_SPACING;
  const gapRatio = options.groupGapRatio ?? DEFAULT_GROUP_GAP_RATIO;
  const width = Math.max(options.width, margin.left + margin.right + 1);

  const maxTier = switches.reduce((max, sw) => Math.max(max, sw.tier), tierNames.length - 1);
  const tierCount = Math.max(maxTier + 1, 1);
  const height = margin.top + margin.bottom + rowSpacing * (tierCount - 1);

  const switchesByTier: TopologySwitch[][] = Array.from({ length: tierCount }, () => []);
  for (const sw of switches) {
    if (sw.tier >= 0) switchesByTier[sw.tier]?.push(sw);
  }
  const rowGroups = switchesByTier.map((tierSwitches, tier) => groupRow(tier, tierSwitches));

  // Pod columns shared by every row that is made only of pods.
  const isPodRow = (row: RowGroups) =>
    row.groups.length > 0 && row.groups.every((group) => group.identity.kind === 'pod');
  const sharedPodWeights = new Map<string, Column>();
  for (const row of rowGroups.filter(isPodRow)) {
    for (const group of row.groups) {
      const existing = sharedPodWeights.get(group.identity.key);
      const weight = Math.max(existing?.weight ?? 0, group.switches.length);
      sharedPodWeights.set(group.identity.key, { identity: group.identity, weight });
    }
  }
  const sharedPodColumns = [...sharedPodWeights.values()].sort((a, b) => compareGroups(a.identity, b.identity));

  // Top tier at the top of the drawing.
  const yScale = scaleLinear()
    .domain([tierCount - 1, 0])
    .range([margin.top, margin.top + rowSpacing * (tierCount - 1)]);

  const positions = new Map<number, PlacedSwitch>();
  const rows: LayoutRow[] = [];

  for (const row of [...rowGroups].reverse()) {
    const y = yScale(row.tier);
    const columns: Column[] = isPodRow(row)
      ? sharedPodColumns
      : row.groups.map((group) => ({ identity: group.identity, weight: group.switches.length }));
    const widestColumn = columns.reduce((max, column) => Math.max(max, column.weight), 0);
    const gapSlots = columns.length > 1 ? Math.max(1, widestColumn * gapRatio) : 0;
    const { spans, total } = placeColumns(columns, gapSlots);
    const xScale = scaleLinear()
      .domain([0, total])
      .range([margin.left, width - margin.right]);
    const slotPx = xScale(1) - xScale(0);

    const membersByKey = new Map(row.groups.map((group) => [group.identity.key, group.switches]));
    const groups: LayoutGroup[] = [];
    let minSpacingPx = Number.POSITIVE_INFINITY;

    columns.forEach((column, index) => {
      const members = membersByKey.get(column.identity.key) ?? [];
      if (members.length === 0) return;
      const span = spans[index]!;
      // Spread a group's switches evenly over its column (fewer fabric switches than ToRs in a pod).
      const step = column.weight / members.length;
      minSpacingPx = Math.min(minSpacingPx, step * slotPx);
      members.forEach((sw, position) => {
        positions.set(sw.id, {
          id: sw.id,
          name: sw.name,
          tier: sw.tier,
          pod: sw.pod,
          plane: sw.plane,
          x: xScale(span.start + (position + 0.5) * step),
          y,
          groupKey: column.identity.key,
        });
      });
      groups.push({
        key: column.identity.key,
        kind: column.identity.kind,
        value: column.identity.value,
        label: groupLabel(column.identity),
        x0: xScale(span.start),
        x1: xScale(span.end),
        switchCount: members.length,
      });
    });

    const nodeRadius = Number.isFinite(minSpacingPx)
      ? Math.min(MAX_NODE_RADIUS, Math.max(MIN_NODE_RADIUS, minSpacingPx * 0.35))
      : MAX_NODE_RADIUS;
    rows.push({
      tier: row.tier,
      name: tierNames[row.tier] ?? `tier ${row.tier}`,
      y,
      switchCount: switchesByTier[row.tier]?.length ?? 0,
      groups,
      nodeRadius,
    });
  }

  return { width, height, margin, rows, positions };
}
