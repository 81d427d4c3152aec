import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { AssignableUser } from './types';

/** A team is tens of people: one page holds it. */
const TEAM_LIMIT = 500;

/** GET /api/users/?role=technician: who may be assigned visits (operators, planners and admins may read it). */
export function useAssignableUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'list', { role: 'technician' }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<AssignableUser>>('/api/users/', { role: 'technician', limit: TEAM_LIMIT }, { signal }),
    enabled,
  });
}
