import type { CurrentUser } from './api/types';

/** Roles that may change things; viewers only read (the backend enforces this, the UI hides buttons). */
const WRITER_ROLES = new Set(['technician', 'planner', 'operator', 'admin']);

export function canWrite(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || user.roles.some((role) => WRITER_ROLES.has(role));
}
