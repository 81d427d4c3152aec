import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { WorkOrder, WorkOrderQuery } from './types';

export const workOrdersQueryKey = ['work-orders'] as const;

/** GET /api/work-orders/: one page of the list. */
export function useWorkOrders(query: WorkOrderQuery, { limit, offset }: { limit: number; offset: number }) {
  return useQuery({
    queryKey: [...workOrdersQueryKey, 'list', { ...query, limit, offset }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<WorkOrder>>('/api/work-orders/', { ...query, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
    // Tickets are regrouped into orders by the workers while the list is on screen.
    refetchInterval: 30_000,
  });
}
