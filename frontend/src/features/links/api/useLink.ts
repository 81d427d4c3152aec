import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FabricLink } from './types';

export function useLink(linkId: number) {
  return useQuery({
    queryKey: ['links', 'detail', linkId],
    queryFn: ({ signal }) => apiClient.get<FabricLink>(`/api/links/${linkId}/`, undefined, { signal }),
  });
}
