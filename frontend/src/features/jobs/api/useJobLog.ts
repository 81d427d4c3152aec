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
  // When the job ends, its last lines are read: at once if the log is shown, else when it is next
  // opened. Invalidating (not refetching) covers both: a closed log's cached lines would otherwise
  // stay fresh for the client's staleTime, and reopening it would show them without the end.
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) void queryClient.invalidateQueries({ queryKey: jobLogQueryKey(jobId) });
    wasActive.current = active;
  }, [active, jobId, queryClient]);
  return query;
}
