import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { TransceiverModel } from './types';

/** GET /api/transceiver-models/: the whole catalog (a few dozen rows at most). */
export function useTransceiverModels() {
  return useQuery({
    queryKey: ['transceiver-models', 'all'],
    queryFn: ({ signal }) =>
      apiClient.get<Page<TransceiverModel>>('/api/transceiver-models/', { limit: 1000 }, { signal }),
    staleTime: 60 * 1000,
  });
}
