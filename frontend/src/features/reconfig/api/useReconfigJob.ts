import { useQuery } from '@tanstack/react-query';

import { fetchJobOfKind, jobOfKindQueryKey } from '@/features/jobs/api/fetchJobOfKind';
import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';

import type { ReconfigJob } from './types';

/** GET /api/jobs/{id}/ of a job of this kind: polled every second until the job ends (the progress
 * bar follows it); a job of another kind is an error. */
export function useReconfigJob<R>(jobId: number, kind: 'sharebackup.plan' | 'larry.run') {
  return useQuery({
    queryKey: jobOfKindQueryKey(jobId, kind),
    queryFn: ({ signal }) => fetchJobOfKind<ReconfigJob<R>>(jobId, kind, signal),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
