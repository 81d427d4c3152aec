import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FecAnswer } from './types';

/** GET /api/rail/fec/?loss=&target=: how one path with that loss is coded; null asks nothing. */
export function useFec(query: { loss: number; target: number } | null) {
  return useQuery({
    queryKey: ['rail', 'fec', query],
    queryFn: ({ signal }) => apiClient.get<FecAnswer>('/api/rail/fec/', query ?? undefined, { signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}
