import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { Fabric } from './types';

export function useFabrics({ limit, offset }: { limit: number; offset: number }) {
  return useQuery({
    queryKey: ['fabrics', 'list', { limit, offset }],
    queryFn: ({ signal }) => apiClient.get<Page<Fabric>>('/api/fabrics/', { limit, offset }, { signal }),
    placeholderData: keepPreviousData,
  });
}
