import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

/** A row of GET /api/switches/?brief=1. */
export type TorChoice = Pick<components['schemas']['Switch'], 'id' | 'url' | 'name' | 'tier'>;

/** GET /api/switches/?fabric=&tier=0: the ToRs a circuit switch can attach (one page of 1000). */
export function useTors(fabric: number | null) {
  return useQuery({
    queryKey: ['switches', 'tors', { fabric }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<TorChoice>>('/api/switches/', { fabric, tier: 0, brief: 1, limit: 1000 }, { signal }),
    enabled: fabric !== null,
    staleTime: 60 * 1000,
  });
}
