/** The plan page's form and how a plan's totals and leftovers read. */
import { formatCount, formatPercent } from '@/lib/format';

import type { AssignableUser, LeftForLater, MaintenancePlan, PlanParams } from './api/types';
import { TODAY_ROLES } from './roles';
import { formatPenalty } from './workOrders';

export interface PlanDayForm {
  fabric: string;
  assignees: string[];
  /** "2026-11-27T08:00", read as UTC (every time on the site is UTC). */
  shiftStart: string;
  shiftHours: string;
}

/** The shift starts now, to the minute, in UTC: the value a datetime-local input holds. */
export function minuteInputValue(now: Date): string {
  return now.toISOString().slice(0, 16);
}

export function initialPlanDayForm(now: Date = new Date()): PlanDayForm {
  return { fabric: '', assignees: [], shiftStart: minuteInputValue(now), shiftHours: '8' };
}

export interface PlanAssignee {
  username: string;
  /** "tina (Tina Tech) — technician" */
  label: string;
}

/**
 * Who may be sent on the floor, technicians first, then operators, then admins, each with the role that makes
 * them assignable. An admin (superusers hold every role) reads "admin", whatever else they hold.
 */
export function planAssignees(users: readonly AssignableUser[]): PlanAssignee[] {
  const floorRole = (user: AssignableUser) =>
    user.is_admin ? 'admin' : (TODAY_ROLES.find((role) => user.roles.includes(role)) ?? 'admin');
  return users
    .map((user) => ({ user, role: floorRole(user) }))
    .sort(
      (a, b) =>
        TODAY_ROLES.indexOf(a.role) - TODAY_ROLES.indexOf(b.role) || a.user.username.localeCompare(b.user.username),
    )
    .map(({ user, role }) => ({
      username: user.username,
      label: `${user.full_name ? `${user.username} (${user.full_name})` : user.username} — ${role}`,
    }));
}

const MINUTE_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** The job's params, or every problem of the form at once (the server checks them again and lists its own). */
export function buildPlanDay(form: PlanDayForm): { fabric?: number; params?: PlanParams; problems: string[] } {
  const problems: string[] = [];
  const fabric = Number(form.fabric);
  if (!form.fabric || !Number.isInteger(fabric) || fabric <= 0) problems.push('Choose a fabric.');
  if (form.assignees.length === 0) problems.push('Choose at least one technician.');
  const start = new Date(`${form.shiftStart}:00Z`);
  if (!MINUTE_INPUT.test(form.shiftStart) || Number.isNaN(start.getTime())) {
    problems.push('Shift start must be a date and time (UTC).');
  }
  const hours = Number(form.shiftHours);
  if (form.shiftHours.trim() === '' || !Number.isFinite(hours) || hours <= 0 || hours > 24) {
    problems.push('Shift hours must be a number above 0 and at most 24.');
  }
  if (problems.length > 0) return { problems };
  return {
    fabric,
    params: { assignees: [...form.assignees], shift_start: start.toISOString(), shift_hours: hours },
    problems,
  };
}

/**
 * "1,310.4" penalty-hours, as the job's summary writes them; below 100 three significant digits
 * ("0.0412", "3.2e-5"), since a fabric with little corruption has totals far under one.
 */
export function formatPenaltyHours(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return Math.abs(value) >= 100 ? formatCount(Number(value.toFixed(1))) : formatPenalty(value);
}

export interface PlanTotals {
  plan: string;
  fifo: string;
  /** "41.2% less than first in first out", or that it is no better. */
  saving: string;
  /** "Proven optimal" or "Within 3.1% of the best possible plan". */
  quality: string;
}

export function planTotals(
  plan: Pick<MaintenancePlan, 'expected_penalty_hours' | 'fifo_penalty_hours' | 'proven_optimal' | 'gap'>,
): PlanTotals {
  const { expected_penalty_hours: planned, fifo_penalty_hours: fifo } = plan;
  const saving =
    fifo <= 0
      ? 'Nothing to save: no open order carries a penalty'
      : planned < fifo
        ? `${formatPercent((fifo - planned) / fifo)} less than first in first out`
        : 'No less than first in first out';
  return {
    plan: formatPenaltyHours(planned),
    fifo: formatPenaltyHours(fifo),
    saving,
    quality: plan.proven_optimal ? 'Proven optimal' : `Within ${formatPercent(plan.gap)} of the best possible plan`,
  };
}

export const LEFT_FOR_LATER_LABELS: Record<LeftForLater['reason'], string> = {
  longer_than_shift: 'Longer than the shift',
  never_safe: 'Never safe to take down',
  restoration_dearer: 'Its restoration costs more than waiting',
  no_penalty: 'Nothing gained today',
  no_room: 'No room left in the shift',
};

export function leftForLaterLabel(reason: string): string {
  return reason in LEFT_FOR_LATER_LABELS ? LEFT_FOR_LATER_LABELS[reason as LeftForLater['reason']] : reason;
}

export interface LeftOrder {
  workOrder: number;
  /** Why, in words; null when the plan does not say (a plan made before reasons were given). */
  reason: string | null;
  detail: string;
}

/** The orders the plan leaves for later (`unscheduled`), each with its reason when the plan gives one. */
export function leftOrders(plan: Pick<MaintenancePlan, 'unscheduled' | 'left_for_later'>): LeftOrder[] {
  const reasons = new Map((plan.left_for_later ?? []).map((left) => [left.work_order, left]));
  return plan.unscheduled.map((workOrder) => {
    const left = reasons.get(workOrder);
    return { workOrder, reason: left ? leftForLaterLabel(left.reason) : null, detail: left?.detail ?? '' };
  });
}
