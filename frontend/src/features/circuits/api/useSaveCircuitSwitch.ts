import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { CircuitSwitch, CircuitSwitchInput } from './types';

/** POST /api/circuit-switches/ or PATCH /api/circuit-switches/{id}/; a 400 lists every problem. */
export function useSaveCircuitSwitch() {
  const queryClient = useQueryClient();
  return useMutation<CircuitSwitch, Error, { id: number | null; body: CircuitSwitchInput }>({
    mutationFn: ({ id, body }) =>
      id === null
        ? apiClient.post<CircuitSwitch>('/api/circuit-switches/', body)
        : apiClient.patch<CircuitSwitch>(`/api/circuit-switches/${id}/`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['circuit-switches'] }),
  });
}
