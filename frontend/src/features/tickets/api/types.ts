/**
 * Shapes of /api/tickets/, generated from the server's OpenAPI document
 * (backend/corruption/api/serializers.py). UI-only: `TicketQuery` (the list's
 * query), `MetricsBucket` (the history's choice), and `TicketMetrics` narrowed to the states the
 * page looks up.
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type TicketState = Schemas['TicketStateEnum'];

/** The actions the backend accepts in `act` (corruption.recommend.Action). */
export type RepairAction = Schemas['ActionTakenEnum'];

export type StepOutcome = Schemas['OutcomeEnum'];

/** GET /api/tickets/counts/: the nav's numbers. */
export type TicketCounts = Schemas['TicketCounts'];

/** A row of the queue. */
export type Ticket = Schemas['Ticket'];

export type LinkEnd = Schemas['TicketLinkEnd'];

export type EvidenceThreshold = Schemas['EvidenceThreshold'];

/** One end's optics as recommend() read them (corruption/recommend.py optics_evidence). */
export type EvidenceOptics = Schemas['EvidenceOptics'];

export type EvidenceNeighbour = Schemas['EvidenceNeighbour'];

export type EvidenceHistoryStep = Schemas['EvidenceHistoryStep'];

export type Evidence = Schemas['Evidence'];

export type Recommendation = Schemas['Recommendation'];

export type TicketStep = Schemas['TicketStep'];

export type TicketComment = Schemas['TicketComment'];

export type TicketDetail = Schemas['TicketDetail'];

/** `act` also says whether the link is back in service. */
export type ActResponse = Schemas['TicketActed'];

/** POST /api/tickets/{id}/act/ body. */
export type RecordActionInput = Schemas['ActionRequest'];

/** Query parameters of the list, as the API reads them (a repeated parameter means OR). */
export interface TicketQuery {
  fabric?: number;
  link?: number;
  pod?: number;
  state?: TicketState[];
  assignee?: string;
  unassigned?: boolean;
  /** Repair (a link taken out for corruption) or preventive (optics forecast to fail). */
  kind?: TicketKind;
  /** One of the list's ordering fields, `-` for descending (the server refuses any other). */
  ordering: string;
}

export type TicketKind = 'repair' | 'preventive';

export type SuccessRate = Schemas['SuccessRate'];

/** GET /api/tickets/metrics/?fabric= */
export type TicketMetrics = Omit<Schemas['TicketMetrics'], 'open_tickets_by_state'> & {
  /** Unresolved states only; the page looks any state up. */
  open_tickets_by_state: Partial<Record<TicketState, number>>;
};

export type MetricsBucket = 'day' | 'week';

/** One bucket of GET /api/tickets/metrics/history/ (UTC day or ISO week, [start, end)). */
export type MetricsHistoryBucket = Schemas['MetricsHistoryBucket'];

export type TicketMetricsHistory = Schemas['MetricsHistory'];
