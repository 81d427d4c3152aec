import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

/** A row of GET /api/users/. */
export type AssignableUser = components['schemas']['UserList'];

/** Roles whose holders repair links: the people a ticket is handed to. */
const REPAIR_ROLES = ['technician', 'operator'];

/** GET /api/users/?role=technician&role=operator: the names offered when assigning a ticket. */
export function useAssignableUsers() {
  return useQuery({
    queryKey: ['users', 'assignable'],
    queryFn: ({ signal }) =>
      apiClient.get<Page<AssignableUser>>('/api/users/', { role: REPAIR_ROLES, limit: 500 }, { signal }),
    staleTime: 5 * 60_000,
  });
}
