import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { OptimizerJob } from './types';

/** POST /api/fabrics/{id}/optimize/: run CorrOpt's optimizer now; 202 with its `corruption.optimize` job. */
export function useRunOptimizer(fabricId: number) {
  const queryClient = useQueryClient();
  return useMutation<OptimizerJob, Error, void>({
    mutationFn: () => apiClient.post<OptimizerJob>(`/api/fabrics/${fabricId}/optimize/`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['jobs'] });
    },
  });
}
