import { useTicketAction } from './ticketMutation';

/** POST /api/tickets/{id}/assign/: a username, or null to unassign (400 for an unknown user). */
export function useAssignTicket(ticketId: number) {
  return useTicketAction<{ username: string | null }>(ticketId, 'assign');
}
