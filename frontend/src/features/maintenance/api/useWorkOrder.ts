import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { WorkOrderDetail } from './types';
import { workOrdersQueryKey } from './useWorkOrders';

export function workOrderDetailKey(orderId: number) {
  return [...workOrdersQueryKey, 'detail', orderId] as const;
}

/** GET /api/work-orders/{id}/: tickets, footprint links, the ToRs on them and the guard's dry run. */
export function useWorkOrder(orderId: number) {
  return useQuery({
    queryKey: workOrderDetailKey(orderId),
    queryFn: ({ signal }) => apiClient.get<WorkOrderDetail>(`/api/work-orders/${orderId}/`, undefined, { signal }),
  });
}
