import { useTicketAction } from './ticketMutation';

/** POST /api/tickets/{id}/start/: open or reopened → in progress (409 otherwise). */
export function useStartTicket(ticketId: number) {
  return useTicketAction<void>(ticketId, 'start');
}
