import { useQuery } from '@tanstack/react-query';

import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';
import { apiClient } from '@/lib/api-client';

import type { ScheduleJob } from './types';

/** GET /api/jobs/{id}/: polled every second until the job ends; the result comes with the job. */
export function useScheduleJob(jobId: number) {
  return useQuery({
    queryKey: ['jobs', 'detail', jobId],
    queryFn: ({ signal }) => apiClient.get<ScheduleJob>(`/api/jobs/${jobId}/`, undefined, { signal }),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
