/** What the app and other features may use of maintenance: who has a day to look at (the navigation's "Today"). */
export { TODAY_ROLES } from './roles';
/** How a lossy link's loss rate and CorrOpt penalty read (the fabric page's capacity recovery shows them too). */
export { formatLossRate, formatPenalty } from './workOrders';
