import { describe, expect, it } from 'vitest';

import {
  MINE,
  queueFromSearchParams,
  searchParamsFromQueue,
  ticketQuery,
  toggleState,
  UNRESOLVED_STATES,
} from './ticketQueue';

describe('ticket queue filters in the URL', () => {
  it('shows the unresolved tickets when the URL says nothing', () => {
    const filters = queueFromSearchParams(new URLSearchParams());
    expect(filters).toEqual({
      fabric: undefined,
      pod: undefined,
      states: [...UNRESOLVED_STATES],
      assignee: undefined,
    });
    expect(ticketQuery(filters, 'tech', '-penalty')).toEqual({
      fabric: undefined,
      pod: undefined,
      state: ['open', 'reopened', 'in_progress', 'awaiting_validation'],
      assignee: undefined,
      ordering: '-penalty',
    });
    // The default needs no parameters: a bare /tickets is the queue.
    expect(searchParamsFromQueue(filters).toString()).toBe('');
  });

  it('round-trips fabric, pod 0, states, assignee and page', () => {
    const params = new URLSearchParams('fabric=3&pod=0&state=resolved&state=open&assignee=me&page=2');
    const filters = queueFromSearchParams(params);
    expect(filters).toEqual({ fabric: 3, pod: 0, states: ['open', 'resolved'], assignee: MINE });
    expect(searchParamsFromQueue(filters, 2).toString()).toBe(
      'fabric=3&pod=0&state=open&state=resolved&assignee=me&page=2',
    );
  });

  it('sends the logged-in username for "mine" and the ordering the table chose', () => {
    const mine = queueFromSearchParams(new URLSearchParams('assignee=me'));
    expect(ticketQuery(mine, 'technician', 'created')).toMatchObject({ assignee: 'technician', ordering: 'created' });
    const someone = queueFromSearchParams(new URLSearchParams('assignee=alice'));
    expect(ticketQuery(someone, 'technician', '-created')).toMatchObject({ assignee: 'alice', ordering: '-created' });
    const nobody = queueFromSearchParams(new URLSearchParams('unassigned=1&assignee=alice'));
    // "Unassigned" wins over a stale assignee in the URL, and survives the round trip.
    expect(nobody.assignee).toBeUndefined();
    expect(ticketQuery(nobody, 'technician', '-penalty')).toMatchObject({ assignee: undefined, unassigned: true });
    expect(searchParamsFromQueue(nobody).toString()).toBe('unassigned=1');
  });

  it('keeps "any state" distinct from the default', () => {
    const any = { ...queueFromSearchParams(new URLSearchParams()), states: [] };
    const params = searchParamsFromQueue(any);
    expect(params.toString()).toBe('state=any');
    expect(queueFromSearchParams(params).states).toEqual([]);
    expect(ticketQuery(queueFromSearchParams(params), 'x', '-penalty').state).toBeUndefined();
  });

  it('ignores values the API would refuse', () => {
    const filters = queueFromSearchParams(new URLSearchParams('fabric=0&pod=-1&state=bogus'));
    expect(filters.fabric).toBeUndefined();
    expect(filters.pod).toBeUndefined();
    expect(filters.states).toEqual([...UNRESOLVED_STATES]);
  });

  it('toggles a state on and off in a stable order', () => {
    expect(toggleState(['in_progress'], 'open', true)).toEqual(['open', 'in_progress']);
    expect(toggleState(['open', 'in_progress'], 'open', false)).toEqual(['in_progress']);
  });
});

describe('the kind filter', () => {
  it('reads repair or preventive from the URL, writes it back and asks the API for that kind only', () => {
    const filters = queueFromSearchParams(new URLSearchParams('kind=preventive'));
    expect(filters.kind).toBe('preventive');
    expect(searchParamsFromQueue(filters).get('kind')).toBe('preventive');
    expect(ticketQuery(filters, 'alice', '-penalty')).toMatchObject({ kind: 'preventive' });
    expect(queueFromSearchParams(new URLSearchParams('kind=bogus')).kind).toBeUndefined();
  });
});
