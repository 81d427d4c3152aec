import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FabricCapacity } from './types';

export function useFabricCapacity(fabricId: number) {
  return useQuery({
    queryKey: ['fabrics', 'capacity', fabricId],
    queryFn: ({ signal }) => apiClient.get<FabricCapacity>(`/api/fabrics/${fabricId}/capacity/`, undefined, { signal }),
    staleTime: 30 * 1000,
  });
}
