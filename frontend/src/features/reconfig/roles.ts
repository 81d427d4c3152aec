import type { CurrentUser } from '@/features/auth';

/** Who starts `sharebackup.plan` and `larry.run` jobs (admins may do anything); everyone reads them. */
export const RECONFIG_JOB_ROLES = ['planner', 'operator', 'admin'] as const;

export function canRunReconfigJobs(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || RECONFIG_JOB_ROLES.some((role) => user.roles.includes(role));
}
