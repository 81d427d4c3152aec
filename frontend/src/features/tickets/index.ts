/** What the app and other features may use of tickets: the ticket queries and metrics, the state badge, the loss-rate format, the repair actions' words and the ticket pages. */
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
export { TicketStateBadge } from './components/TicketStateBadge';
export { formatRate } from './evidence';
export { ACTION_LABELS, isRepairAction } from './repairActions';
export { TicketDetailPage } from './routes/TicketDetailPage';
export { TicketsPage } from './routes/TicketsPage';
