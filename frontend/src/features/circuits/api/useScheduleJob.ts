import { useQuery } from '@tanstack/react-query';

import { fetchJobOfKind, jobOfKindQueryKey } from '@/features/jobs/api/fetchJobOfKind';
import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';

import type { ScheduleJob } from './types';

const KIND = 'circuits.schedule';

/** GET /api/jobs/{id}/ of a circuit schedule: polled every second until the job ends; the result
 * comes with the job. A job of another kind is an error. */
export function useScheduleJob(jobId: number) {
  return useQuery({
    queryKey: jobOfKindQueryKey(jobId, KIND),
    queryFn: ({ signal }) => fetchJobOfKind<ScheduleJob>(jobId, KIND, signal),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
