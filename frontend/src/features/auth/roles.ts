import type { CurrentUser } from './api/types';

/** Mirrors the API: a job may be cancelled by whoever started it, an operator or an admin. */
export function canCancelJob(user: CurrentUser | undefined, job: { created_by: string | null }): boolean {
  if (!user) return false;
  return (
    user.is_admin || user.roles.includes('operator') || user.roles.includes('admin') || job.created_by === user.username
  );
}
