import { queryOptions, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { TicketDetail } from './types';
import { ticketsQueryKey } from './useTickets';

export function ticketDetailKey(ticketId: number) {
  return [...ticketsQueryKey, 'detail', ticketId] as const;
}

/**
 * GET /api/tickets/{id}/: both link ends, the recommendation with evidence, steps, comments. The
 * ticket page's index.html preloads this exact URL (backend/lightpath/spa.py): keep them equal.
 */
export function ticketQuery(ticketId: number) {
  return queryOptions({
    queryKey: ticketDetailKey(ticketId),
    queryFn: ({ signal }) => apiClient.get<TicketDetail>(`/api/tickets/${ticketId}/`, undefined, { signal }),
  });
}

export function useTicket(ticketId: number) {
  return useQuery(ticketQuery(ticketId));
}
