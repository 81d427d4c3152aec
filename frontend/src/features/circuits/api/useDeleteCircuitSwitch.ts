import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

/** DELETE /api/circuit-switches/{id}/; a 409 says which queued or running schedule still needs it. */
export function useDeleteCircuitSwitch() {
  const queryClient = useQueryClient();
  return useMutation<void, Error, number>({
    mutationFn: (id) => apiClient.delete<void>(`/api/circuit-switches/${id}/`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['circuit-switches'] }),
        queryClient.invalidateQueries({ queryKey: ['circuit-schedules'] }),
      ]),
  });
}
