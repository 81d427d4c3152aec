import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

export interface AssignableUser {
  username: string;
  full_name: string;
  roles: string[];
}

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
