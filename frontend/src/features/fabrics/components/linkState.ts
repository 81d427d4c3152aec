import { isLinkHealth, LINK_HEALTH_STYLE, LINK_HEALTHS, type LinkHealth } from '@/lib/linkHealth';

import type { TopologyLink } from '../api/types';

/**
 * What a link means to an operator. Admin-disabled wins over oper state: a
 * disabled link is expected to be down, so only enabled links count as "down".
 */
export type LinkState = 'up' | 'disabled' | 'down';

export const LINK_STATES: readonly LinkState[] = ['up', 'disabled', 'down'];

/**
 * The drawing shows two things per link: colour is its health (from telemetry), the line's
 * pattern is its state. Dashes are in px for SVG's stroke-dasharray and the canvas alike.
 */
export const LINK_STATE_STYLE: Record<LinkState, { label: string; dash: readonly number[]; widthFactor: number }> = {
  up: { label: 'Enabled, up', dash: [], widthFactor: 1 },
  disabled: { label: 'Admin-disabled', dash: [5, 4], widthFactor: 1 },
  // A link that should carry traffic and does not is a fault whatever its colour: thicker dots.
  down: { label: 'Enabled, down', dash: [2, 3], widthFactor: 1.6 },
};

export function dashArray(state: LinkState): string | undefined {
  const { dash } = LINK_STATE_STYLE[state];
  return dash.length > 0 ? dash.join(' ') : undefined;
}

export function linkState(link: Pick<TopologyLink, 'admin_state' | 'oper_state'>): LinkState {
  if (link.admin_state === 'disabled') return 'disabled';
  return link.oper_state === 'down' ? 'down' : 'up';
}

/** A payload without health (an older server) draws as unknown rather than failing. */
export function linkHealth(link: Pick<TopologyLink, 'health'>): LinkHealth {
  return isLinkHealth(link.health) ? link.health : 'unknown';
}

/** One way a link can look: a colour (health) and a line pattern (state). */
export interface LinkLook {
  health: LinkHealth;
  state: LinkState;
}

/**
 * Drawing order: least severe health first, so corrupting links are painted on top; within
 * a health, up before disabled before down.
 */
export const LINK_LOOKS: readonly LinkLook[] = LINK_HEALTHS.flatMap((health) =>
  LINK_STATES.map((state) => ({ health, state })),
);

const HEALTH_INDEX: Record<LinkHealth, number> = { unknown: 0, clean: 1, lossy: 2, corrupting: 3 };
const STATE_INDEX: Record<LinkState, number> = { up: 0, disabled: 1, down: 2 };

/** Position of a link's look in LINK_LOOKS, without building an object per link. */
export function lookIndex(link: Pick<TopologyLink, 'admin_state' | 'oper_state' | 'health'>): number {
  return HEALTH_INDEX[linkHealth(link)] * LINK_STATES.length + STATE_INDEX[linkState(link)];
}

/**
 * Links nobody needs to look at (enabled, up, clean or not yet measured) recede into a
 * texture when there are many; every other look stays opaque and thicker.
 */
export function isQuietLook(look: LinkLook): boolean {
  return look.state === 'up' && (look.health === 'clean' || look.health === 'unknown');
}

/** Stroke width of a look: thin for quiet links, thicker for the rest, thickest for down links. */
export function lookWidth(look: LinkLook, renderer: TopologyRenderer): number {
  const base = renderer === 'canvas' ? (isQuietLook(look) ? 0.5 : 1.25) : isQuietLook(look) ? 1 : 1.75;
  return base * LINK_STATE_STYLE[look.state].widthFactor;
}

export function lookColour(look: LinkLook): string {
  return LINK_HEALTH_STYLE[look.health].colour;
}

export function countLinkStates(links: readonly TopologyLink[]): Record<LinkState, number> {
  const counts: Record<LinkState, number> = { up: 0, disabled: 0, down: 0 };
  for (const link of links) counts[linkState(link)] += 1;
  return counts;
}

export function countLinkHealth(links: readonly Pick<TopologyLink, 'health'>[]): Record<LinkHealth, number> {
  const counts: Record<LinkHealth, number> = { unknown: 0, clean: 0, lossy: 0, corrupting: 0 };
  for (const link of links) counts[linkHealth(link)] += 1;
  return counts;
}

/** Above this many links the SVG DOM gets sluggish, so the drawing switches to canvas. */
export const CANVAS_LINK_THRESHOLD = 3000;

export type TopologyRenderer = 'svg' | 'canvas';

export function chooseRenderer(linkCount: number): TopologyRenderer {
  return linkCount > CANVAS_LINK_THRESHOLD ? 'canvas' : 'svg';
}
