/** The pages of webhooks: only the app's router imports them. */
export { WebhooksPage } from './WebhooksPage';
