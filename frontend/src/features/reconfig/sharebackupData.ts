/**
 * Data shaping for the ShareBackup view: failure groups and their members' states after each
 * event, the circuit-switch matchings before and after an event, and words for events.
 *
 * The engine names a group `edge.p0`, `agg.p1` or `core.c2`; its members are `<group>.m<i>` and its
 * slots `<group>.s<i>` (docs/reconfig.md). At the start member i holds slot i and the members from
 * k/2 upwards are spares. Each planned event lists the pools of the groups it touched only, so the
 * state of every group is replayed here from the start.
 */
import type {
  Circuit,
  CircuitSwitchWiring,
  GroupPool,
  PlannedEvent,
  ReplaceCall,
  ShareBackupEvent,
  ShareBackupPlan,
} from './api/types';

export type Layer = 'edge' | 'agg' | 'core';
export const LAYERS: readonly Layer[] = ['edge', 'agg', 'core'];
export const LAYER_LABEL: Record<Layer, string> = {
  edge: 'Edge',
  agg: 'Aggregation',
  core: 'Core',
};

/** active: holds a slot; spare: a free backup; suspect: awaits diagnosis after a link failure. */
export type MemberState = 'active' | 'spare' | 'suspect' | 'failed' | 'idle';

export const MEMBER_STATE_LABEL: Record<MemberState, string> = {
  active: 'in service (holds a slot)',
  spare: 'free backup',
  suspect: 'suspect, awaiting diagnosis',
  failed: 'failed',
  idle: 'out of every pool',
};

export interface FailureGroup {
  id: string;
  layer: Layer;
  /** Pod index (edge, aggregation) or core group index. */
  index: number;
  members: string[];
}

export interface MemberView {
  name: string;
  state: MemberState;
  /** The slot it plays (a failed member keeps its slot when no backup was free). */
  slot: string | null;
}

export interface GroupView {
  group: FailureGroup;
  members: MemberView[];
  degraded: boolean;
  spares: number;
  failed: number;
  suspects: number;
}

/** Every failure group of a (possibly partial) k-ary fat tree with n backups per group. */
export function failureGroups(fabric: ShareBackupPlan['fabric']): FailureGroup[] {
  const half = fabric.k / 2;
  const size = half + fabric.backups;
  const members = (id: string) => Array.from({ length: size }, (_, i) => `${id}.m${i}`);
  const groups: FailureGroup[] = [];
  for (const layer of ['edge', 'agg'] as const) {
    for (let pod = 0; pod < fabric.pods; pod++) {
      const id = `${layer}.p${pod}`;
      groups.push({ id, layer, index: pod, members: members(id) });
    }
  }
  for (let c = 0; c < half; c++) {
    const id = `core.c${c}`;
    groups.push({ id, layer: 'core', index: c, members: members(id) });
  }
  return groups;
}

function initialPool(group: FailureGroup, half: number): GroupPool {
  return { group: group.id, spares: group.members.slice(half), failed: [], suspects: [] };
}

/** The backups that took a slot in the event: one entry per (failed, backup) pair, in call order. */
export function takeovers(calls: readonly ReplaceCall[]): { failed: string; backup: string }[] {
  const seen = new Set<string>();
  const pairs: { failed: string; backup: string }[] = [];
  for (const call of calls) {
    const key = `${call.failed_switch}>${call.backup_switch}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push({ failed: call.failed_switch, backup: call.backup_switch });
  }
  return pairs;
}

/**
 * Every group's members after event `index` (-1: before the first), replayed from the start. Only
 * the asked-for state is built: a 1000-event log on k = 64 has 6,400 members per state.
 */
export function groupsAfter(plan: ShareBackupPlan, index: number): GroupView[] {
  const half = plan.fabric.k / 2;
  const groups = failureGroups(plan.fabric);
  const pools = new Map(groups.map((group) => [group.id, initialPool(group, half)]));
  // member → the slot it plays.
  const slotOf = new Map<string, string>();
  for (const group of groups) {
    group.members.slice(0, half).forEach((member, i) => slotOf.set(member, `${group.id}.s${i}`));
  }
  const replayed = plan.events.slice(0, index + 1);
  for (const planned of replayed) {
    for (const { failed, backup } of takeovers(planned.replace_calls)) {
      const slot = slotOf.get(failed);
      if (slot === undefined) continue;
      slotOf.delete(failed);
      slotOf.set(backup, slot);
    }
    for (const pool of planned.pools) pools.set(pool.group, pool);
  }
  const degraded = new Set(replayed.at(-1)?.degraded_groups ?? []);

  return groups.map((group) => {
    const pool = pools.get(group.id)!;
    const members = group.members.map((name) => ({
      name,
      state: memberState(name, pool, slotOf.has(name)),
      slot: slotOf.get(name) ?? null,
    }));
    return {
      group,
      members,
      degraded: degraded.has(group.id),
      spares: pool.spares.length,
      failed: pool.failed.length,
      suspects: pool.suspects.length,
    };
  });
}

function memberState(name: string, pool: GroupPool, holdsSlot: boolean): MemberState {
  if (pool.failed.includes(name)) return 'failed';
  if (pool.suspects.includes(name)) return 'suspect';
  if (holdsSlot) return 'active';
  if (pool.spares.includes(name)) return 'spare';
  return 'idle';
}

/** Rows of the group grid: one per layer, groups in pod (or core group) order. */
export function groupRows(views: readonly GroupView[]): { layer: Layer; groups: GroupView[] }[] {
  return LAYERS.map((layer) => ({ layer, groups: views.filter((view) => view.group.layer === layer) }));
}

// --- Circuit-switch matchings --------------------------------------------------------------------

const circuitKey = ([low, high]: Circuit) => `${low}-${high}`;

/** Circuits of every circuit switch before event `index` (index = events.length: after the last). */
export function circuitsBefore(plan: ShareBackupPlan, index: number): Map<string, Circuit[]> {
  const state = new Map(plan.initial_circuits.map((entry) => [entry.circuit_switch, [...entry.circuits]]));
  for (const planned of plan.events.slice(0, index)) {
    for (const change of planned.circuit_changes) {
      state.set(change.circuit_switch, applyChange(state.get(change.circuit_switch) ?? [], change));
    }
  }
  return state;
}

function applyChange(circuits: readonly Circuit[], change: { removed: Circuit[]; added: Circuit[] }): Circuit[] {
  const removed = new Set(change.removed.map(circuitKey));
  return [...circuits.filter((circuit) => !removed.has(circuitKey(circuit))), ...change.added].sort(
    (a, b) => a[0] - b[0] || a[1] - b[1],
  );
}

export interface MatchingView {
  circuitSwitch: string;
  wiring: CircuitSwitchWiring;
  before: Circuit[];
  after: Circuit[];
  /** Circuits of `before` that the event took down. */
  removed: Circuit[];
  /** Circuits of `after` that the event set up. */
  added: Circuit[];
  /** This circuit switch's replace() calls, in the order the controller issues them. */
  calls: ReplaceCall[];
  /** Diagnosis test circuits planned on this circuit switch after the event. */
  tests: Circuit[];
}

/**
 * The circuit switches an event reprogrammed (or tests on), each with its matching before and
 * after, in the order of the event's first replace() call on it.
 */
export function eventMatchings(plan: ShareBackupPlan, index: number): MatchingView[] {
  const planned = plan.events[index];
  if (!planned) return [];
  const wiring = new Map(plan.wiring.map((entry) => [entry.circuit_switch, entry]));
  const before = circuitsBefore(plan, index);
  const order: string[] = [];
  const note = (cs: string) => {
    if (!order.includes(cs)) order.push(cs);
  };
  planned.replace_calls.forEach((call) => note(call.circuit_switch));
  planned.circuit_changes.forEach((change) => note(change.circuit_switch));
  planned.diagnosis_tests.forEach((test) => {
    if (test.circuit) note(test.circuit_switch);
  });

  return order.flatMap((cs) => {
    const entry = wiring.get(cs);
    if (!entry) return [];
    const change = planned.circuit_changes.find((candidate) => candidate.circuit_switch === cs);
    const was = before.get(cs) ?? [];
    return [
      {
        circuitSwitch: cs,
        wiring: entry,
        before: was,
        after: change ? applyChange(was, change) : was,
        removed: change?.removed ?? [],
        added: change?.added ?? [],
        calls: planned.replace_calls.filter((call) => call.circuit_switch === cs),
        tests: planned.diagnosis_tests.flatMap((test) =>
          test.circuit_switch === cs && test.circuit ? [test.circuit] : [],
        ),
      },
    ];
  });
}

export function hasCircuit(circuits: readonly Circuit[], circuit: Circuit): boolean {
  return circuits.some(([low, high]) => low === circuit[0] && high === circuit[1]);
}

/**
 * Who a circuit-switch port belongs to. High side: member `port` of the high group. Low side: a
 * member of the low group, or on a host–edge switch `he.p{p}.j{j}`, host j of edge slot `port`.
 */
export function portOwner(wiring: CircuitSwitchWiring, side: 'low' | 'high', port: number): string {
  if (side === 'high') return `${wiring.high_group}.m${port}`;
  if (wiring.low_group) return `${wiring.low_group}.m${port}`;
  const host = wiring.circuit_switch.slice(wiring.circuit_switch.lastIndexOf('.j') + 2);
  return `host ${host} of ${wiring.high_group}.s${port}`;
}

/** Short port label for a drawing: `m2`, or `h0` for a host port. */
export function portLabel(wiring: CircuitSwitchWiring, side: 'low' | 'high', port: number): string {
  return side === 'low' && !wiring.low_group ? `h${port}` : `m${port}`;
}

export function describeCall(call: ReplaceCall): string {
  return (
    `replace(${call.circuit_switch}, ${call.side} port ${call.failed_port} → ${call.backup_port}): ` +
    `${call.backup_switch} takes over from ${call.failed_switch}; peer port ${call.peer_port} moves`
  );
}

// --- Events ------------------------------------------------------------------------------------

export const EVENT_LABEL: Record<ShareBackupEvent['type'], string> = {
  switch_down: 'Switch down',
  link_down: 'Link down',
  repair_done: 'Repair done',
  diagnosis_result: 'Diagnosis',
};

export function describeEvent(event: ShareBackupEvent): string {
  switch (event.type) {
    case 'switch_down':
      return `${event.switch} goes down`;
    case 'link_down':
      return `link ${event.a} – ${event.b} goes down`;
    case 'repair_done':
      return `${event.switch} is repaired`;
    case 'diagnosis_result':
      return `${event.switch} is diagnosed ${event.healthy ? 'healthy' : 'faulty'}`;
  }
}

/** The switches an event names and the backups it moved into their slots. */
export function eventSwitches(planned: PlannedEvent): Set<string> {
  const { event } = planned;
  const named = event.type === 'link_down' ? [event.a, event.b] : [event.switch];
  return new Set([...named, ...takeovers(planned.replace_calls).map((pair) => pair.backup)]);
}

/** One line for the outcome of an event. */
export function eventOutcome(planned: PlannedEvent): string {
  const parts: string[] = [];
  const pairs = takeovers(planned.replace_calls);
  if (pairs.length > 0) {
    parts.push(pairs.map(({ failed, backup }) => `${backup} replaces ${failed}`).join('; '));
  }
  parts.push(`${planned.replace_calls.length} replace() call${planned.replace_calls.length === 1 ? '' : 's'}`);
  if (planned.status === 'degraded') parts.push(`DEGRADED: ${planned.degraded_groups.join(', ')}`);
  if (planned.repair_tickets.length > 0) parts.push(`repair tickets: ${planned.repair_tickets.join(', ')}`);
  return parts.join(' · ');
}

/** Events accepted from an uploaded JSON file: a list, or {"events": [...]}. */
export function parseEventsFile(text: string): { events: ShareBackupEvent[] | null; errors: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { events: null, errors: [`The events file is not JSON (${(error as Error).message}).`] };
  }
  const list = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null && Array.isArray((data as { events?: unknown }).events)
      ? (data as { events: unknown[] }).events
      : null;
  if (!list) return { events: null, errors: ['The events file must hold a list of events or {"events": [...]}.'] };
  const errors: string[] = [];
  list.forEach((item, i) => {
    const problem = eventProblem(item);
    if (problem) errors.push(`events[${i}]: ${problem}`);
  });
  if (list.length === 0) errors.push('The events file holds no events.');
  return errors.length > 0 ? { events: null, errors } : { events: list as ShareBackupEvent[], errors };
}

function eventProblem(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'not an object';
  const event = item as Record<string, unknown>;
  const named = (key: string) => typeof event[key] === 'string' && event[key] !== '';
  switch (event.type) {
    case 'switch_down':
    case 'repair_done':
      return named('switch') ? null : `${event.type} needs "switch"`;
    case 'link_down':
      return named('a') && named('b') ? null : 'link_down needs "a" and "b"';
    case 'diagnosis_result':
      if (!named('switch')) return 'diagnosis_result needs "switch"';
      return typeof event.healthy === 'boolean' ? null : 'diagnosis_result needs "healthy" (true or false)';
    default:
      return `unknown type ${JSON.stringify(event.type)} (switch_down, link_down, repair_done, diagnosis_result)`;
  }
}
