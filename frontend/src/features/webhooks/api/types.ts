/** Webhook answers, generated from the server's OpenAPI document (webhooks/api/serializers.py). */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** POST /api/webhooks/'s answer: `secret` only when the server generated it (shown once). */
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreated'];
export type WebhookEndpointRequest = Schemas['WebhookEndpointRequest'];
export type WebhookEndpointPatch = Schemas['PatchedWebhookEndpointRequest'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
