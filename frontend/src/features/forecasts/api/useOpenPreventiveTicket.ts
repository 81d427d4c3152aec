import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { OpenPreventiveRequest, PreventiveTicket } from './types';

/**
 * POST /api/tickets/preventive/: a preventive ticket for an at-risk link (operators and admins);
 * the link stays in service. A 400 lists every reason it cannot (not at risk, an unresolved ticket).
 */
export function useOpenPreventiveTicket() {
  const queryClient = useQueryClient();
  return useMutation<PreventiveTicket, Error, OpenPreventiveRequest>({
    mutationFn: (body) => apiClient.post<PreventiveTicket>('/api/tickets/preventive/', body),
    onSuccess: async () => {
      // The ticket queue and the link's tickets show it; the work orders regroup it on the server.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['tickets'] }),
        queryClient.invalidateQueries({ queryKey: ['links'] }),
      ]);
    },
  });
}
