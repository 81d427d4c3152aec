import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { apiClient } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

import { ACTIVE_POLL_MS } from '../jobState';

/** One line of a job's log: GET /api/jobs/{id}/log/ (the server's JobLogEntrySerializer). */
export type JobLogEntry = components['schemas']['JobLogEntry'];

export const jobLogQueryKey = (jobId: number) => ['jobs', jobId, 'log'] as const;

/**
 * A job's log, oldest first. Each read asks only for the entries after the last one held
 * (`?after=`), so polling a long log stays cheap. Polled every second while the job runs, and read
 * once more when it ends (its last lines: how it ended).
 */
export function useJobLog(jobId: number, active: boolean, enabled = true) {
  const queryClient = useQueryClient();
  const queryKey = jobLogQueryKey(jobId);
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const held = queryClient.getQueryData<JobLogEntry[]>(queryKey) ?? [];
      const after = held.at(-1)?.id ?? 0;
      const fresh = await apiClient.get<JobLogEntry[]>(`/api/jobs/${jobId}/log/`, { after }, { signal });
      return Array.isArray(fresh) && fresh.length > 0 ? [...held, ...fresh] : held;
    },
    enabled,
    refetchInterval: active ? ACTIVE_POLL_MS : false,
  });
  const wasActive = useRef(active);
  const { refetch } = query;
  useEffect(() => {
    if (wasActive.current && !active && enabled) void refetch();
    wasActive.current = active;
  }, [active, enabled, refetch]);
  return query;
}
