import { describe, expect, it } from 'vitest';

import type { HeadroomInterval, MaintenancePlan } from './api/types';
import { headroomText, headroomTone, laneNames, layoutTimeline, shortBeforeText } from './planTimeline';

const TOR = { id: 38, name: 'p3-tor1' };

function interval(overrides: Partial<HeadroomInterval>): HeadroomInterval {
  return {
    start_s: 0,
    end_s: 3600,
    worst_tor: TOR,
    spare_paths: 4,
    paths: 16,
    required_paths: 12,
    // A visit under way: the strip's usual interval (without one it is grey).
    visits: [5],
    ...overrides,
  };
}

function visit(technician: number, work_order: number, start_s: number, end_s: number, name: string) {
  const at = (seconds: number) => new Date(Date.parse('2026-11-27T08:00:00Z') + seconds * 1000).toISOString();
  return {
    technician,
    technician_name: name,
    work_order,
    start_s,
    end_s,
    start_at: at(start_s),
    end_at: at(end_s),
    links_down: [],
    restored: [],
  };
}

const PLAN: Pick<MaintenancePlan, 'assignees' | 'technicians' | 'visits' | 'shift_s' | 'shift_start' | 'headroom'> = {
  assignees: ['technician', 'alice'],
  technicians: 2,
  shift_s: 8 * 3600,
  shift_start: '2026-11-27T08:00:00Z',
  visits: [
    visit(0, 5, 0, 3600, 'technician'),
    visit(0, 7, 5400, 7200, 'technician'),
    visit(1, 6, 1800, 16200, 'alice'),
  ],
  headroom: [
    interval({ start_s: 0, end_s: 1800, spare_paths: 3, visits: [5] }),
    interval({ start_s: 1800, end_s: 3600, spare_paths: 0, paths: 12, visits: [5, 6] }),
    interval({ start_s: 3600, end_s: 28800, spare_paths: 4, visits: [6] }),
  ],
};

describe('headroomTone', () => {
  it('is red at no spare path, amber under a quarter spare, green otherwise', () => {
    expect(headroomTone(interval({ spare_paths: 0, paths: 12 }))).toBe('none');
    expect(headroomTone(interval({ spare_paths: 3, paths: 16 }))).toBe('low');
    expect(headroomTone(interval({ spare_paths: 4, paths: 16 }))).toBe('ok');
  });

  it('has nothing to colour in a fabric without ToRs', () => {
    expect(headroomTone(interval({ worst_tor: null, spare_paths: null, paths: null, required_paths: null }))).toBe(
      'unknown',
    );
  });
});

describe('an interval without visits', () => {
  it('is grey and says no visit is under way, as the server answers it and as older plans did', () => {
    const idle = interval({ visits: [], worst_tor: null, spare_paths: null, paths: null, required_paths: null });
    expect(headroomTone(idle)).toBe('idle');
    expect(headroomText(idle)).toBe('No visit under way');
    expect(headroomTone(interval({ visits: [], spare_paths: 4, paths: 16 }))).toBe('idle');
  });
});

describe('a ToR under its requirement before any work', () => {
  it('reads as held where it was, not as a visit’s doing', () => {
    expect(headroomText(interval({ spare_paths: 0, paths: 8, required_paths: 12 }))).toBe(
      'p3-tor1: 0 spare paths (8 up, needs 12, already under it before any work)',
    );
  });

  it('is said once, naming each such ToR with its paths', () => {
    const tor3 = { id: 45, name: 'p1-tor3', paths: 8, required_paths: 12 };
    expect(shortBeforeText([tor3])).toBe(
      'p1-tor3 is already under its requirement (8 of 12 paths): no visit may take it lower.',
    );
    expect(shortBeforeText([tor3, { id: 12, name: 'p0-tor3', paths: 11, required_paths: 12 }])).toBe(
      'p1-tor3 (8 of 12 paths) and p0-tor3 (11 of 12 paths) are already under their requirement: no visit may take them lower.',
    );
    expect(shortBeforeText([])).toBeNull();
    expect(shortBeforeText(undefined)).toBeNull();
  });
});

describe('headroomText', () => {
  it('names the worst ToR and its paths, as the tooltip and the table read', () => {
    expect(headroomText(interval({ spare_paths: 0, paths: 12 }))).toBe('p3-tor1: 0 spare paths (12 up, needs 12)');
    expect(headroomText(interval({ spare_paths: 1, paths: 13 }))).toBe('p3-tor1: 1 spare path (13 up, needs 12)');
  });
});

describe('laneNames', () => {
  it('names lanes by assignee, or Technician N for a plan given only a count', () => {
    expect(laneNames(PLAN)).toEqual(['technician', 'alice']);
    expect(laneNames({ assignees: null, technicians: 2, visits: [] })).toEqual(['Technician 1', 'Technician 2']);
  });
});

describe('layoutTimeline', () => {
  const layout = layoutTimeline(PLAN, 1000, new Date('2026-11-27T10:00:00Z'));

  it('puts each technician’s visits on their lane, in time order, to scale', () => {
    expect(layout.lanes.map((lane) => lane.bars.map((bar) => bar.workOrder))).toEqual([[5, 7], [6]]);
    const [first, second] = layout.lanes[0]!.bars;
    expect(first!.x).toBe(layout.left);
    // An hour is an eighth of the shift's width.
    const hour = (layout.right - layout.left) / 8;
    expect(first!.width).toBeCloseTo(hour);
    expect(second!.x).toBeCloseTo(layout.left + 1.5 * hour);
    expect(layout.lanes[1]!.y).toBeGreaterThan(layout.lanes[0]!.y);
  });

  it('lays the headroom strip below the lanes with a tone per interval covering the shift', () => {
    expect(layout.strip.y).toBeGreaterThan(layout.lanes[1]!.y);
    expect(layout.strip.segments.map((segment) => segment.tone)).toEqual(['low', 'none', 'ok']);
    const last = layout.strip.segments.at(-1)!;
    expect(last.x + last.width).toBeCloseTo(layout.right);
  });

  it('labels ticks with the UTC clock and draws now inside the shift only', () => {
    expect(layout.ticks[0]!.label).toBe('08:00');
    expect(layout.ticks.at(-1)!.label).toBe('16:00');
    expect(layout.nowX).toBeCloseTo(layout.left + 2 * ((layout.right - layout.left) / 8));
    expect(layoutTimeline(PLAN, 1000, new Date('2026-11-27T17:00:00Z')).nowX).toBeNull();
  });

  it('puts ticks on the clock’s whole hours when the shift starts between them', () => {
    const odd = layoutTimeline({ ...PLAN, shift_start: '2026-11-27T05:19:00Z' }, 1000);
    expect(odd.ticks.map((tick) => tick.label)).toEqual([
      '06:00',
      '07:00',
      '08:00',
      '09:00',
      '10:00',
      '11:00',
      '12:00',
      '13:00',
    ]);
    const hour = (odd.right - odd.left) / 8;
    expect(odd.ticks[0]!.x).toBeCloseTo(odd.left + (41 / 60) * hour);
  });
});
