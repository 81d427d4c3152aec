import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { Decision, DecisionFilters } from './types';

/** The log's order unless a column is chosen: newest first. */
export const DECISIONS_DEFAULT_ORDERING = '-created';

/** GET /api/decisions/: newest first unless `ordering` names a column. */
export function useDecisions(
  filters: DecisionFilters,
  {
    limit,
    offset,
    ordering = DECISIONS_DEFAULT_ORDERING,
    enabled = true,
  }: { limit: number; offset: number; ordering?: string; enabled?: boolean },
) {
  return useQuery({
    queryKey: ['decisions', 'list', { ...filters, ordering, limit, offset }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<Decision>>('/api/decisions/', { ...filters, ordering, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: 30_000,
  });
}
