import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { apiClient, type Page } from '@/lib/api-client';

import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointPatch,
  WebhookEndpointRequest,
} from './types';

const webhooksKey = ['webhooks'] as const;
const endpointsKey = [...webhooksKey, 'endpoints'] as const;
const ENDPOINTS_SHOWN = 200;

/** GET /api/webhooks/: every endpoint (a handful per fabric). */
export function useWebhookEndpoints(enabled = true) {
  return useQuery({
    queryKey: endpointsKey,
    queryFn: ({ signal }) =>
      apiClient.get<Page<WebhookEndpoint>>('/api/webhooks/', { limit: ENDPOINTS_SHOWN }, { signal }),
    enabled,
  });
}

/** GET /api/webhook-deliveries/: newest first, of one endpoint or all. */
export function useWebhookDeliveries(
  query: { endpoint?: number; state?: string },
  { limit, offset, enabled = true }: { limit: number; offset: number; enabled?: boolean },
) {
  const queryClient = useQueryClient();
  const queryKey = [...webhooksKey, 'deliveries', { ...query, limit, offset }];
  return useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<Page<WebhookDelivery>>(queryKey);
      const after = await apiClient.get<Page<WebhookDelivery>>(
        '/api/webhook-deliveries/',
        { ...query, ordering: '-created', limit, offset },
        { signal },
      );
      // The endpoints' "Waiting" and "Last delivered" count these deliveries: read them again when
      // one settles (trial 30: after "Send test" the row said "Waiting 1" until a reload).
      if (before && deliveriesSettled(before.results, after.results)) {
        void queryClient.invalidateQueries({ queryKey: endpointsKey });
      }
      return after;
    },
    placeholderData: keepPreviousData,
    enabled,
    // Deliveries retry in the background: their state moves while the page is open. One being
    // sent or due now (a test just sent) is read again each second until it has an answer.
    refetchInterval: (query) => (query.state.data?.results.some(isDueSoon) ? 1_000 : 10_000),
  });
}

const DUE_SOON_MS = 5_000;

/** A pending delivery whose attempt runs now or is due within a few seconds. */
export function isDueSoon(delivery: WebhookDelivery, now = Date.now()): boolean {
  if (delivery.state !== 'pending') return false;
  if (delivery.sending_since) return true;
  return delivery.next_attempt_at !== null && Date.parse(delivery.next_attempt_at) - now < DUE_SOON_MS;
}

/**
 * A delivery settled (succeeded, or failed for good) since the earlier read of the same page: it was
 * pending then, or not there yet (a test can be answered before the page reads it as pending).
 */
export function deliveriesSettled(before: readonly WebhookDelivery[], after: readonly WebhookDelivery[]): boolean {
  const settledBefore = new Set(
    before.filter((delivery) => delivery.state !== 'pending').map((delivery) => delivery.id),
  );
  return after.some((delivery) => delivery.state !== 'pending' && !settledBefore.has(delivery.id));
}

function useWebhookMutation<Body, Answer>(send: (body: Body) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** POST /api/webhooks/: without a secret the server generates one and answers it this once. */
export function useCreateWebhookEndpoint() {
  return useWebhookMutation((body: WebhookEndpointRequest) =>
    apiClient.post<WebhookEndpointCreated>('/api/webhooks/', body),
  );
}

/** PATCH /api/webhooks/{id}/: edit, enable or disable. */
export function useUpdateWebhookEndpoint() {
  return useWebhookMutation(({ id, ...patch }: WebhookEndpointPatch & { id: number }) =>
    apiClient.patch<WebhookEndpoint>(`/api/webhooks/${id}/`, patch),
  );
}

/** POST /api/webhooks/{id}/test/: a `webhook.test` event, followed in the deliveries. */
export function useTestWebhookEndpoint() {
  return useWebhookMutation((id: number) => apiClient.post<WebhookDelivery>(`/api/webhooks/${id}/test/`));
}

/** POST /api/webhook-deliveries/{id}/redeliver/: the same event again, as a new delivery. */
export function useRedeliverWebhook() {
  return useWebhookMutation((id: number) =>
    apiClient.post<WebhookDelivery>(`/api/webhook-deliveries/${id}/redeliver/`),
  );
}
