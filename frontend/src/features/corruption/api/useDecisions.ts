import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { Decision, DecisionFilters } from './types';

/** GET /api/decisions/: newest first. */
export function useDecisions(
  filters: DecisionFilters,
  { limit, offset, enabled = true }: { limit: number; offset: number; enabled?: boolean },
) {
  return useQuery({
    queryKey: ['decisions', 'list', { ...filters, limit, offset }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<Decision>>('/api/decisions/', { ...filters, ordering: '-created', limit, offset }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: 30_000,
  });
}
