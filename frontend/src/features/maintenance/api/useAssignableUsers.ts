import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import { TODAY_ROLES } from '../roles';
import type { AssignableUser } from './types';

/** A team is tens of people: one page holds it. */
const TEAM_LIMIT = 500;

/**
 * GET /api/users/?role=technician&role=operator&role=admin: who may be assigned visits (the plan API accepts
 * all three; operators, planners and admins may read the list).
 */
export function useAssignableUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'list', { role: TODAY_ROLES }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<AssignableUser>>('/api/users/', { role: [...TODAY_ROLES], limit: TEAM_LIMIT }, { signal }),
    enabled,
  });
}
