import { useQuery } from '@tanstack/react-query';

import { ACTIVE_POLL_MS, isActive, type Job } from '@/features/jobs';
import { apiClient } from '@/lib/api-client';

/** GET /api/jobs/{id}/, polled while the job is queued or running (the optimizer after a change). */
export function useJob(jobId: number | null) {
  return useQuery({
    queryKey: ['jobs', 'detail', jobId],
    queryFn: ({ signal }) => apiClient.get<Job>(`/api/jobs/${jobId}/`, undefined, { signal }),
    enabled: jobId !== null,
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
