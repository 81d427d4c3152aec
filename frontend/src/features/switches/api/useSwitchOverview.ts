import { useQuery } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { SwitchOverview } from './types';

export function useSwitchOverview(switchId: number) {
  return useQuery({
    queryKey: ['switches', 'overview', switchId],
    queryFn: ({ signal }) =>
      apiClient.get<SwitchOverview>(`/api/switches/${switchId}/overview/`, undefined, { signal }),
  });
}
