/** How a technician's day reads: the plan's age and staleness, each visit's place and state. */
import { formatAge, formatTime, formatTimeRange } from '@/lib/format';

import type { TodayPlan, TodayVisit, WorkOrderLocation } from './api/types';

/** "Planned 45 min ago (2026-11-27 07:15 UTC) for the shift 2026-11-27 08:00–16:00 UTC, demo-fb." */
export function planAgeText(plan: TodayPlan, now: Date = new Date()): string {
  return `Planned ${formatAge(plan.planned_at, now)} ago (${formatTime(plan.planned_at)}) for the shift ${formatTimeRange(
    plan.shift_start,
    plan.shift_end,
  )}, ${plan.fabric.name}.`;
}

/**
 * The warning over a stale plan: what changed comes from the server, one sentence each; what to do
 * is ours. A plan the server calls stale without saying why still gets the warning.
 */
export function staleWarning(plan: TodayPlan): { title: string; reasons: string[] } | null {
  if (!plan.stale) return null;
  return {
    title: 'This plan is out of date: check each order’s state on its page, and ask an operator to plan the day again.',
    reasons: plan.stale_reasons,
  };
}

/**
 * The visit's time window: "2026-11-27 08:00–09:30 UTC"; an order in progress that no plan gave the
 * user has no end: "In progress since 2026-11-27 08:12 UTC (not from the plan)".
 */
export function visitWindow(visit: Pick<TodayVisit, 'start_at' | 'end_at' | 'planned'>): string {
  if (!visit.planned) return `In progress since ${formatTime(visit.start_at)} (not from the plan)`;
  return formatTimeRange(visit.start_at, visit.end_at);
}

export interface PlaceLine {
  label: string;
  value: string;
  testId: string;
}

/**
 * Where the visit is, in the order a technician walks it: rack, switch and port of the end worked
 * on, then the other end of a cable (worked on too). No location: one line saying so.
 */
export function placeLines(location: WorkOrderLocation | null): PlaceLine[] {
  if (location === null) return [{ label: 'Where', value: 'not recorded (open the work order)', testId: 'today-rack' }];
  // The row first: it is where the technician walks to (the server's rule: a pod's row, else the rack name's).
  const lines: PlaceLine[] = [
    { label: 'Row', value: location.row, testId: 'today-row' },
    { label: 'Rack', value: location.rack || '—', testId: 'today-rack' },
    { label: 'Switch', value: `${location.switch} ${location.port}`, testId: 'today-switch' },
  ];
  if (location.far !== null) {
    const far = location.far;
    lines.push({
      label: 'Other end',
      value: far.rack ? `${far.rack}, ${far.switch} ${far.port}` : `${far.switch} ${far.port}`,
      testId: 'today-far',
    });
  }
  return lines;
}

/** "2 of 5 done" beside the list; nothing to count without visits. */
export function progressText(visits: readonly Pick<TodayVisit, 'done'>[]): string {
  if (visits.length === 0) return '';
  const done = visits.filter((visit) => visit.done).length;
  return `${done} of ${visits.length} done`;
}
