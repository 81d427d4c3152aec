/** What the app and other features may use of maintenance: who has a day to look at (the navigation's "Today"). */
export { TODAY_ROLES } from './roles';
/** How a CorrOpt penalty reads, and the lossy links to re-enable (the fabric page's capacity recovery shows them too). */
export { formatPenalty } from './workOrders';
export { AddedPenalty, LossyLinksTable } from './components/LossyLinksTable';
