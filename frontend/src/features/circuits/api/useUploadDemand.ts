import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { Demand, DemandUpload } from './types';

/** POST /api/demands/ (CSV text or rows as JSON); a 400 lists every bad row by line. */
export function useUploadDemand() {
  const queryClient = useQueryClient();
  return useMutation<Demand, Error, DemandUpload>({
    mutationFn: (body) => apiClient.post<Demand>('/api/demands/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['demands'] }),
  });
}
