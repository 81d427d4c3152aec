import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { RackOverview } from './types';

export function useRack(fabricId: number, rack: string) {
  return useQuery({
    queryKey: ['racks', fabricId, rack],
    queryFn: ({ signal }) =>
      apiClient.get<RackOverview>(`/api/fabrics/${fabricId}/racks/${encodeURIComponent(rack)}/`, undefined, { signal }),
  });
}
