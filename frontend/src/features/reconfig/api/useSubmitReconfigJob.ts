import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { Job } from '@/features/jobs';
import { apiClient } from '@/lib/api-client';

import { LARRY_KIND, type LarryParams, SHAREBACKUP_KIND, type ShareBackupParams } from './types';

function useSubmitJob<P>(kind: string) {
  const queryClient = useQueryClient();
  return useMutation<Job, Error, { params: P; fabric?: number | null }>({
    mutationFn: ({ params, fabric = null }) => apiClient.post<Job>('/api/jobs/', { kind, fabric, params }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['jobs'] }),
  });
}

/** POST /api/jobs/ kind sharebackup.plan; a 400 lists every problem (each bad event by index). */
export function useSubmitShareBackupPlan() {
  return useSubmitJob<ShareBackupParams>(SHAREBACKUP_KIND);
}

/** POST /api/jobs/ kind larry.run (a fabric only for telemetry counters); a 400 lists every problem (a file's by line). */
export function useSubmitLarryRun() {
  return useSubmitJob<LarryParams>(LARRY_KIND);
}
