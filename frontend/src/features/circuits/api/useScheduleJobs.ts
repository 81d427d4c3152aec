import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { jobsPollInterval } from '@/features/jobs';
import { apiClient, type Page } from '@/lib/api-client';

import type { ScheduleJobBrief } from './types';

/** GET /api/circuit-schedules/?fabric=: the newest schedule jobs, polled while one runs. */
export function useScheduleJobs(fabric: number | null, limit: number) {
  return useQuery({
    queryKey: ['circuit-schedules', { fabric, limit }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<ScheduleJobBrief>>('/api/circuit-schedules/', { fabric, limit }, { signal }),
    enabled: fabric !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => jobsPollInterval(query.state.data?.results),
  });
}
