import { useQuery } from '@tanstack/react-query';

import { ApiError, apiClient } from '@/lib/api-client';

import type { CurrentUser } from './types';

export const currentUserQueryKey = ['auth', 'me'] as const;

/**
 * GET /api/auth/me/. A 401 is an answer here ("nobody is logged in"), so it
 * neither retries nor triggers the global redirect; the route guard decides.
 */
export function useCurrentUser() {
  return useQuery<CurrentUser, Error>({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) =>
      apiClient.get<CurrentUser>('/api/auth/me/', undefined, { signal, redirectOnUnauthorized: false }),
    retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
    staleTime: 5 * 60 * 1000,
  });
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}
