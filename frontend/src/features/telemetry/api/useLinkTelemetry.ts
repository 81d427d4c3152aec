import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { LinkTelemetry, TelemetryQuery } from './types';

export function useLinkTelemetry(linkId: number, range: TelemetryQuery) {
  return useQuery({
    queryKey: ['links', 'telemetry', linkId, range],
    queryFn: ({ signal }) =>
      apiClient.get<LinkTelemetry>(
        `/api/links/${linkId}/telemetry/`,
        { from: range.from, to: range.to, resolution: 'auto' },
        { signal },
      ),
    // Zooming keeps the previous chart on screen until the new range arrives.
    placeholderData: keepPreviousData,
  });
}
