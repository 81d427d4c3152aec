import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FinishedWorkOrder, FinishInput } from './types';
import { afterVisitChange } from './useStartWork';
import { workOrderDetailKey } from './useWorkOrder';

/** POST finish/: repaired (tickets to validation, footprint back, restoration undone) or not repaired. */
export function useFinishWorkOrder(order: { id: number; fabric: number }) {
  const queryClient = useQueryClient();
  return useMutation<FinishedWorkOrder, Error, FinishInput>({
    mutationFn: (body) => apiClient.post<FinishedWorkOrder>(`/api/work-orders/${order.id}/finish/`, body),
    onSuccess: async (finished) => {
      queryClient.setQueryData(workOrderDetailKey(order.id), finished);
      await afterVisitChange(queryClient, order);
    },
  });
}
