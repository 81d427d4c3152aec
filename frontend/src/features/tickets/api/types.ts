/** Shapes of /api/tickets/ (backend/corruption/api/serializers.py). */
import type { Direction } from '@/features/telemetry';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type TicketState = 'open' | 'in_progress' | 'awaiting_validation' | 'resolved' | 'reopened';

/** The actions the backend accepts in `act` (corruption.recommend.Action). */
export type RepairAction =
  | 'replace_shared_component'
  | 'replace_cable'
  | 'replace_far_transceiver'
  | 'clean_fiber'
  | 'reseat_transceiver'
  | 'replace_transceiver';

export type StepOutcome = 'pending' | 'fixed' | 'recurred';

/** A row of the queue. */
export interface Ticket {
  id: number;
  url: string;
  fabric: number;
  link: number;
  link_name: string;
  /** Pod of the link's lower end (its ToR). */
  pod: number | null;
  direction: Direction;
  state: TicketState;
  assignee: string | null;
  /** The opening decision's penalty: the sum of both directions' loss rates (fractions). */
  penalty: number | null;
  recommended_action: RepairAction | null;
  step_count: number;
  decision: number;
  validation_started_at: string | null;
  resolved_at: string | null;
  created: string;
  updated: string;
}

export type LinkEnd = Schemas['TicketLinkEnd'];

export type EvidenceThreshold = Schemas['EvidenceThreshold'];

/** One end's optics as recommend() read them (corruption/recommend.py optics_evidence). */
export type EvidenceOptics = Schemas['EvidenceOptics'];

export type EvidenceNeighbour = Schemas['EvidenceNeighbour'];

export type EvidenceHistoryStep = Schemas['EvidenceHistoryStep'];

export type Evidence = Schemas['Evidence'];

export type Recommendation = Schemas['Recommendation'];

export interface TicketStep {
  number: number;
  decision: number;
  direction: Direction;
  recommended_action: RepairAction;
  rule: string;
  explanation: string;
  evidence: Evidence;
  /** Empty until the technician records it. */
  action_taken: RepairAction | '';
  followed: boolean | null;
  technician: string | null;
  notes: string;
  created: string;
  acted_at: string | null;
  outcome: StepOutcome;
}

export interface TicketComment {
  id: number;
  author: string | null;
  text: string;
  created: string;
}

export interface TicketDetail extends Ticket {
  ends: LinkEnd[];
  recommendation: Recommendation | null;
  steps: TicketStep[];
  comments: TicketComment[];
}

/** `act` also says whether the link is back in service. */
export interface ActResponse extends TicketDetail {
  link_enabled: boolean;
  message: string;
}

export type TicketOrdering = '-penalty' | 'penalty' | 'created' | '-created';

/** Query parameters of the list, as the API reads them (a repeated parameter means OR). */
export interface TicketQuery {
  fabric?: number;
  link?: number;
  pod?: number;
  state?: TicketState[];
  assignee?: string;
  unassigned?: boolean;
  ordering: TicketOrdering;
}

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
