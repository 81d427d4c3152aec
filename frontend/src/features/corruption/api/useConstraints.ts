import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { CapacityConstraints } from './types';

export function constraintsKey(fabricId: number) {
  return ['fabrics', 'constraints', fabricId] as const;
}

/** GET /api/fabrics/{id}/constraints/: the default and the per-ToR overrides. */
export function useConstraints(fabricId: number) {
  return useQuery({
    queryKey: constraintsKey(fabricId),
    queryFn: ({ signal }) =>
      apiClient.get<CapacityConstraints>(`/api/fabrics/${fabricId}/constraints/`, undefined, { signal }),
  });
}
