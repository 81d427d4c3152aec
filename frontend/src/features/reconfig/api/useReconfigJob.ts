import { useQuery } from '@tanstack/react-query';

import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';
import { apiClient } from '@/lib/api-client';

import type { ReconfigJob } from './types';

/** GET /api/jobs/{id}/: polled every second until the job ends (the progress bar follows it). */
export function useReconfigJob<R>(jobId: number) {
  return useQuery({
    queryKey: ['jobs', 'detail', jobId],
    queryFn: ({ signal }) => apiClient.get<ReconfigJob<R>>(`/api/jobs/${jobId}/`, undefined, { signal }),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
