import type { CurrentUser } from '@/features/auth';

/** Who may be assigned visits and so has a day to look at (contract-today §1: operators and admins may go on the floor). */
export const TODAY_ROLES = ['technician', 'operator', 'admin'] as const;

/** Who plans the day and may look at anyone's (the users list and the plan page: operator, planner, admin). */
export const PLAN_ROLES = ['operator', 'planner', 'admin'] as const;

export function mayPlan(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || PLAN_ROLES.some((role) => user.roles.includes(role));
}

/** Whose role has a day to look at (the Today page). */
export function hasToday(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || TODAY_ROLES.some((role) => user.roles.includes(role));
}
