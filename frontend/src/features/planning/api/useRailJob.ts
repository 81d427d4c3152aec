import { useQuery } from '@tanstack/react-query';

import type { Job } from '@/features/jobs/api/types';
import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';
import { apiClient } from '@/lib/api-client';

/**
 * GET /api/jobs/{id}/: polled every second until the job ends (the progress bar follows it).
 * `jobId` null: nothing to load (no plan picked to compare with). A finished job's result never
 * changes and may be megabytes (a plan's per-link rows), so it is not fetched again on refocus.
 */
export function useRailJob<T extends Omit<Job, 'result'>>(jobId: number | null) {
  return useQuery({
    queryKey: ['jobs', 'detail', jobId],
    queryFn: ({ signal }) => apiClient.get<T>(`/api/jobs/${jobId}/`, undefined, { signal }),
    enabled: jobId !== null,
    staleTime: (query) => (query.state.data && !isActive(query.state.data) ? Infinity : 0),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
