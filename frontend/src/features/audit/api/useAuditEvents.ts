import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type { AuditEvent, AuditFilters } from './types';

/** GET /api/audit/: one page of the change log. */
export function useAuditEvents(
  filters: AuditFilters,
  { limit, offset, ordering }: { limit: number; offset: number; ordering?: string },
) {
  return useQuery({
    queryKey: ['audit', 'list', { ...filters, limit, offset, ordering }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<AuditEvent>>('/api/audit/', { ...filters, limit, offset, ordering }, { signal }),
    placeholderData: keepPreviousData,
  });
}
