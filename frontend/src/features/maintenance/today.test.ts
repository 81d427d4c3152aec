import { describe, expect, it } from 'vitest';

import type { TodayPlan } from './api/types';
import { placeLines, planAgeText, progressText, staleWarning, visitWindow } from './today';

const PLAN: TodayPlan = {
  job: 7,
  fabric: { id: 1, name: 'demo-fb' },
  planned_at: '2026-11-27T07:15:00Z',
  shift_start: '2026-11-27T08:00:00Z',
  shift_end: '2026-11-27T16:00:00Z',
  stale: false,
  stale_reasons: [],
};

describe('planAgeText', () => {
  it('says how old the plan is, when it was made and the shift it covers, in UTC', () => {
    expect(planAgeText(PLAN, new Date('2026-11-27T08:00:00Z'))).toBe(
      'Planned 45 min ago (2026-11-27 07:15 UTC) for the shift 2026-11-27 08:00–16:00 UTC, demo-fb.',
    );
  });
});

describe('staleWarning', () => {
  it('says nothing over a plan that still holds', () => {
    expect(staleWarning(PLAN)).toBeNull();
  });

  it('tells the technician what to do and lists what changed, one sentence each', () => {
    const warning = staleWarning({
      ...PLAN,
      stale: true,
      stale_reasons: ['Work order 12 opened after this plan.', 'Work order 9 was cancelled after this plan.'],
    });
    expect(warning?.title).toMatch(/out of date/);
    expect(warning?.title).toMatch(/plan the day again/);
    expect(warning?.reasons).toEqual([
      'Work order 12 opened after this plan.',
      'Work order 9 was cancelled after this plan.',
    ]);
  });

  it('still warns when the server gives no reason', () => {
    expect(staleWarning({ ...PLAN, stale: true })?.reasons).toEqual([]);
  });
});

describe('placeLines', () => {
  it('names the row, the rack, the switch and port worked on, then the cable’s other end', () => {
    const lines = placeLines({
      switch: 'p3-tor1',
      rack: 'p3-rack1',
      row: 'pod 3',
      port: 'eth2/1',
      far: { switch: 'p3-fab0', rack: 'fab-rack-0', row: 'pod 3', port: 'eth1/2' },
    });
    expect(lines.map((line) => [line.label, line.value])).toEqual([
      ['Row', 'pod 3'],
      ['Rack', 'p3-rack1'],
      ['Switch', 'p3-tor1 eth2/1'],
      ['Other end', 'fab-rack-0, p3-fab0 eth1/2'],
    ]);
  });

  it('shows one end alone for a transceiver, a dash for an unrecorded rack, and says when there is no location', () => {
    expect(
      placeLines({ switch: 'p0-tor3', rack: '', row: 'pod 0', port: 'eth1', far: null }).map((line) => line.value),
    ).toEqual(['pod 0', '—', 'p0-tor3 eth1']);
    expect(placeLines(null)).toEqual([
      { label: 'Where', value: 'not recorded (open the work order)', testId: 'today-rack' },
    ]);
  });
});

describe('progressText', () => {
  it('counts the visits done', () => {
    expect(progressText([{ done: true }, { done: false }, { done: false }])).toBe('1 of 3 done');
    expect(progressText([])).toBe('');
  });
});

describe('visitWindow', () => {
  it('gives a planned visit its window and an order in progress outside the plan its start', () => {
    expect(visitWindow({ planned: true, start_at: '2026-11-27T08:00:00Z', end_at: '2026-11-27T09:30:00Z' })).toBe(
      '2026-11-27 08:00–09:30 UTC',
    );
    expect(visitWindow({ planned: false, start_at: '2026-11-27T08:12:00Z', end_at: null })).toBe(
      'In progress since 2026-11-27 08:12 UTC (not from the plan)',
    );
  });
});
