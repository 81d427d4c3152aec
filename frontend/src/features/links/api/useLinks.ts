import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { FabricLink, LinkFilters } from './types';

export function useLinks(
  filters: LinkFilters,
  { limit, offset, ordering }: { limit: number; offset: number; ordering?: string },
) {
  return useQuery({
    queryKey: ['links', 'list', { ...filters, limit, offset, ordering }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<FabricLink>>('/api/links/', { ...filters, limit, offset, ordering }, { signal }),
    placeholderData: keepPreviousData,
  });
}
