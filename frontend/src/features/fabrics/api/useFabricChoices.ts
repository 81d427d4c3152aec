import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { FabricBrief } from './types';

/** Brief fabric list for filter drop-downs; one page of 1000 covers any real site. */
export function useFabricChoices() {
  return useQuery({
    queryKey: ['fabrics', 'brief'],
    queryFn: ({ signal }) => apiClient.get<Page<FabricBrief>>('/api/fabrics/', { brief: 1, limit: 1000 }, { signal }),
    staleTime: 60 * 1000,
  });
}
