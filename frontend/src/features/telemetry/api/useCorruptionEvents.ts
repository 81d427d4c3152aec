import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { CorruptionEvent } from './types';

export function useCorruptionEvents(linkId: number, { limit }: { limit: number }) {
  return useQuery({
    queryKey: ['corruption-events', 'list', { link: linkId, limit }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<CorruptionEvent>>(
        '/api/corruption-events/',
        { link: linkId, ordering: '-first_seen', limit },
        { signal },
      ),
  });
}
