import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { Fabric } from './types';

export function useFabric(fabricId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['fabrics', 'detail', fabricId],
    queryFn: ({ signal }) => apiClient.get<Fabric>(`/api/fabrics/${fabricId}/`, undefined, { signal }),
    enabled,
  });
}
