import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { TicketDetail } from './types';
import { ticketDetailKey } from './useTicket';
import { ticketsQueryKey } from './useTickets';

/**
 * A POST to one of a ticket's actions. Every action answers with the ticket's new detail, which
 * replaces the cached one at once; the queue, the link's state and the work orders are fetched again.
 */
export function useTicketAction<TBody, TResult extends TicketDetail = TicketDetail>(ticketId: number, action: string) {
  const queryClient = useQueryClient();
  return useMutation<TResult, Error, TBody>({
    mutationFn: (body) => apiClient.post<TResult>(`/api/tickets/${ticketId}/${action}/`, body ?? {}),
    onSuccess: async (ticket) => {
      queryClient.setQueryData(ticketDetailKey(ticketId), ticket);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [...ticketsQueryKey, 'list'] }),
        queryClient.invalidateQueries({ queryKey: [...ticketsQueryKey, 'counts'] }),
        queryClient.invalidateQueries({ queryKey: ['links'] }),
        // An action ends the visit its work order stood for (trial 29: "Work order #1 (open)" until a reload).
        queryClient.invalidateQueries({ queryKey: ['work-orders'] }),
      ]);
    },
  });
}
