import { useMutation, useQueryClient } from '@tanstack/react-query';

import { invalidateLinkState } from '@/features/links';
import { apiClient } from '@/lib/api-client';

import type { StartInput, StartPreview, WorkOrderDetail } from './types';
import { workOrderDetailKey } from './useWorkOrder';
import { workOrdersQueryKey } from './useWorkOrders';

/** POST start/?dry_run=1: what starting now does (safe, needs a restoration, or blocked). Changes nothing. */
export function useStartPreview(orderId: number) {
  return useMutation<StartPreview, Error, void>({
    mutationFn: () => apiClient.post<StartPreview>(`/api/work-orders/${orderId}/start/`, {}, { query: { dry_run: 1 } }),
  });
}

/**
 * POST start/: the footprint goes out of service (with the restoration, if any) and the tickets start.
 * The answer replaces the cached order; links, tickets and the fabric's capacity are fetched again.
 */
export function useStartWorkOrder(order: { id: number; fabric: number }) {
  const queryClient = useQueryClient();
  return useMutation<WorkOrderDetail, Error, StartInput>({
    mutationFn: (body) => apiClient.post<WorkOrderDetail>(`/api/work-orders/${order.id}/start/`, body),
    onSuccess: async (detail) => {
      queryClient.setQueryData(workOrderDetailKey(order.id), detail);
      await afterVisitChange(queryClient, order);
    },
  });
}

export async function afterVisitChange(
  queryClient: ReturnType<typeof useQueryClient>,
  order: { id: number; fabric: number },
): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: [...workOrdersQueryKey, 'list'] }),
    queryClient.invalidateQueries({ queryKey: ['tickets'] }),
    invalidateLinkState(queryClient, order.fabric),
  ]);
}
