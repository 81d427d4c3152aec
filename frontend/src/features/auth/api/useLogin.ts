import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiClient } from '@/lib/api-client';

import type { CurrentUser, LoginCredentials, LoginResponse } from './types';
import { currentUserQueryKey } from './useCurrentUser';

/** POST /api/auth/login/: starts a session; 400 on bad credentials. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation<LoginResponse, Error, LoginCredentials>({
    mutationFn: (credentials) =>
      apiClient.post<LoginResponse>('/api/auth/login/', credentials, { redirectOnUnauthorized: false }),
    onSuccess: async (response) => {
      // Data cached for a previous user must not leak into this session.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
      // Replace the cached 401 at once so the route guard does not bounce back to
      // the login page, then fetch the full record (is_admin) in the background.
      queryClient.setQueryData<CurrentUser>(currentUserQueryKey, {
        username: response.username,
        roles: response.roles,
        is_admin: response.roles.includes('admin'),
      });
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}
