import type { CurrentUser } from './api/types';

/** Mirrors the API: a job may be cancelled by whoever started it, an operator or an admin. */
export function canCancelJob(user: CurrentUser | undefined, job: { created_by: string | null }): boolean {
  if (!user) return false;
  return (
    user.is_admin || user.roles.includes('operator') || user.roles.includes('admin') || job.created_by === user.username
  );
}

function hasAnyRole(user: CurrentUser | undefined, roles: readonly string[]): boolean {
  if (!user) return false;
  return user.is_admin || user.roles.includes('admin') || roles.some((role) => user.roles.includes(role));
}

/** Mirrors /api/tickets/ write_roles: technicians and operators (and admins) start, act, comment, assign. */
export function canWorkTickets(user: CurrentUser | undefined): boolean {
  return hasAnyRole(user, ['technician', 'operator']);
}

/** Capacity constraints are an operator's call (issue #5); admins may do anything. */
export function canEditConstraints(user: CurrentUser | undefined): boolean {
  return hasAnyRole(user, ['operator']);
}

/** Mirrors docs/capacity-guard.md: operators and admins disable and enable links, drain switches and run the
 * optimizer. */
export function canChangeLinkState(user: CurrentUser | undefined): boolean {
  return hasAnyRole(user, ['operator']);
}

/** Only admins may push a change through the capacity guard (`override_capacity`). */
export function canOverrideCapacity(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || user.roles.includes('admin');
}

/**
 * Where a user lands after login when no page was asked for: a technician on their day's visits
 * (Today), everyone else on the fabrics.
 */
export function landingPath(user: Pick<CurrentUser, 'roles'> | undefined): string {
  return user?.roles.includes('technician') ? '/today' : '/fabrics';
}
