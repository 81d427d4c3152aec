import type { CurrentUser } from '@/features/auth';

/** Mirrors the API's write roles (contract-circuits §roles); admins may do anything. */
function hasAnyRole(user: CurrentUser | undefined, roles: readonly string[]): boolean {
  if (!user) return false;
  return user.is_admin || user.roles.includes('admin') || roles.some((role) => user.roles.includes(role));
}

/** Circuit switches are a planner's: create, edit, delete. */
export function canEditCircuitSwitches(user: CurrentUser | undefined): boolean {
  return hasAnyRole(user, ['planner']);
}

/** Planners and operators upload demand and start schedules. */
export function canPlanCircuits(user: CurrentUser | undefined): boolean {
  return hasAnyRole(user, ['planner', 'operator']);
}
