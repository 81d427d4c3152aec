import { formatCount } from '@/lib/format';
import { LINK_HEALTHS } from '@/lib/linkHealth';

import type { FabricTopology, TopologyLink } from '../api/types';
import { countLinkHealth, countLinkStates, LINK_LOOKS, linkState, lookIndex, type LinkState } from './linkState';
import { groupLabel, type PlacedSwitch, type TierLayout } from './tierLayout';

export interface LinkSegment {
  id: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Segments per look, in drawing order: `buckets[i]` holds the links that look like LINK_LOOKS[i]. */
export type LinkBuckets = LinkSegment[][];

/** Link end points in px, bucketed by look (health × state); links to unknown switches are dropped. */
export function linkSegments(layout: TierLayout, links: readonly TopologyLink[]): LinkBuckets {
  const buckets: LinkBuckets = LINK_LOOKS.map(() => []);
  for (const link of links) {
    const a = layout.positions.get(link.a);
    const z = layout.positions.get(link.z);
    if (!a || !z) continue;
    buckets[lookIndex(link)]!.push({ id: link.id, x1: a.x, y1: a.y, x2: z.x, y2: z.y });
  }
  return buckets;
}

/** Links touching each switch, for hover highlighting. */
export function linksBySwitch(links: readonly TopologyLink[]): Map<number, TopologyLink[]> {
  const adjacency = new Map<number, TopologyLink[]>();
  const add = (switchId: number, link: TopologyLink) => {
    const list = adjacency.get(switchId);
    if (list) list.push(link);
    else adjacency.set(switchId, [link]);
  };
  for (const link of links) {
    add(link.a, link);
    add(link.z, link);
  }
  return adjacency;
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "3 corrupting, 1 lossy, 90 clean, 2 unknown": the health words with a count, worst first. */
function healthCounts(links: readonly TopologyLink[]): string {
  const counts = countLinkHealth(links);
  return [...LINK_HEALTHS]
    .reverse()
    .filter((health) => counts[health] > 0)
    .map((health) => `${formatCount(counts[health])} ${health}`)
    .join(', ');
}

/** The accessible name of the drawing: what a sighted user takes in at a glance. */
export function topologySummary(fabricName: string, topology: FabricTopology): string {
  const counts = countLinkStates(topology.links);
  const health = healthCounts(topology.links);
  return (
    `Topology of ${fabricName}: ${plural(topology.tiers.length, 'tier')} ` +
    `(${topology.tiers.join(', ')}), ${plural(topology.switches.length, 'switch', 'switches')}, ` +
    `${plural(topology.links.length, 'link')}: ${formatCount(counts.up)} enabled and up, ` +
    `${formatCount(counts.disabled)} admin-disabled, ${formatCount(counts.down)} enabled but down.` +
    (health ? ` Health: ${health}.` : '')
  );
}

/** One line about a switch under the pointer: where it sits and how its links are doing. */
export function describeSwitch(sw: PlacedSwitch, tierName: string, links: readonly TopologyLink[]): string {
  const counts: Record<LinkState, number> = { up: 0, disabled: 0, down: 0 };
  for (const link of links) counts[linkState(link)] += 1;
  const where = [tierName];
  if (sw.pod !== null) where.push(groupLabel({ kind: 'pod', value: sw.pod }));
  if (sw.plane !== null) where.push(groupLabel({ kind: 'plane', value: sw.plane }));
  const states = [`${counts.up} in service`];
  if (counts.disabled) states.push(`${counts.disabled} disabled`);
  if (counts.down) states.push(`${counts.down} down`);
  return `${sw.name} (${where.join(', ')}): ${plural(links.length, 'link')}, ${states.join(', ')}; ${healthCounts(links)}`;
}
