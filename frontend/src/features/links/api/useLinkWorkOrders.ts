import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

export type LinkWorkOrder = components['schemas']['WorkOrder'];

/**
 * The open and in-progress work orders that take this link down (their footprint holds it, and
 * with it their tickets' links). Keyed under 'work-orders' so that starting or finishing an order,
 * which invalidates those lists, refreshes the link page too.
 */
export function useLinkWorkOrders(linkId: number) {
  const params = { link: linkId, state: ['open', 'in_progress'] };
  return useQuery({
    queryKey: ['work-orders', 'list', params],
    queryFn: ({ signal }) => apiClient.get<Page<LinkWorkOrder>>('/api/work-orders/', params, { signal }),
  });
}
