import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { jobsPollInterval } from '@/features/jobs';
import { apiClient, type Page } from '@/lib/api-client';

import type { ReconfigJobBrief } from './types';

/** GET /api/jobs/?kind=…: the newest jobs of one kind, without their (large) results, polled while one runs. */
export function useReconfigJobs(kind: string, { limit }: { limit: number }) {
  return useQuery({
    queryKey: ['jobs', 'list', { kind, limit }],
    queryFn: ({ signal }) => apiClient.get<Page<ReconfigJobBrief>>('/api/jobs/', { kind, limit, brief: 1 }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobsPollInterval(query.state.data?.results),
  });
}
