/** What other parts of the app may use of webhooks: who manages them (the nav shows the page to them). */
export { WEBHOOK_ROLES } from './roles';
