import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { DemandMatrix } from './types';

/** GET /api/demands/{id}/matrix/: one window's rack × rack bytes (at most 400 racks). */
export function useDemandMatrix(
  demand: number | null,
  { window, racks, circuitSwitch }: { window: number; racks: number; circuitSwitch?: number },
) {
  return useQuery({
    queryKey: ['demands', demand, 'matrix', { window, racks, circuitSwitch }],
    queryFn: ({ signal }) =>
      apiClient.get<DemandMatrix>(
        `/api/demands/${demand}/matrix/`,
        { window, racks, circuit_switch: circuitSwitch },
        { signal },
      ),
    enabled: demand !== null,
    placeholderData: keepPreviousData,
  });
}
