import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { Job } from './types';

/** POST /api/jobs/{id}/cancel/ */
export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation<Job, Error, number>({
    mutationFn: (jobId) => apiClient.post<Job>(`/api/jobs/${jobId}/cancel/`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['jobs'] }),
  });
}
