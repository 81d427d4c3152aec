import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import { invalidateLinkState } from './invalidateLinkState';
import type { FabricLink, GuardPreview, LinkAdminStateChange } from './types';

/**
 * PATCH /api/links/{id}/ with an admin state (docs/capacity-guard.md). With `dryRun` the same
 * request carries `?dry_run=1` and answers the guard's verdict, changing nothing; without it the
 * change is applied, or refused with 409 (see refusalOf). Applied changes refresh links, topology
 * and capacity.
 */
export function useChangeLinkAdminState(
  link: Pick<FabricLink, 'id' | 'fabric'>,
  options: { dryRun: true },
): UseMutationResult<GuardPreview, Error, LinkAdminStateChange>;
export function useChangeLinkAdminState(
  link: Pick<FabricLink, 'id' | 'fabric'>,
  options: { dryRun: false },
): UseMutationResult<FabricLink, Error, LinkAdminStateChange>;
export function useChangeLinkAdminState(link: Pick<FabricLink, 'id' | 'fabric'>, { dryRun }: { dryRun: boolean }) {
  const queryClient = useQueryClient();
  return useMutation<GuardPreview | FabricLink, Error, LinkAdminStateChange>({
    mutationFn: (change) =>
      apiClient.patch<GuardPreview | FabricLink>(`/api/links/${link.id}/`, change, {
        query: dryRun ? { dry_run: 1 } : undefined,
      }),
    onSuccess: async () => {
      if (!dryRun) await invalidateLinkState(queryClient, link.fabric);
    },
  });
}
