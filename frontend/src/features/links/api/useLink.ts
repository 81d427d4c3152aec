import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { FabricLink } from './types';

function linkQuery(linkId: number) {
  return {
    queryKey: ['links', 'detail', linkId],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiClient.get<FabricLink>(`/api/links/${linkId}/`, undefined, { signal }),
  };
}

export function useLink(linkId: number) {
  return useQuery(linkQuery(linkId));
}

/** "p0-tor0 eth2/1 ↔ p0-fab0 eth1/1": the link page's heading, its tab's title too. */
export function linkName(link: Pick<FabricLink, 'a_switch_name' | 'a_port' | 'z_switch_name' | 'z_port'>): string {
  return `${link.a_switch_name} ${link.a_port} ↔ ${link.z_switch_name} ${link.z_port}`;
}

/** The link's name once loaded (the link page's own query, so no second request); undefined before. */
export function useLinkName(linkId: number): string | undefined {
  const valid = Number.isInteger(linkId) && linkId > 0;
  return useQuery({ ...linkQuery(linkId), enabled: valid, select: linkName }).data;
}
