import { useQuery } from '@tanstack/react-query';

import { ACTIVE_POLL_MS, isActive } from '../jobState';

import { fetchJobOfKind, jobOfKindQueryKey } from './fetchJobOfKind';
import type { Job } from './types';

/**
 * GET /api/jobs/{id}/ for a page that shows one kind of job: polled every second until the job ends
 * (the progress bar follows it), and a job of another kind is an error (fetchJobOfKind). An ended
 * job's result never changes and may be tens of MB, so it is not fetched again on refocus.
 */
export function useJobOfKind<J extends Pick<Job, 'kind' | 'state'>>(jobId: number, kind: string) {
  const ended = (job: J | undefined) => job !== undefined && !isActive(job);
  return useQuery({
    queryKey: jobOfKindQueryKey(jobId, kind),
    queryFn: ({ signal }) => fetchJobOfKind<J>(jobId, kind, signal),
    staleTime: (query) => (ended(query.state.data) ? Infinity : 0),
    refetchInterval: (query) => (ended(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
