import type { TodayVisit } from './api/types';

/**
 * After finishing `finished`, the visit to go to: the first of the day's visits (plan order, then the
 * orders in progress that are theirs) not done yet, other than this one; none when the day has nothing left.
 */
export function nextVisit(visits: readonly TodayVisit[], finished: number): TodayVisit | undefined {
  return visits.find(
    (visit) => !visit.done && visit.work_order.id !== finished && visit.work_order.state !== 'cancelled',
  );
}
