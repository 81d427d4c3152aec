import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';

import { type GuardPreview, invalidateLinkState } from '@/features/links';
import { apiClient } from '@/lib/api-client';

import type { DrainAnswer, DrainRequest, FabricSwitch } from './types';

/**
 * POST /api/switches/{id}/undrain/ (docs/capacity-guard.md). With `dryRun` it carries `?dry_run=1` and
 * answers the guard's verdict, changing nothing; without it the links change (or a 409 refuses),
 * and links, topology and capacity refresh.
 */
export function useUndrainSwitch(
  sw: Pick<FabricSwitch, 'id' | 'fabric'>,
  options: { dryRun: true },
): UseMutationResult<GuardPreview, Error, DrainRequest>;
export function useUndrainSwitch(
  sw: Pick<FabricSwitch, 'id' | 'fabric'>,
  options: { dryRun: false },
): UseMutationResult<DrainAnswer, Error, DrainRequest>;
export function useUndrainSwitch(sw: Pick<FabricSwitch, 'id' | 'fabric'>, { dryRun }: { dryRun: boolean }) {
  const queryClient = useQueryClient();
  return useMutation<GuardPreview | DrainAnswer, Error, DrainRequest>({
    mutationFn: (body) =>
      apiClient.post<GuardPreview | DrainAnswer>(`/api/switches/${sw.id}/undrain/`, body, {
        query: dryRun ? { dry_run: 1 } : undefined,
      }),
    onSuccess: async () => {
      if (!dryRun) await invalidateLinkState(queryClient, sw.fabric);
    },
  });
}
