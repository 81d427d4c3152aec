import type { CurrentUser } from '@/features/auth';

/** Who may start a simulation: the `corruption.simulate` job kind's roles (admins may do anything). */
export const SIMULATION_ROLES = ['planner', 'operator', 'admin'] as const;

export function canRunSimulations(user: CurrentUser | undefined): boolean {
  if (!user) return false;
  return user.is_admin || SIMULATION_ROLES.some((role) => user.roles.includes(role));
}
