import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { SwitchOverview } from './types';

function switchOverviewQuery(switchId: number) {
  return {
    queryKey: ['switches', 'overview', switchId] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiClient.get<SwitchOverview>(`/api/switches/${switchId}/overview/`, undefined, { signal }),
  };
}

export function useSwitchOverview(switchId: number) {
  return useQuery(switchOverviewQuery(switchId));
}

/** A switch's name for the tab's title: the same request as its page (shared in the query cache). */
export function useSwitchName(switchId: number): string | undefined {
  const valid = Number.isInteger(switchId) && switchId > 0;
  return useQuery({ ...switchOverviewQuery(switchId), enabled: valid, select: (data) => data.name }).data;
}
