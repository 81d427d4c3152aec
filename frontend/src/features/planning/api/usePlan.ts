import { useQuery } from '@tanstack/react-query';

import { ACTIVE_POLL_MS, isActive } from '@/features/jobs';
import { apiClient } from '@/lib/api-client';

import type { PlanJob } from './types';

/**
 * GET /api/rail/plans/{id}/: a rail.plan job with its result but not its per-link rows (a 100K-link
 * plan's are 20 MB; usePlanLinks pages through them). Polled every second until the job ends.
 * `jobId` null: nothing to load (no plan picked to compare with).
 */
export function usePlan(jobId: number | null) {
  return useQuery({
    queryKey: ['rail', 'plan', jobId],
    queryFn: ({ signal }) => apiClient.get<PlanJob>(`/api/rail/plans/${jobId}/`, undefined, { signal }),
    enabled: jobId !== null,
    staleTime: (query) => (query.state.data && !isActive(query.state.data) ? Infinity : 0),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : ACTIVE_POLL_MS),
  });
}
