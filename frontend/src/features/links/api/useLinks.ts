import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { FabricLink, LinkFilters } from './types';

export function useLinks(filters: LinkFilters, { limit, offset }: { limit: number; offset: number }) {
  return useQuery({
    queryKey: ['links', 'list', { ...filters, limit, offset }],
    queryFn: ({ signal }) => apiClient.get<Page<FabricLink>>('/api/links/', { ...filters, limit, offset }, { signal }),
    placeholderData: keepPreviousData,
  });
}
