import { describe, expect, it } from 'vitest';

import { buildPlanDay, initialPlanDayForm, leftForLaterLabel, leftOrders, planTotals } from './planDay';

describe('the plan form', () => {
  it('starts the shift now, to the minute, in UTC, for 8 hours', () => {
    const form = initialPlanDayForm(new Date('2026-11-27T08:05:42.123Z'));
    expect(form.shiftStart).toBe('2026-11-27T08:05');
    expect(form.shiftHours).toBe('8');
  });

  it('sends the assignees in the order chosen and the start as a UTC instant', () => {
    const built = buildPlanDay({
      fabric: '3',
      assignees: ['technician', 'alice'],
      shiftStart: '2026-11-27T08:00',
      shiftHours: '7.5',
    });
    expect(built).toEqual({
      fabric: 3,
      params: { assignees: ['technician', 'alice'], shift_start: '2026-11-27T08:00:00.000Z', shift_hours: 7.5 },
      problems: [],
    });
  });

  it('lists every problem at once and sends nothing', () => {
    const built = buildPlanDay({ fabric: '', assignees: [], shiftStart: 'soon', shiftHours: '30' });
    expect(built.params).toBeUndefined();
    expect(built.problems).toEqual([
      'Choose a fabric.',
      'Choose at least one technician.',
      'Shift start must be a date and time (UTC).',
      'Shift hours must be a number above 0 and at most 24.',
    ]);
  });
});

describe('planTotals', () => {
  it('compares the plan with first in first out and says it is proven optimal', () => {
    expect(
      planTotals({ expected_penalty_hours: 612.34, fifo_penalty_hours: 1310.44, proven_optimal: true, gap: 0 }),
    ).toEqual({
      plan: '612.3',
      fifo: '1,310.4',
      saving: '53.3% less than first in first out',
      quality: 'Proven optimal',
    });
  });

  it('gives the gap when the planner stopped before proving its plan best', () => {
    const totals = planTotals({
      expected_penalty_hours: 10,
      fifo_penalty_hours: 10,
      proven_optimal: false,
      gap: 0.031,
    });
    expect(totals.saving).toBe('No less than first in first out');
    expect(totals.quality).toBe('Within 3.1% of the best possible plan');
  });

  it('keeps small totals readable instead of rounding them to 0', () => {
    const totals = planTotals({
      expected_penalty_hours: 0.000032,
      fifo_penalty_hours: 0.0412,
      proven_optimal: true,
      gap: 0,
    });
    expect(totals.plan).toBe('3.20e-5');
    expect(totals.fifo).toBe('0.0412');
    expect(totals.saving).toBe('99.9% less than first in first out');
  });

  it('says there is nothing to save when no order carries a penalty', () => {
    const totals = planTotals({ expected_penalty_hours: 0, fifo_penalty_hours: 0, proven_optimal: true, gap: 0 });
    expect(totals.saving).toBe('Nothing to save: no open order carries a penalty');
  });
});

describe('leftForLaterLabel', () => {
  it('names each reason and keeps an unknown one as it is', () => {
    expect(leftForLaterLabel('never_safe')).toBe('Never safe to take down');
    expect(leftForLaterLabel('longer_than_shift')).toBe('Longer than the shift');
    expect(leftForLaterLabel('cosmic_rays')).toBe('cosmic_rays');
  });
});

describe('leftOrders', () => {
  it('lists every order left for later with its reason and detail', () => {
    expect(
      leftOrders({
        unscheduled: [4, 9],
        left_for_later: [
          { work_order: 9, reason: 'never_safe', detail: 'Its footprint puts p3-tor1 under its floor.' },
          { work_order: 4, reason: 'no_room', detail: 'The shift is full.' },
        ],
      }),
    ).toEqual([
      { workOrder: 4, reason: 'No room left in the shift', detail: 'The shift is full.' },
      { workOrder: 9, reason: 'Never safe to take down', detail: 'Its footprint puts p3-tor1 under its floor.' },
    ]);
  });

  it('still lists them when the plan gives no reasons', () => {
    expect(leftOrders({ unscheduled: [4] })).toEqual([{ workOrder: 4, reason: null, detail: '' }]);
  });
});
