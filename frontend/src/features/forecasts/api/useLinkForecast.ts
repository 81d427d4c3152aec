import { useQueries, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { LinkForecastAnswer } from './types';

const forecastQuery = (linkId: number) => ({
  queryKey: ['links', 'forecast', linkId],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiClient.get<LinkForecastAnswer>(`/api/links/${linkId}/forecast/`, undefined, { signal }),
});

/** GET /api/links/{id}/forecast/: the link's forecast in full (null forecast: nothing to report). */
export function useLinkForecast(linkId: number) {
  return useQuery(forecastQuery(linkId));
}

/** The same for the rows of one page of the At risk list (the list's rows carry the brief forecast only). */
export function useLinkForecasts(linkIds: readonly number[]) {
  return useQueries({ queries: linkIds.map(forecastQuery) });
}
