import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { Fabric, ForecastSettings } from './types';

/**
 * PATCH /api/fabrics/{id}/ with the forecast settings (operators and admins); a 400 names each
 * field's problem. The next derivation judges the forecasts by them, so the links' caches refetch.
 */
export function useUpdateForecastSettings(fabricId: number) {
  const queryClient = useQueryClient();
  return useMutation<Fabric, Error, ForecastSettings>({
    mutationFn: (settings) => apiClient.patch<Fabric>(`/api/fabrics/${fabricId}/`, settings),
    onSuccess: async (fabric) => {
      queryClient.setQueryData(['fabrics', 'detail', fabricId], fabric);
      await queryClient.invalidateQueries({ queryKey: ['links'] });
    },
  });
}
