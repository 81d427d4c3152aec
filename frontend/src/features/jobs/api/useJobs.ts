import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import { jobsPollInterval } from '../jobState';
import type { JobRow, JobState } from './types';

/** GET /api/jobs/: one page, newest first unless `ordering` names a column. */
export function useJobs({
  state,
  ordering,
  limit,
  offset,
}: {
  state?: JobState;
  ordering?: string;
  limit: number;
  offset: number;
}) {
  return useQuery({
    queryKey: ['jobs', 'list', { state, ordering, limit, offset }],
    queryFn: ({ signal }) => apiClient.get<Page<JobRow>>('/api/jobs/', { state, ordering, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobsPollInterval(query.state.data?.results),
  });
}
