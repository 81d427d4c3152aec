import { useTicketAction } from './ticketMutation';
import type { ActResponse, RecordActionInput } from './types';

/** POST /api/tickets/{id}/act/: the action taken; the link is enabled again and validated. */
export function useRecordAction(ticketId: number) {
  return useTicketAction<RecordActionInput, ActResponse>(ticketId, 'act');
}
