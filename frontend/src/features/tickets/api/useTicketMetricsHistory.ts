import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { MetricsBucket, TicketMetricsHistory } from './types';
import { ticketsQueryKey } from './useTickets';

/** GET /api/tickets/metrics/history/: repair metrics per day or week over the last `days` days. */
export function useTicketMetricsHistory(fabricId: number | undefined, days: number, bucket: MetricsBucket) {
  return useQuery({
    queryKey: [...ticketsQueryKey, 'metrics-history', fabricId ?? null, days, bucket],
    queryFn: ({ signal }) => {
      // Whole UTC days up to the end of today, as the server's default range.
      const to = new Date();
      to.setUTCHours(24, 0, 0, 0);
      const from = new Date(to.getTime() - days * 86_400_000);
      return apiClient.get<TicketMetricsHistory>(
        '/api/tickets/metrics/history/',
        { fabric: fabricId, from: from.toISOString(), to: to.toISOString(), bucket },
        { signal },
      );
    },
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}
