/** What other features may use of links: the link queries, the links table, and the capacity guard dialog and its ToR table. */
export { invalidateLinkState } from './api/invalidateLinkState';
export type { GuardPreview, GuardTor } from './api/types';
export { linkName, useLink, useLinkName } from './api/useLink';
export { useLinks } from './api/useLinks';
export { CapacityChangeDialog, GuardTorsTable } from './components/CapacityChangeDialog';
export { LinksTable } from './components/LinksTable';
