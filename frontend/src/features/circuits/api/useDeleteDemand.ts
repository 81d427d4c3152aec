import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

/** DELETE /api/demands/{id}/; a 409 says which queued or running schedule still needs it. */
export function useDeleteDemand() {
  const queryClient = useQueryClient();
  return useMutation<void, Error, number>({
    mutationFn: (id) => apiClient.delete<void>(`/api/demands/${id}/`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['demands'] }),
        queryClient.invalidateQueries({ queryKey: ['circuit-schedules'] }),
      ]),
  });
}
