import { describe, expect, it } from 'vitest';

import type { SwitchFacts, Transceiver } from './api/types';
import { testLinkFacts } from './testWorkOrder';
import {
  bringSummary,
  deadlineText,
  filtersFromSearchParams,
  kindText,
  nearAndFar,
  searchParamsFromFilters,
  visitLocations,
  workOrderQuery,
} from './workOrders';

const SWITCHES = new Map<string, SwitchFacts>([
  ['p3-tor1', { id: 38, name: 'p3-tor1', tier: 0, rack: 'p3-rack1' }],
  ['p3-fab0', { id: 45, name: 'p3-fab0', tier: 1, rack: 'p3-row-fab' }],
  ['p3-fab1', { id: 46, name: 'p3-fab1', tier: 1, rack: '' }],
]);

describe('work order filters', () => {
  it('opens on the current orders and reads every state back from the URL', () => {
    expect(filtersFromSearchParams(new URLSearchParams(''))).toEqual({
      fabric: undefined,
      states: ['open', 'in_progress'],
    });
    const all = filtersFromSearchParams(new URLSearchParams('fabric=2&state=all'));
    expect(all).toEqual({ fabric: 2, states: [] });
    expect(workOrderQuery(all)).toEqual({ fabric: 2 });
    expect(searchParamsFromFilters(all, 3).toString()).toBe('fabric=2&state=all&page=3');
    const done = filtersFromSearchParams(new URLSearchParams('state=done&state=bogus'));
    expect(workOrderQuery(done)).toEqual({ state: ['done'] });
  });
});

describe('where the visit is', () => {
  it('stands at the ToR end, whichever side it is on, with the far end’s rack', () => {
    const reversed = testLinkFacts(101, {
      a_switch_name: 'p3-fab0',
      a_port: 'eth1/2',
      z_switch_name: 'p3-tor1',
      z_port: 'eth2/1',
    });
    const { near, far } = nearAndFar(reversed, SWITCHES, []);
    expect([near.switch, near.port, near.rack]).toEqual(['p3-tor1', 'eth2/1', 'p3-rack1']);
    expect([far.switch, far.rack]).toEqual(['p3-fab0', 'p3-row-fab']);
  });

  it('stands at the location’s switch when the work is there, also at a fabric switch', () => {
    const { near, far } = nearAndFar(testLinkFacts(101), SWITCHES, [], 'p3-fab0');
    expect([near.switch, near.port, far.switch]).toEqual(['p3-fab0', 'eth1/2', 'p3-tor1']);
  });

  it('gathers a breakout cable’s ports on its breakout side, in port order, and each far end', () => {
    const links = [testLinkFacts(102), testLinkFacts(101)];
    const location = {
      switch: 'p3-tor1',
      rack: 'p3-rack1',
      row: 'pod 3',
      port: 'eth2/1',
      far: { switch: 'p3-fab0', rack: 'p3-row-fab', row: 'pod 3', port: 'eth1/2' },
    };
    expect(visitLocations(location, links, SWITCHES)).toEqual({
      here: { row: 'pod 3', rack: 'p3-rack1', switch: 'p3-tor1', ports: ['eth2/1', 'eth2/2'] },
      far: [
        { rack: 'p3-row-fab', switch: 'p3-fab0', ports: ['eth1/2'] },
        { rack: '', switch: 'p3-fab1', ports: ['eth1/2'] },
      ],
    });
    // One end's component (a transceiver): no far end; the server's port until the links are in.
    expect(visitLocations({ ...location, far: null }, [], SWITCHES)).toEqual({
      here: { row: 'pod 3', rack: 'p3-rack1', switch: 'p3-tor1', ports: ['eth2/1'] },
      far: [],
    });
  });
});

describe('what to bring, in a few words', () => {
  const transceiver = (id: number, link: number, side: 'a' | 'z', model_name: string): Transceiver => ({
    id,
    url: `/api/transceivers/${id}/`,
    link,
    side,
    model: 1,
    model_name,
    serial: '',
    installed_at: null,
    last_reseated_at: null,
  });
  const own = (id: number, length_m: number) =>
    testLinkFacts(id, {
      length_m,
      components: {
        breakout: null,
        cable: { kind: 'own', name: `cable ${id}`, siblings: [] },
        line_cards: { a: '', z: '' },
      },
    });

  it('counts the transceivers at the work’s end by model and the cables by length and fiber', () => {
    const transceivers = [
      transceiver(1, 101, 'a', '100G-SR4'),
      transceiver(2, 101, 'z', '100G-LR4'),
      transceiver(3, 102, 'a', '100G-SR4'),
    ];
    expect(bringSummary([own(101, 7.8), own(102, 7.8)], SWITCHES, transceivers, 'p3-tor1')).toBe(
      '2 transceivers 100G-SR4, 2 cables 7.8 m MMF',
    );
    expect(bringSummary([own(101, 7.8)], SWITCHES, transceivers, 'p3-fab0')).toBe(
      '1 transceiver 100G-LR4, 1 cable 7.8 m MMF',
    );
  });

  it('counts a breakout cable once, whatever the number of its links', () => {
    expect(bringSummary([testLinkFacts(101), testLinkFacts(102)], SWITCHES, [], 'p3-tor1')).toBe(
      '1 breakout cable 4.7 m MMF',
    );
  });

  it('says nothing it does not know', () => {
    expect(bringSummary([], SWITCHES, [], 'p3-tor1')).toBe('');
  });
});

describe('kindText and deadlineText', () => {
  it('names the work by its tickets’ kinds', () => {
    expect(kindText(['repair'])).toBe('Repair: CorrOpt took its links out of service for corruption');
    expect(kindText(['preventive'])).toBe(
      'Preventive: its links are forecast to fail and stay in service until the visit',
    );
    expect(kindText(['repair', 'preventive'])).toBe(
      'Repair and preventive: some links corrupt now, others are forecast to',
    );
  });

  it('says the deadline with the time left, in hours under two days, or how long ago it passed', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(deadlineText('2026-12-01T12:11:00Z', now)).toBe('2026-12-01 12:11 UTC, in 4.0 days');
    expect(deadlineText('2026-11-28T06:00:00Z', now)).toBe('2026-11-28 06:00 UTC, in 18 h');
    expect(deadlineText('2026-11-27T07:00:00Z', now)).toBe('2026-11-27 07:00 UTC, 5 h ago');
  });
});
