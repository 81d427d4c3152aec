import { useQuery } from '@tanstack/react-query';

import { fetchJobOfKind, jobOfKindQueryKey } from '@/features/jobs/api/fetchJobOfKind';
import { ACTIVE_POLL_MS, isActive } from '@/features/jobs/jobState';

import type { SimulationJob } from './types';

const KIND = 'corruption.simulate';

/** GET /api/jobs/{id}/ of a simulation: polled every second until the job ends (the progress bar
 * follows it); a job of another kind is an error. */
export function useSimulationJob(jobId: number) {
  return useQuery({
    queryKey: jobOfKindQueryKey(jobId, KIND),
    queryFn: ({ signal }) => fetchJobOfKind<SimulationJob>(jobId, KIND, signal),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
