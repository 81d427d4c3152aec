/** The pages of audit: only the app's router imports them. */
export { AuditPage } from './AuditPage';
