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

/** Index of each health word in LINK_HEALTHS; a Map, so that no other word can match. */
const HEALTH_INDEX = new Map<string, number>(LINK_HEALTHS.map((health, index) => [health, index]));

/**
 * Position of a link's look in LINK_LOOKS. Called once per link of a 100K-link fabric, so it
 * builds no object and inlines linkState and linkHealth (an unknown word counts as "unknown").
 */
export function lookIndex(link: Pick<TopologyLink, 'admin_state' | 'oper_state' | 'health'>): number {
  const state = link.admin_state === 'disabled' ? 1 : link.oper_state === 'down' ? 2 : 0;
  return (HEALTH_INDEX.get(link.health) ?? 0) * LINK_STATES.length + state;
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
  const tally = LINK_HEALTHS.map(() => 0);
  for (const link of links) tally[HEALTH_INDEX.get(link.health) ?? 0]! += 1;
  return { unknown: tally[0]!, clean: tally[1]!, lossy: tally[2]!, corrupting: tally[3]! };
}

/** Above this many links the SVG DOM gets sluggish, so the drawing switches to canvas. */
export const CANVAS_LINK_THRESHOLD = 3000;

export type TopologyRenderer = 'svg' | 'canvas';

export function chooseRenderer(linkCount: number): TopologyRenderer {
  return linkCount > CANVAS_LINK_THRESHOLD ? 'canvas' : 'svg';
}
