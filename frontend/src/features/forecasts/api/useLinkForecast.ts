import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { LinkForecastAnswer } from './types';

/** GET /api/links/{id}/forecast/: the link's forecast in full (null forecast: nothing to report). */
export function useLinkForecast(linkId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['links', 'forecast', linkId],
    enabled,
    queryFn: ({ signal }) => apiClient.get<LinkForecastAnswer>(`/api/links/${linkId}/forecast/`, undefined, { signal }),
  });
}
