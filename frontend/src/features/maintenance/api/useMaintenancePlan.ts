import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { type Job, useJobOfKind } from '@/features/jobs';
import { apiClient, type Page } from '@/lib/api-client';

import type { MaintenancePlan, PlanParams } from './types';

export const PLAN_KIND = 'tickets.plan';

/** A tickets.plan job with its result narrowed to the plan. */
export type PlanJob = Omit<Job, 'result'> & { result: MaintenancePlan | null };

/** POST /api/jobs/ kind tickets.plan; a 400 lists every problem of the params. */
export function useSubmitPlan() {
  const queryClient = useQueryClient();
  return useMutation<Job, Error, { fabric: number; params: PlanParams }>({
    mutationFn: ({ fabric, params }) => apiClient.post<Job>('/api/jobs/', { kind: PLAN_KIND, fabric, params }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['jobs'] }),
  });
}

/** GET /api/jobs/?kind=tickets.plan&fabric=..&state=succeeded: the id of the fabric's newest plan (jobs are newest first). */
export function useNewestPlanId(fabric: number | undefined) {
  return useQuery({
    queryKey: ['jobs', 'list', { kind: PLAN_KIND, fabric, state: 'succeeded', limit: 1 }],
    queryFn: async ({ signal }) => {
      const page = await apiClient.get<Page<Pick<Job, 'id'>>>(
        '/api/jobs/',
        { kind: PLAN_KIND, fabric, state: 'succeeded', limit: 1 },
        { signal },
      );
      return page.results[0]?.id ?? null;
    },
    enabled: fabric !== undefined,
  });
}

/** GET /api/jobs/{id}/ of a plan, followed until it ends. */
export function usePlanJob(jobId: number) {
  return useJobOfKind<PlanJob>(jobId, PLAN_KIND);
}
