import { useMutation } from '@tanstack/react-query';

import { ApiError, apiClient } from '@/lib/api-client';

/**
 * POST /api/auth/logout/ (204), then a full page load of /login: it drops every
 * cached answer and stops polling in one step, so nothing of the session lingers.
 */
export function useLogout() {
  return useMutation<void, Error, void>({
    mutationFn: () => apiClient.post<void>('/api/auth/logout/', undefined, { redirectOnUnauthorized: false }),
    onSettled: (_data, error) => {
      const alreadyLoggedOut = error instanceof ApiError && error.status === 401;
      if (!error || alreadyLoggedOut) window.location.assign('/login');
    },
  });
}
