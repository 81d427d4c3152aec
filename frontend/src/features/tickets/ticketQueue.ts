/**
 * The ticket queue's filters live in the URL (its ordering too, as the table's `ordering`), so a technician can bookmark "my open
 * tickets in pod 3" and the back button works. `assignee=me` stays "whoever is logged in".
 */
import type { TicketKind, TicketQuery, TicketState } from './api/types';

export const TICKET_STATES: readonly TicketState[] = [
  'open',
  'reopened',
  'in_progress',
  'awaiting_validation',
  'resolved',
];

/** What the queue shows when the URL names no state: everything still to be worked or checked. */
export const UNRESOLVED_STATES: readonly TicketState[] = ['open', 'reopened', 'in_progress', 'awaiting_validation'];

export const TICKET_STATE_LABELS: Record<TicketState, string> = {
  open: 'open',
  reopened: 'reopened',
  in_progress: 'in progress',
  awaiting_validation: 'awaiting validation',
  resolved: 'resolved',
};

export const TICKET_KIND_LABELS: Record<TicketKind, string> = { repair: 'Repair', preventive: 'Preventive' };
const TICKET_KINDS = Object.keys(TICKET_KIND_LABELS) as TicketKind[];

/** The URL value for "no state filter": an explicit word, since no parameter means the default. */
const ANY_STATE = 'any';
export const MINE = 'me';

export interface TicketQueueFilters {
  fabric?: number;
  /** Pods are numbered from 0. */
  pod?: number;
  /** Empty: any state. */
  states: TicketState[];
  /** A username, MINE for the logged-in user, or undefined for anyone. */
  assignee?: string;
  /** Only tickets nobody is assigned to (then `assignee` is undefined). */
  unassigned?: boolean;
  /** Undefined: both kinds. */
  kind?: TicketKind;
}

function nonNegativeInt(value: string | null, min: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= min ? parsed : undefined;
}

function sameStates(a: readonly TicketState[], b: readonly TicketState[]): boolean {
  return a.length === b.length && a.every((state) => b.includes(state));
}

export function queueFromSearchParams(params: URLSearchParams): TicketQueueFilters {
  const rawStates = params.getAll('state');
  let states: TicketState[];
  if (rawStates.length === 0) states = [...UNRESOLVED_STATES];
  else if (rawStates.includes(ANY_STATE)) states = [];
  else {
    states = TICKET_STATES.filter((state) => rawStates.includes(state));
    if (states.length === 0) states = [...UNRESOLVED_STATES];
  }
  const unassigned = params.get('unassigned') === '1';
  const assignee = unassigned ? undefined : params.get('assignee')?.trim() || undefined;
  return {
    fabric: nonNegativeInt(params.get('fabric'), 1),
    pod: nonNegativeInt(params.get('pod'), 0),
    states,
    assignee,
    ...(unassigned ? { unassigned } : {}),
    kind: TICKET_KINDS.find((candidate) => candidate === params.get('kind')),
  };
}

/** The URL for these filters; defaults are left out so a plain /tickets stays the queue. */
export function searchParamsFromQueue(filters: TicketQueueFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.fabric !== undefined) params.set('fabric', String(filters.fabric));
  if (filters.pod !== undefined) params.set('pod', String(filters.pod));
  if (filters.states.length === 0) params.append('state', ANY_STATE);
  else if (!sameStates(filters.states, UNRESOLVED_STATES)) {
    for (const state of TICKET_STATES) if (filters.states.includes(state)) params.append('state', state);
  }
  if (filters.unassigned) params.set('unassigned', '1');
  else if (filters.assignee) params.set('assignee', filters.assignee);
  if (filters.kind) params.set('kind', filters.kind);
  if (page > 1) params.set('page', String(page));
  return params;
}

/** The API's query for these filters in this `ordering`; "mine" becomes the logged-in user's name. */
export function ticketQuery(filters: TicketQueueFilters, username: string | undefined, ordering: string): TicketQuery {
  return {
    fabric: filters.fabric,
    pod: filters.pod,
    state: filters.states.length > 0 ? [...filters.states] : undefined,
    assignee: filters.unassigned ? undefined : filters.assignee === MINE ? username : filters.assignee,
    unassigned: filters.unassigned || undefined,
    kind: filters.kind,
    ordering,
  };
}

/** The state filter with one state switched on or off, in the canonical order. */
export function toggleState(current: readonly TicketState[], state: TicketState, on: boolean): TicketState[] {
  const next = new Set(current);
  if (on) next.add(state);
  else next.delete(state);
  return TICKET_STATES.filter((candidate) => next.has(candidate));
}
