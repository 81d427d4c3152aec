import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { CircuitSwitch } from './types';

/** GET /api/circuit-switches/?fabric=: a fabric's optical circuit switches with their attachments. */
export function useCircuitSwitches(fabric: number | null) {
  return useQuery({
    queryKey: ['circuit-switches', { fabric }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<CircuitSwitch>>('/api/circuit-switches/', { fabric, limit: 1000 }, { signal }),
    enabled: fabric !== null,
  });
}
