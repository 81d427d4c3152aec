/** What other features may use of tickets: the ticket queries and metrics, the state badge, the loss-rate format and the repair actions' words. */
export type {
  MetricsBucket,
  MetricsHistoryBucket,
  SuccessRate,
  TicketMetrics,
  TicketMetricsHistory,
} from './api/types';
export { useTicketMetrics } from './api/useTicketMetrics';
export { useTicketMetricsHistory } from './api/useTicketMetricsHistory';
export { useTickets } from './api/useTickets';
/** The router asks for a ticket while its page's code is still loading (a phone's round trips are long). */
export { ticketQuery } from './api/useTicket';
export { TicketStateBadge } from './components/TicketStateBadge';
export { ACTION_LABELS, actionTodo, isRepairAction } from './repairActions';
export { TicketNavCounts } from './components/TicketNavCounts';
export { nextStepText } from './ticketProgress';
