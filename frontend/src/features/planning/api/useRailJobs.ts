import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { jobsPollInterval } from '@/features/jobs';
import { apiClient, type Page } from '@/lib/api-client';

import type { JobRow } from './types';

/** GET /api/jobs/?kind=rail.plan|rail.classes: the newest jobs of a kind, polled while one runs. */
export function useRailJobs(kind: string, { limit }: { limit: number }) {
  return useQuery({
    queryKey: ['jobs', 'list', { kind, limit }],
    queryFn: ({ signal }) => apiClient.get<Page<JobRow>>('/api/jobs/', { kind, limit }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobsPollInterval(query.state.data?.results),
  });
}
