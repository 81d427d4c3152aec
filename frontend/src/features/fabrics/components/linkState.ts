import type { TopologyLink } from '../api/types';

/**
 * What a link means to an operator. Admin-disabled wins over oper state: a
 * disabled link is expected to be down, so only enabled links count as "down".
 */
export type LinkState = 'up' | 'disabled' | 'down';

/** Drawing order: healthy links first so problems are painted on top. */
export const LINK_STATES: readonly LinkState[] = ['up', 'disabled', 'down'];

export const LINK_STATE_STYLE: Record<LinkState, { label: string; colour: string; dashed: boolean }> = {
  up: { label: 'Enabled, up', colour: '#3f8f5a', dashed: false },
  disabled: { label: 'Admin-disabled', colour: '#8a8f98', dashed: true },
  down: { label: 'Enabled, down', colour: '#d03b3b', dashed: false },
};

export function linkState(link: Pick<TopologyLink, 'admin_state' | 'oper_state'>): LinkState {
  if (link.admin_state === 'disabled') return 'disabled';
  return link.oper_state === 'down' ? 'down' : 'up';
}

export function countLinkStates(links: readonly TopologyLink[]): Record<LinkState, number> {
  const counts: Record<LinkState, number> = { up: 0, disabled: 0, down: 0 };
  for (const link of links) counts[linkState(link)] += 1;
  return counts;
}

/** Links grouped by state, in drawing order. */
export function linksByState(links: readonly TopologyLink[]): Record<LinkState, TopologyLink[]> {
  const buckets: Record<LinkState, TopologyLink[]> = { up: [], disabled: [], down: [] };
  for (const link of links) buckets[linkState(link)].push(link);
  return buckets;
}

/** Above this many links the SVG DOM gets sluggish, so the drawing switches to canvas. */
export const CANVAS_LINK_THRESHOLD = 3000;

export type TopologyRenderer = 'svg' | 'canvas';

export function chooseRenderer(linkCount: number): TopologyRenderer {
  return linkCount > CANVAS_LINK_THRESHOLD ? 'canvas' : 'svg';
}
