import { useMutation } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { CheckAnswer, CostsAnswer, CostsRequest, RackSetParam, SizeAnswer, SizeRequest } from './types';

// The calculators store nothing and answer at once: mutations, so each press asks again.

/** POST /api/sharebackup/size/: smallest backups per group for a target, with a Monte Carlo check. */
export function usePoolSize() {
  return useMutation<SizeAnswer, Error, SizeRequest>({
    mutationFn: (request) => apiClient.post<SizeAnswer>('/api/sharebackup/size/', request),
  });
}

/** POST /api/larry/check/: feasible, or the min cut that proves it is not (both are 200 answers). */
export function useLarryCheck() {
  return useMutation<CheckAnswer, Error, { rack_set: RackSetParam; uplinks: number[] }>({
    mutationFn: (request) => apiClient.post<CheckAnswer>('/api/larry/check/', request),
  });
}

/** POST /api/reconfig/costs/: counts and normalised cost of static, Larry and ShareBackup designs. */
export function useReconfigCosts() {
  return useMutation<CostsAnswer, Error, CostsRequest>({
    mutationFn: (request) => apiClient.post<CostsAnswer>('/api/reconfig/costs/', request),
  });
}
