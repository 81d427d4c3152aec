import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { AtRiskLink, AtRiskQuery } from './types';

/**
 * At-risk links are few (a fleet's failing optics, not its links): one page of the API's largest
 * holds them, so the page sorts them by time to crossing itself.
 */
export const AT_RISK_LIMIT = 1000;

/** GET /api/links/?at_risk=true: the fabric's links at risk, each with its brief forecast. */
export function useAtRiskLinks(query: AtRiskQuery | null) {
  return useQuery({
    queryKey: ['links', 'list', { ...query, limit: AT_RISK_LIMIT, offset: 0 }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<AtRiskLink>>('/api/links/', { ...query, limit: AT_RISK_LIMIT, offset: 0 }, { signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    // Derivation rewrites forecasts as the trends move.
    refetchInterval: 60_000,
  });
}
