/** What other features may use of auth: the current user and the role checks. */
export type { CurrentUser } from './api/types';
export { useCurrentUser } from './api/useCurrentUser';
export { canCancelJob, canChangeLinkState, canEditConstraints, canOverrideCapacity, canWorkTickets } from './roles';
