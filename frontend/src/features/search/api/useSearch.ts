import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { SearchAnswer } from './types';

/** GET /api/search/?q=: nothing is asked for a null query; the previous answer stays shown while
 * the next one is on its way, so the list does not flicker as the user types. */
export function useSearch(q: string | null) {
  return useQuery({
    queryKey: ['search', q],
    queryFn: ({ signal }) => apiClient.get<SearchAnswer>('/api/search/', { q }, { signal }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
