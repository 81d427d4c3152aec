import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { TodayAnswer } from './types';
import { workOrdersQueryKey } from './useWorkOrders';

/**
 * GET /api/work-orders/today/: the user's visits of the newest plan naming them (`user` undefined:
 * the requesting user). Under the work orders' key, so starting or finishing one refreshes the day;
 * read again every minute, as orders change on other phones.
 */
export function useToday(user: string | undefined) {
  return useQuery({
    queryKey: [...workOrdersQueryKey, 'list', 'today', { user }],
    queryFn: ({ signal }) =>
      apiClient.get<TodayAnswer>('/api/work-orders/today/', user ? { user } : undefined, { signal }),
    refetchInterval: 60_000,
  });
}
