/** How work orders read: states, actions, where the visit is, what to bring, what it takes down. */
import { formatTime } from '@/lib/format';

import type {
  FootprintLink,
  LinkFacts,
  SwitchFacts,
  Transceiver,
  WorkOrderDetail,
  WorkOrderLocation,
  WorkOrderQuery,
  UnreachableTor,
  WorkOrderState,
} from './api/types';

export const WORK_ORDER_STATES: readonly WorkOrderState[] = ['open', 'in_progress', 'done', 'cancelled'];

export const STATE_LABELS: Record<WorkOrderState, string> = {
  open: 'open',
  in_progress: 'in progress',
  done: 'done',
  cancelled: 'cancelled',
};

/** The list opens on the visits still to do or under way. */
export const CURRENT_STATES: readonly WorkOrderState[] = ['open', 'in_progress'];

export interface WorkOrderFilters {
  fabric?: number;
  /** Empty: every state. */
  states: WorkOrderState[];
}

function isState(value: string): value is WorkOrderState {
  return (WORK_ORDER_STATES as readonly string[]).includes(value);
}

/** ?fabric=1&state=open&state=in_progress; no state parameter means the current ones, state=all every state. */
export function filtersFromSearchParams(params: URLSearchParams): WorkOrderFilters {
  const fabric = Number(params.get('fabric'));
  const raw = params.getAll('state');
  const states = raw.includes('all') ? [] : raw.length === 0 ? [...CURRENT_STATES] : raw.filter(isState);
  return { fabric: Number.isInteger(fabric) && fabric > 0 ? fabric : undefined, states };
}

export function searchParamsFromFilters(filters: WorkOrderFilters, page?: number): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.fabric !== undefined) params.set('fabric', String(filters.fabric));
  if (filters.states.length === 0) params.append('state', 'all');
  else for (const state of filters.states) params.append('state', state);
  if (page !== undefined && page > 1) params.set('page', String(page));
  return params;
}

export function workOrderQuery(filters: WorkOrderFilters): WorkOrderQuery {
  return {
    ...(filters.fabric === undefined ? {} : { fabric: filters.fabric }),
    ...(filters.states.length === 0 ? {} : { state: filters.states }),
  };
}

/** "15 min", "4 h", "1.5 h" */
export function formatDuration(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const hours = seconds / 3600;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(1)} h`;
}

export type Side = 'a' | 'z';

export interface LinkEnd {
  side: Side;
  switch: string;
  port: string;
  rack: string;
  tier: number | null;
  transceiver: Transceiver | undefined;
}

function endsOf(link: LinkFacts, switches: ReadonlyMap<string, SwitchFacts>, transceivers: readonly Transceiver[]) {
  const end = (side: Side): LinkEnd => {
    const name = side === 'a' ? link.a_switch_name : link.z_switch_name;
    const found = switches.get(name);
    return {
      side,
      switch: name,
      port: side === 'a' ? link.a_port : link.z_port,
      rack: found?.rack ?? '',
      tier: found?.tier ?? null,
      transceiver: transceivers.find((item) => item.link === link.id && item.side === side),
    };
  };
  return [end('a'), end('z')] as const;
}

/**
 * The end the technician works at (`near`, its transceiver "here") and the other. `here` is the order's
 * location switch (the server knows which end of the component is repaired: a far-end transceiver's is
 * the far switch); a link not on it, or no location, is read from its ToR end (A between fabric tiers).
 */
export function nearAndFar(
  link: LinkFacts,
  switches: ReadonlyMap<string, SwitchFacts>,
  transceivers: readonly Transceiver[],
  here?: string,
): { near: LinkEnd; far: LinkEnd } {
  const [a, z] = endsOf(link, switches, transceivers);
  if (here !== undefined && (a.switch === here || z.switch === here)) {
    return a.switch === here ? { near: a, far: z } : { near: z, far: a };
  }
  return z.tier === 0 && a.tier !== 0 ? { near: z, far: a } : { near: a, far: z };
}

/** "1 transceiver 100G-SR4", "2 cables 7.8 m MMF": counted things, by what they are. */
function countedThings(kinds: readonly string[], noun: (count: number) => string): string[] {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${noun(count)}${kind ? ` ${kind}` : ''}`);
}

/**
 * What to bring, in a few words, from the footprint's facts: the transceivers at the end the work is at
 * (by model) and the cables (a breakout cable or a shared trunk once, however many of its links are
 * down), by length and fiber. Empty when no fact names a thing.
 */
export function bringSummary(
  links: readonly LinkFacts[],
  switches: ReadonlyMap<string, SwitchFacts>,
  transceivers: readonly Transceiver[],
  here?: string,
): string {
  const nearTransceivers = new Map<number, string>();
  const cables = new Map<string, { breakout: boolean; kind: string }>();
  for (const link of links) {
    const { near } = nearAndFar(link, switches, transceivers, here);
    if (near.transceiver) nearTransceivers.set(near.transceiver.id, near.transceiver.model_name);
    const cable = link.components.cable;
    const key = cable.kind === 'own' ? `link ${link.id}` : `${cable.kind} ${cable.name}`;
    const kind = [link.length_m === null ? '' : `${link.length_m} m`, link.fiber].filter(Boolean).join(' ');
    if (!cables.has(key)) cables.set(key, { breakout: cable.kind === 'breakout', kind });
  }
  const cableList = [...cables.values()];
  return [
    ...countedThings([...nearTransceivers.values()], (count) => (count === 1 ? 'transceiver' : 'transceivers')),
    ...countedThings(
      cableList.filter((cable) => cable.breakout).map((cable) => cable.kind),
      (count) => (count === 1 ? 'breakout cable' : 'breakout cables'),
    ),
    ...countedThings(
      cableList.filter((cable) => !cable.breakout).map((cable) => cable.kind),
      (count) => (count === 1 ? 'cable' : 'cables'),
    ),
  ].join(', ');
}

export interface VisitLocation {
  /** The row, for the order's location only: the server's rule (a far switch read from a link has none). */
  row?: string;
  rack: string;
  switch: string;
  ports: string[];
}

const byPort = (x: string, y: string) => x.localeCompare(y, 'en', { numeric: true });

/**
 * Where to go: the order's location (its switch and rack, with the footprint's ports there) and, for a
 * cable or fiber, the other end(s): each far switch of the footprint's links with its ports (a breakout
 * cable fans out to several), or the server's far end until the links are in.
 */
export function visitLocations(
  location: WorkOrderLocation,
  links: readonly LinkFacts[],
  switches: ReadonlyMap<string, SwitchFacts>,
): { here: VisitLocation; far: VisitLocation[] } {
  const ports: string[] = [];
  const far = new Map<string, VisitLocation>();
  for (const link of links) {
    const { near, far: other } = nearAndFar(link, switches, [], location.switch);
    if (near.switch !== location.switch) continue;
    ports.push(near.port);
    const place = far.get(other.switch) ?? { rack: other.rack, switch: other.switch, ports: [] };
    place.ports.push(other.port);
    far.set(other.switch, place);
  }
  const here = {
    row: location.row,
    rack: location.rack,
    switch: location.switch,
    ports: ports.length ? ports.sort(byPort) : [location.port],
  };
  if (location.far === null) return { here, far: [] };
  if (far.size === 0) {
    return { here, far: [{ rack: location.far.rack, switch: location.far.switch, ports: [location.far.port] }] };
  }
  const places = [...far.values()].map((place) => ({ ...place, ports: place.ports.sort(byPort) }));
  return { here, far: places.sort((x, y) => byPort(x.switch, y.switch)) };
}

/** A row's location: "p0-rack3 (p0-tor3)", the switch alone without a rack, "—" without a location. */
export function locationText(location: WorkOrderLocation | null): string {
  if (location === null) return '—';
  return location.rack ? `${location.rack} (${location.switch})` : location.switch;
}

/** Why a footprint link goes down: it is a ticket's, a breakout sibling of a ticket's link, or shares the component. */
export type FootprintRole = 'ticket' | 'breakout_sibling' | 'shares_component';

export function footprintRoles(
  order: Pick<WorkOrderDetail, 'ticket_details' | 'footprint_links'>,
  links: readonly LinkFacts[],
): Map<number, FootprintRole> {
  const ticketLinks = new Set(order.ticket_details.map((ticket) => ticket.link));
  const siblings = new Set<number>();
  for (const link of links) {
    if (!ticketLinks.has(link.id)) continue;
    for (const sibling of link.components.breakout?.siblings ?? []) siblings.add(sibling.id);
  }
  return new Map(
    order.footprint_links.map((link: FootprintLink) => [
      link.id,
      ticketLinks.has(link.id) ? 'ticket' : siblings.has(link.id) ? 'breakout_sibling' : 'shares_component',
    ]),
  );
}

export const ROLE_LABELS: Record<FootprintRole, string> = {
  ticket: 'its ticket’s link',
  breakout_sibling: 'breakout sibling',
  shares_component: 'shares the component',
};

/**
 * Why a footprint link goes down, in words that stay true: a breakout sibling is named by its own
 * health (a sibling may corrupt too), so "healthy" is never said of a corrupting link. Whether it is
 * taken down or already out is the table's other column.
 */
export function footprintReason(role: FootprintRole, health: string): string {
  if (role !== 'breakout_sibling') return ROLE_LABELS[role];
  if (health === 'clean') return 'healthy breakout sibling';
  if (health === 'corrupting' || health === 'lossy') return `${health} breakout sibling`;
  return ROLE_LABELS.breakout_sibling;
}

/** A loss rate as a fraction: "3.0e-5". */
export function formatLossRate(rate: number): string {
  if (!Number.isFinite(rate)) return '—';
  if (rate === 0) return '0';
  return rate.toExponential(1);
}

/** CorrOpt's penalty of carrying a lossy link (a sum of loss rates weighted by traffic): three significant digits. */
export function formatPenalty(penalty: number): string {
  if (!Number.isFinite(penalty)) return '—';
  if (penalty === 0) return '0';
  return Math.abs(penalty) < 0.01 ? penalty.toExponential(2) : String(Number(penalty.toPrecision(3)));
}

/** "p1-tor5 keeps at most 8 of 16 up-paths; it needs 12: 4 short" */
export function describeUnreachable(tor: UnreachableTor): string {
  const short = tor.floor - tor.paths_best;
  return `${tor.name} keeps at most ${tor.paths_best} of ${tor.design_paths} up-paths (${tor.paths_before} now); it needs ${tor.floor}: ${short} ${short === 1 ? 'path' : 'paths'} short`;
}

type TicketKind = WorkOrderDetail['kinds'][number];

const KIND_TEXT: Record<TicketKind, string> = {
  repair: 'Repair: CorrOpt took its links out of service for corruption',
  preventive: 'Preventive: its links are forecast to fail and stay in service until the visit',
};

/** What the order's tickets are: a repair, preventive work before a forecast crossing, or both. */
export function kindText(kinds: readonly TicketKind[]): string {
  if (kinds.length === 0) return 'No current ticket';
  if (kinds.length === 1) return KIND_TEXT[kinds[0]!];
  return 'Repair and preventive: some links corrupt now, others are forecast to';
}

const HOUR_MS = 60 * 60 * 1000;

function hoursOrDays(ms: number): string {
  const hours = ms / HOUR_MS;
  return hours < 48 ? `${Math.max(1, Math.round(hours))} h` : `${(hours / 24).toFixed(1)} days`;
}

/**
 * "2026-12-01 12:11 UTC, in 4.2 days": when the soonest of its preventive tickets' links is forecast
 * to reach its limit, which a planner schedules the visit before ("… 5 h ago" once it has passed).
 */
export function deadlineText(deadline: string, now: Date): string {
  const left = Date.parse(deadline) - now.getTime();
  const when = left >= 0 ? `in ${hoursOrDays(left)}` : `${hoursOrDays(-left)} ago`;
  return `${formatTime(deadline)}, ${when}`;
}
