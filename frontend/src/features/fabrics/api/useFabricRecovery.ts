import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { invalidateLinkState } from '@/features/links';
import { ApiError, apiClient } from '@/lib/api-client';

import type { RecoveryApplied, RecoveryApplyRequest, RecoveryProposal } from './types';

/**
 * Under the capacity's key: every change of link state (invalidateLinkState refreshes
 * ['fabrics', 'capacity', id]) refreshes the recovery proposal too, which is decided on the same links.
 */
export function fabricRecoveryKey(fabricId: number) {
  return ['fabrics', 'capacity', fabricId, 'recovery'] as const;
}

/** GET /api/fabrics/{id}/recovery/: what recovering the fabric's capacity now would do (every role reads it). */
export function useFabricRecovery(fabricId: number) {
  return useQuery({
    queryKey: fabricRecoveryKey(fabricId),
    queryFn: ({ signal }) =>
      apiClient.get<RecoveryProposal>(`/api/fabrics/${fabricId}/recovery/`, undefined, { signal }),
    staleTime: 30 * 1000,
  });
}

/** The fresh proposal a 409 answers when the links asked are no longer the proposal. */
export function changedProposal(error: unknown): RecoveryProposal | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as Partial<RecoveryProposal> | null;
  return body && Array.isArray(body.under_tors) && Array.isArray(body.links) ? (body as RecoveryProposal) : null;
}

/**
 * POST /api/fabrics/{id}/recovery/ (operators and admins): enable exactly the proposal's links. On
 * success links, topology and capacity refresh and the proposal becomes the answer's `after`; on a
 * 409 (the proposal changed) the fresh proposal it carries is shown instead.
 */
export function useApplyRecovery(fabricId: number) {
  const queryClient = useQueryClient();
  return useMutation<RecoveryApplied, Error, RecoveryApplyRequest>({
    mutationFn: (body) => apiClient.post<RecoveryApplied>(`/api/fabrics/${fabricId}/recovery/`, body),
    onSuccess: async (applied) => {
      queryClient.setQueryData(fabricRecoveryKey(fabricId), applied.after);
      await invalidateLinkState(queryClient, fabricId);
    },
    onError: (error) => {
      const fresh = changedProposal(error);
      if (fresh) queryClient.setQueryData(fabricRecoveryKey(fabricId), fresh);
    },
  });
}
