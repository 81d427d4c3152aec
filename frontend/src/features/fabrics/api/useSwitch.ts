import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FabricSwitch } from './types';

/** GET /api/switches/{id}/: the switch panel reads whether it is drained. */
export function useSwitch(switchId: number) {
  return useQuery({
    queryKey: ['switches', 'detail', switchId],
    queryFn: ({ signal }) => apiClient.get<FabricSwitch>(`/api/switches/${switchId}/`, undefined, { signal }),
  });
}
