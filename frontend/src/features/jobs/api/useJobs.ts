import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import { jobsPollInterval } from '../jobState';
import type { JobRow, JobState } from './types';

export function useJobs({ state, limit, offset }: { state?: JobState; limit: number; offset: number }) {
  return useQuery({
    queryKey: ['jobs', 'list', { state, limit, offset }],
    queryFn: ({ signal }) => apiClient.get<Page<JobRow>>('/api/jobs/', { state, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobsPollInterval(query.state.data?.results),
  });
}
