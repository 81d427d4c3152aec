import { useTicketAction } from './ticketMutation';

/** POST /api/tickets/{id}/comment/ */
export function useCommentOnTicket(ticketId: number) {
  return useTicketAction<{ text: string }>(ticketId, 'comment');
}
