import { useQuery } from '@tanstack/react-query';

import type { Job } from '@/features/jobs/api/types';
import { fetchJobOfKind } from '@/features/jobs/api/fetchJobOfKind';
import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';

/**
 * GET /api/jobs/{id}/ of a job of this kind: polled every second until the job ends (the progress
 * bar follows it); a job of another kind is an error. `jobId` null: nothing to load. A finished
 * job's result never changes and may be large, so it is not fetched again on refocus.
 */
export function useRailJob<T extends Omit<Job, 'result'>>(jobId: number | null, kind: string) {
  return useQuery({
    queryKey: ['jobs', 'detail', jobId, kind],
    queryFn: ({ signal }) => fetchJobOfKind<T>(jobId!, kind, signal),
    enabled: jobId !== null,
    staleTime: (query) => (query.state.data && !isActive(query.state.data) ? Infinity : 0),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
