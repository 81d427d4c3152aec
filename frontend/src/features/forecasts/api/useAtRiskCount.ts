import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { LinkForecastRow } from './types';

/** How many of the fabric's links are at risk: the count of GET /api/link-forecasts/ (one row fetched). */
export function useAtRiskCount(fabricId: number) {
  const params = { fabric: fabricId, at_risk: true, limit: 1 };
  return useQuery({
    queryKey: ['links', 'forecasts', 'count', params],
    queryFn: ({ signal }) => apiClient.get<Page<LinkForecastRow>>('/api/link-forecasts/', params, { signal }),
    select: (page) => page.count,
    refetchInterval: 60_000,
  });
}
