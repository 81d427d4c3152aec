import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { Job } from '@/features/jobs';
import { apiClient } from '@/lib/api-client';

import type { ClassesParams, PlanParams } from './types';

type Submission =
  | { kind: 'rail.plan'; fabric: number | null; params: PlanParams }
  | { kind: 'rail.classes'; fabric: number; params: ClassesParams };

/** POST /api/jobs/ with kind rail.plan or rail.classes; a 400 lists every problem of the params. */
export function useSubmitRailJob() {
  const queryClient = useQueryClient();
  return useMutation<Job, Error, Submission>({
    mutationFn: (submission) => apiClient.post<Job>('/api/jobs/', submission),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['jobs'] }),
  });
}
