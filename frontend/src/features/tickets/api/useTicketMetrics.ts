import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { TicketMetrics } from './types';
import { ticketsQueryKey } from './useTickets';

/** GET /api/tickets/metrics/?fabric=: success rates, repair time, open tickets, what the fabric suffers now. */
export function useTicketMetrics(fabricId: number | undefined) {
  return useQuery({
    queryKey: [...ticketsQueryKey, 'metrics', fabricId ?? null],
    queryFn: ({ signal }) => apiClient.get<TicketMetrics>('/api/tickets/metrics/', { fabric: fabricId }, { signal }),
    refetchInterval: 30_000,
  });
}
