import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { jobsPollInterval } from '@/features/jobs';
import { apiClient, type Page } from '@/lib/api-client';

import { SIMULATION_KIND, type SimulationJobBrief } from './types';

/** GET /api/jobs/?kind=corruption.simulate: the newest simulations, polled while one runs. */
export function useSimulationJobs({ limit }: { limit: number }) {
  return useQuery({
    queryKey: ['jobs', 'list', { kind: SIMULATION_KIND, limit }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<SimulationJobBrief>>('/api/jobs/', { kind: SIMULATION_KIND, limit, brief: 1 }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobsPollInterval(query.state.data?.results),
  });
}
