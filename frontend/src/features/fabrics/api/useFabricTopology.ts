import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FabricTopology } from './types';

export function useFabricTopology(fabricId: number) {
  return useQuery({
    queryKey: ['fabrics', 'topology', fabricId],
    queryFn: ({ signal }) => apiClient.get<FabricTopology>(`/api/fabrics/${fabricId}/topology/`, undefined, { signal }),
    // A 100K-link topology is megabytes; link state changes are picked up on refocus.
    staleTime: 30 * 1000,
  });
}
