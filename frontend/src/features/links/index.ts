/** What the app and other features may use of links: the link queries, the links table, the capacity guard dialog and its ToR table, and the link pages. */
export { invalidateLinkState } from './api/invalidateLinkState';
export type { GuardPreview, GuardTor } from './api/types';
export { useLink } from './api/useLink';
export { useLinks } from './api/useLinks';
export { CapacityChangeDialog, GuardTorsTable } from './components/CapacityChangeDialog';
export { LinksTable } from './components/LinksTable';
export { LinkDetailPage } from './routes/LinkDetailPage';
export { LinksPage } from './routes/LinksPage';
