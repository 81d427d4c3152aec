import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { TicketCounts } from './types';
import { ticketsQueryKey } from './useTickets';

/** GET /api/tickets/counts/: the nav's unresolved and assigned-to-me numbers; refreshed every 30 s
 * and whenever a ticket changes (its mutations invalidate the tickets key). */
export function useTicketCounts() {
  return useQuery({
    queryKey: [...ticketsQueryKey, 'counts'],
    queryFn: ({ signal }) => apiClient.get<TicketCounts>('/api/tickets/counts/', undefined, { signal }),
    refetchInterval: 30_000,
  });
}
