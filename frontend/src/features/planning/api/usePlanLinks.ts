import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { LinkFilter, LinkPage } from './types';

/** GET /api/rail/plans/{id}/links/: one page of a finished plan's per-link rows, filtered on the server. */
export function usePlanLinks(jobId: number, filter: LinkFilter, { limit, offset }: { limit: number; offset: number }) {
  const query = {
    stretched: filter.stretchedOnly ? true : undefined,
    part: filter.part || undefined,
    q: filter.text.trim() || undefined,
    limit,
    offset,
  };
  return useQuery({
    queryKey: ['rail', 'plan', jobId, 'links', query],
    queryFn: ({ signal }) => apiClient.get<LinkPage>(`/api/rail/plans/${jobId}/links/`, query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity, // a finished plan's rows never change
  });
}
