import { describe, expect, it } from 'vitest';

import { DIAGNOSIS_PLAN, PLAN } from './fixtures/sharebackupPlan';
import {
  circuitsBefore,
  describeEvent,
  eventMatchings,
  eventOutcome,
  eventSwitches,
  failureGroups,
  groupRows,
  parseEventsFile,
  portOwner,
  groupsAfter,
} from './sharebackupData';

function memberStates(view: ReturnType<typeof groupsAfter>, group: string) {
  const found = view.find((candidate) => candidate.group.id === group)!;
  return Object.fromEntries(found.members.map((member) => [member.name, [member.state, member.slot]]));
}

describe('failure groups', () => {
  it('has 2P + k/2 groups of k/2 + n members, as the reference counts', () => {
    const groups = failureGroups(PLAN.fabric);
    expect(groups).toHaveLength(PLAN.counts.failure_groups);
    expect(groups.map((group) => group.id)).toEqual(['edge.p0', 'edge.p1', 'agg.p0', 'agg.p1', 'core.c0', 'core.c1']);
    expect(groups.flatMap((group) => group.members)).toHaveLength(
      PLAN.counts.active_switches + PLAN.counts.backup_switches,
    );
  });
});

describe('group states per event', () => {
  // views[0] before any event, views[i + 1] after event i.
  const views = [-1, ...PLAN.events.map((_, i) => i)].map((index) => groupsAfter(PLAN, index));

  it('starts with member i in slot i and the rest spare', () => {
    expect(memberStates(views[0]!, 'edge.p1')).toEqual({
      'edge.p1.m0': ['active', 'edge.p1.s0'],
      'edge.p1.m1': ['active', 'edge.p1.s1'],
      'edge.p1.m2': ['spare', null],
    });
  });

  it('flags the group DEGRADED while a failed switch keeps its slot, and clears it when repairs refill it', () => {
    // 0: the spare fails; 1: m0 fails with no spare left; 2: m1 too.
    expect(memberStates(views[2]!, 'edge.p1')).toEqual({
      'edge.p1.m0': ['failed', 'edge.p1.s0'],
      'edge.p1.m1': ['active', 'edge.p1.s1'],
      'edge.p1.m2': ['failed', null],
    });
    expect(views.map((view) => view.find((g) => g.group.id === 'edge.p1')!.degraded)).toEqual([
      false,
      false,
      true,
      true,
      true, // 3: the repaired m2 takes slot s0; s1 is still without a working switch
      true,
      false, // 5: the repaired m0 takes s1
      false,
    ]);
    expect(memberStates(views[4]!, 'edge.p1')).toEqual({
      'edge.p1.m0': ['failed', null],
      'edge.p1.m1': ['failed', 'edge.p1.s1'],
      'edge.p1.m2': ['active', 'edge.p1.s0'],
    });
    expect(memberStates(views[6]!, 'edge.p1')).toEqual({
      'edge.p1.m0': ['active', 'edge.p1.s1'],
      'edge.p1.m1': ['failed', null],
      'edge.p1.m2': ['active', 'edge.p1.s0'],
    });
  });

  it('replaces both ends of a failed link from their own groups and makes them suspects', () => {
    const after = views[5]!;
    expect(memberStates(after, 'agg.p0')).toEqual({
      'agg.p0.m0': ['suspect', null],
      'agg.p0.m1': ['active', 'agg.p0.s1'],
      'agg.p0.m2': ['active', 'agg.p0.s0'],
    });
    const core = after.find((view) => view.group.id === 'core.c0')!;
    expect([core.spares, core.suspects, core.failed]).toEqual([0, 1, 0]);
    // 6: the suspect core switch is diagnosed faulty.
    expect(memberStates(views[7]!, 'core.c0')['core.c0.m0']).toEqual(['failed', null]);
  });

  it('lays groups out one row per layer', () => {
    const rows = groupRows(views[0]!);
    expect(rows.map((row) => [row.layer, row.groups.map((view) => view.group.id)])).toEqual([
      ['edge', ['edge.p0', 'edge.p1']],
      ['agg', ['agg.p0', 'agg.p1']],
      ['core', ['core.c0', 'core.c1']],
    ]);
  });
});

describe('matchings before and after an event', () => {
  it('shows the host–edge and edge–aggregation switches a repair reprograms, with the moved circuits', () => {
    // Event 3: repaired edge.p1.m2 takes slot s0 from the failed m0.
    const views = eventMatchings(PLAN, 3);
    expect(views.map((view) => view.circuitSwitch)).toEqual(['he.p1.j0', 'he.p1.j1', 'ea.p1.j0', 'ea.p1.j1']);
    const ea = views[3]!;
    expect(ea.before).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(ea.after).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(ea.removed).toEqual([[0, 1]]);
    expect(ea.added).toEqual([[2, 1]]);
    expect(ea.calls.map((call) => [call.failed_switch, call.backup_switch, call.peer_port])).toEqual([
      ['edge.p1.m0', 'edge.p1.m2', 1],
    ]);
  });

  it('lists both replace() calls of a link failure on the circuit switch that carried the link', () => {
    // Event 4: link agg.p0.m0 – core.c0.m0; the failed link's circuit ends joining the two backups.
    const ac = eventMatchings(PLAN, 4).find((view) => view.circuitSwitch === 'ac.p0.c0')!;
    expect(ac.calls.map((call) => `${call.side}:${call.failed_port}->${call.backup_port}`)).toEqual([
      'low:0->2',
      'high:0->2',
    ]);
    expect(ac.removed).toEqual([[0, 0]]);
    expect(ac.added).toEqual([[2, 2]]);
    expect(ac.after).toContainEqual([2, 2]);
    expect(ac.after).not.toContainEqual([0, 0]);
  });

  it('every matching before and after every event joins each port at most once', () => {
    for (let index = 0; index < PLAN.events.length; index++) {
      for (const view of eventMatchings(PLAN, index)) {
        for (const circuits of [view.before, view.after]) {
          expect(new Set(circuits.map(([low]) => low)).size).toBe(circuits.length);
          expect(new Set(circuits.map(([, high]) => high)).size).toBe(circuits.length);
        }
      }
    }
  });

  it('carries the circuits forward: after one event is before the next', () => {
    const afterAll = circuitsBefore(PLAN, PLAN.events.length);
    const afterRepair = circuitsBefore(PLAN, 6);
    expect(afterAll.get('he.p1.j0')).toEqual(afterRepair.get('he.p1.j0'));
    expect(afterAll.get('he.p1.j0')).toEqual([
      [0, 2],
      [1, 0],
    ]);
  });

  it('draws diagnosis test circuits on free ports', () => {
    const [view] = eventMatchings(DIAGNOSIS_PLAN, 0).filter((candidate) => candidate.tests.length > 0);
    expect(view!.circuitSwitch).toBe('ea.p0.j1');
    expect(view!.tests).toEqual([
      [0, 3],
      [3, 1],
    ]);
  });

  it('names the owner of each port', () => {
    const wiring = PLAN.wiring.find((entry) => entry.circuit_switch === 'he.p1.j1')!;
    expect(portOwner(wiring, 'low', 0)).toBe('host 1 of edge.p1.s0');
    expect(portOwner(wiring, 'high', 2)).toBe('edge.p1.m2');
    const ac = PLAN.wiring.find((entry) => entry.circuit_switch === 'ac.p0.c0')!;
    expect(portOwner(ac, 'low', 2)).toBe('agg.p0.m2');
    expect(portOwner(ac, 'high', 1)).toBe('core.c0.m1');
  });
});

describe('events in words', () => {
  it('describes each event and its outcome', () => {
    expect(PLAN.events.map((planned) => describeEvent(planned.event))).toEqual([
      'edge.p1.m2 goes down',
      'edge.p1.m0 goes down',
      'edge.p1.m1 goes down',
      'edge.p1.m2 is repaired',
      'link agg.p0.m0 – core.c0.m0 goes down',
      'edge.p1.m0 is repaired',
      'core.c0.m0 is diagnosed faulty',
    ]);
    expect(eventOutcome(PLAN.events[1]!)).toBe('0 replace() calls · DEGRADED: edge.p1 · repair tickets: edge.p1.m0');
    expect(eventOutcome(PLAN.events[4]!)).toBe(
      'agg.p0.m2 replaces agg.p0.m0; core.c0.m2 replaces core.c0.m0 · 6 replace() calls · DEGRADED: edge.p1',
    );
  });

  it('highlights the switches an event names and the backups it brought in', () => {
    expect([...eventSwitches(PLAN.events[4]!)]).toEqual(['agg.p0.m0', 'core.c0.m0', 'agg.p0.m2', 'core.c0.m2']);
    expect([...eventSwitches(PLAN.events[1]!)]).toEqual(['edge.p1.m0']);
  });

  it('reads an uploaded events file, listing every bad entry', () => {
    expect(parseEventsFile(JSON.stringify({ events: [{ type: 'switch_down', switch: 'edge.p0.m0' }] }))).toEqual({
      events: [{ type: 'switch_down', switch: 'edge.p0.m0' }],
      errors: [],
    });
    expect(
      parseEventsFile(
        JSON.stringify([{ type: 'link_down', a: 'x' }, { type: 'reboot' }, { type: 'diagnosis_result', switch: 's' }]),
      ).errors,
    ).toEqual([
      'events[0]: link_down needs "a" and "b"',
      'events[1]: unknown type "reboot" (switch_down, link_down, repair_done, diagnosis_result)',
      'events[2]: diagnosis_result needs "healthy" (true or false)',
    ]);
    expect(parseEventsFile('{').errors[0]).toMatch(/^The events file is not JSON/);
  });
});
