import type { CurrentUser } from '@/features/auth';

/** Who may run `rail.plan` and `rail.classes` jobs (contract §2; admins may do anything). */
export const PLANNING_ROLES = ['planner', 'operator', 'admin'] as const;

export function canRunPlanning(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || PLANNING_ROLES.some((role) => user.roles.includes(role));
}
