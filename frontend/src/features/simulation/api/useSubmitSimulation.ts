import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import { SIMULATION_KIND, type SimulationJob, type SimulationParams } from './types';

/** POST /api/jobs/ with kind corruption.simulate; a 400 lists every problem of the params. */
export function useSubmitSimulation() {
  const queryClient = useQueryClient();
  return useMutation<SimulationJob, Error, { fabric: number; params: SimulationParams }>({
    mutationFn: ({ fabric, params }) =>
      apiClient.post<SimulationJob>('/api/jobs/', { kind: SIMULATION_KIND, fabric, params }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['jobs'] }),
  });
}
