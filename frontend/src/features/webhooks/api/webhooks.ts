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
const ENDPOINTS_SHOWN = 200;

/** GET /api/webhooks/: every endpoint (a handful per fabric). */
export function useWebhookEndpoints(enabled = true) {
  return useQuery({
    queryKey: [...webhooksKey, 'endpoints'],
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
  return useQuery({
    queryKey: [...webhooksKey, 'deliveries', { ...query, limit, offset }],
    queryFn: ({ signal }) =>
      apiClient.get<Page<WebhookDelivery>>(
        '/api/webhook-deliveries/',
        { ...query, ordering: '-created', limit, offset },
        { signal },
      ),
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
