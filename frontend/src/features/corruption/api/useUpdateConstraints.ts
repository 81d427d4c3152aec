import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { CapacityConstraints, ConstraintsAnswer, ConstraintsPatch } from './types';
import { constraintsKey } from './useConstraints';

/**
 * PATCH /api/fabrics/{id}/constraints/: only what is named changes (null clears an override);
 * 400 lists every problem. The change re-runs the optimizer, so capacity and decisions refresh.
 */
export function useUpdateConstraints(fabricId: number) {
  const queryClient = useQueryClient();
  return useMutation<ConstraintsAnswer, Error, ConstraintsPatch>({
    mutationFn: (patch) => apiClient.patch<ConstraintsAnswer>(`/api/fabrics/${fabricId}/constraints/`, patch),
    onSuccess: async (answer) => {
      const constraints: CapacityConstraints = {
        fabric: answer.fabric,
        default: answer.default,
        overrides: answer.overrides,
        tors: answer.tors,
      };
      queryClient.setQueryData(constraintsKey(fabricId), constraints);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['fabrics', 'capacity', fabricId] }),
        queryClient.invalidateQueries({ queryKey: ['fabrics', 'detail', fabricId] }),
      ]);
    },
  });
}
