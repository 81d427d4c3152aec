/**
 * The fabric health chart: each ToR's capacity against its constraint (the capacity chart's D3
 * scales, reused), the ToRs that block CorrOpt from disabling a corrupting link outlined, and
 * under each bar two marks: uplinks disabled, uplinks corrupting while in service.
 */
import {
  buildCapacityChart,
  type CapacityBar,
  type CapacityChartModel,
  type CapacityChartOptions,
  type FabricTopology,
  type TorCapacity,
} from '@/features/fabrics';

// Theme variables (styles.css): the light colours fell to 1.9-2.8:1 on the dark theme's navy.
export const HEALTH_COLOURS = {
  blocking: 'var(--chart-blocking)',
  disabled: 'var(--chart-disabled)',
  corrupting: 'var(--chart-corrupting)',
} as const;

export interface TorLinkCounts {
  /** Links of the ToR that are admin-disabled (for corruption or anything else). */
  disabled: number;
  /** Links of the ToR that corrupt and are still enabled: kept for capacity or not yet decided. */
  corrupting: number;
}

/** Per ToR (tier 0) switch id: how many of its links are disabled, and corrupting in service. */
export function torLinkCounts(topology: Pick<FabricTopology, 'switches' | 'links'>): Map<number, TorLinkCounts> {
  const tors = new Set(topology.switches.filter((sw) => sw.tier === 0).map((sw) => sw.id));
  const counts = new Map<number, TorLinkCounts>();
  for (const link of topology.links) {
    // A is the lower tier: a ToR is always the A end of its uplinks.
    if (!tors.has(link.a)) continue;
    const disabled = link.admin_state === 'disabled';
    const corrupting = !disabled && link.health === 'corrupting';
    if (!disabled && !corrupting) continue;
    const entry = counts.get(link.a) ?? { disabled: 0, corrupting: 0 };
    if (disabled) entry.disabled += 1;
    if (corrupting) entry.corrupting += 1;
    counts.set(link.a, entry);
  }
  return counts;
}

export interface HealthBar extends CapacityBar {
  blocking: boolean;
  counts: TorLinkCounts;
}

export interface HealthChartModel extends Omit<CapacityChartModel, 'bars'> {
  bars: HealthBar[];
  /** Rows of marks under the plot, one per kind, each at its own y. */
  markRows: { key: keyof TorLinkCounts; label: string; y: number; height: number; colour: string }[];
}

/** Room taken below the capacity chart by the two mark rows. */
const MARK_ROW_HEIGHT = 8;
const MARK_ROW_GAP = 4;

export function buildHealthChart(
  tors: readonly TorCapacity[],
  options: CapacityChartOptions & { blocking: ReadonlySet<number>; counts: ReadonlyMap<number, TorLinkCounts> },
): HealthChartModel {
  const base = buildCapacityChart(tors, options);
  // The marks sit right under the plot; everything the capacity chart drew below it moves down.
  const shift = 2 * (MARK_ROW_HEIGHT + MARK_ROW_GAP) + MARK_ROW_GAP;
  const bars: HealthBar[] = base.bars.map((bar) => ({
    ...bar,
    blocking: options.blocking.has(bar.tor.switch),
    counts: options.counts.get(bar.tor.switch) ?? { disabled: 0, corrupting: 0 },
  }));
  const firstRowY = base.plotBottom + MARK_ROW_GAP;
  return {
    ...base,
    bars,
    height: base.height + shift,
    margin: { ...base.margin, bottom: base.margin.bottom + shift },
    markRows: [
      {
        key: 'disabled',
        label: 'disabled',
        y: firstRowY,
        height: MARK_ROW_HEIGHT,
        colour: HEALTH_COLOURS.disabled,
      },
      {
        key: 'corrupting',
        label: 'corrupting',
        y: firstRowY + MARK_ROW_HEIGHT + MARK_ROW_GAP,
        height: MARK_ROW_HEIGHT,
        colour: HEALTH_COLOURS.corrupting,
      },
    ],
  };
}

/** Offset that moves the capacity chart's x-axis furniture (labels, pods, title) below the marks. */
export function belowMarksShift(model: HealthChartModel): number {
  const last = model.markRows[model.markRows.length - 1];
  return last ? last.y + last.height - model.plotBottom : 0;
}
