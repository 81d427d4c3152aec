import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { Demand } from './types';

/** GET /api/demands/?fabric=: uploaded demand series, newest first. */
export function useDemands(fabric: number | null) {
  return useQuery({
    queryKey: ['demands', { fabric }],
    queryFn: ({ signal }) => apiClient.get<Page<Demand>>('/api/demands/', { fabric, limit: 100 }, { signal }),
    enabled: fabric !== null,
  });
}
