import { useQuery } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

type WorkOrder = components['schemas']['WorkOrder'];

/** More current orders than a fabric has in practice: each is one visit waiting or under way. */
const CURRENT_ORDERS_LIMIT = 500;

/**
 * The open or in-progress work order holding a ticket (a ticket is in at most one), or null. The
 * work order list has no ticket filter, so the fabric's current orders are read and searched.
 */
export function useTicketWorkOrder(ticket: { id: number; fabric: number }) {
  return useQuery({
    queryKey: [
      'work-orders',
      'list',
      { fabric: ticket.fabric, state: ['open', 'in_progress'], limit: CURRENT_ORDERS_LIMIT },
    ],
    queryFn: ({ signal }) =>
      apiClient.get<Page<WorkOrder>>(
        '/api/work-orders/',
        { fabric: ticket.fabric, state: ['open', 'in_progress'], limit: CURRENT_ORDERS_LIMIT },
        { signal },
      ),
    select: (page) => page.results.find((order) => order.tickets.includes(ticket.id)) ?? null,
  });
}
