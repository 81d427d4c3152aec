import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { Ticket, TicketQuery } from './types';

export const ticketsQueryKey = ['tickets'] as const;

/** GET /api/tickets/: one page of the queue. */
export function useTickets(
  query: TicketQuery,
  { limit, offset, enabled = true }: { limit: number; offset: number; enabled?: boolean },
) {
  return useQuery({
    queryKey: [...ticketsQueryKey, 'list', { ...query, limit, offset }],
    queryFn: ({ signal }) => apiClient.get<Page<Ticket>>('/api/tickets/', { ...query, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
    // The workers open tickets while the queue is on screen.
    refetchInterval: 30_000,
  });
}
