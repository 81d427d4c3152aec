import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { WorkOrderDetail } from './types';
import { workOrdersQueryKey } from './useWorkOrders';

/** GET /api/work-orders/{id}/: tickets, footprint links, ToRs and the guard's verdict on starting it now. */
export function useWorkOrder(workOrderId: number) {
  return useQuery({
    queryKey: [...workOrdersQueryKey, 'detail', workOrderId],
    queryFn: ({ signal }) => apiClient.get<WorkOrderDetail>(`/api/work-orders/${workOrderId}/`, undefined, { signal }),
  });
}
