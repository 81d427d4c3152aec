import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { AtRiskQuery, LinkForecastRow } from './types';

/**
 * GET /api/link-forecasts/: one page of the fabric's links at risk, soonest crossing first, each
 * with its forecast in full and both ends' racks: one request per page, ordered and paged by the server.
 */
export function useAtRiskForecasts(query: AtRiskQuery | null, { limit, offset }: { limit: number; offset: number }) {
  const params = { ...query, ordering: 'crossing_at', limit, offset };
  return useQuery({
    // Under 'links': opening a preventive ticket refetches what the links' caches hold.
    queryKey: ['links', 'forecasts', params],
    queryFn: ({ signal }) => apiClient.get<Page<LinkForecastRow>>('/api/link-forecasts/', params, { signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    // Derivation rewrites forecasts as the trends move.
    refetchInterval: 60_000,
  });
}
