import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { ScheduleJob, ScheduleRequest } from './types';

/** POST /api/circuit-schedules/: starts a circuits.schedule job (202); a 400 lists every problem. */
export function useSubmitSchedule() {
  const queryClient = useQueryClient();
  return useMutation<ScheduleJob, Error, ScheduleRequest>({
    mutationFn: (body) => apiClient.post<ScheduleJob>('/api/circuit-schedules/', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['circuit-schedules'] }),
        queryClient.invalidateQueries({ queryKey: ['jobs'] }),
      ]),
  });
}
