/** Shapes of /api/tickets/ (backend/corruption/api/serializers.py). */
import type { Direction, Side } from '@/features/telemetry/api/types';

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

export interface LinkEnd {
  side: Side;
  switch: string;
  port: string;
  rack: string;
  pod: number | null;
  transceiver_model: string | null;
  transceiver_serial: string | null;
  last_reseated_at: string | null;
}

export interface EvidenceThreshold {
  value: number | null;
  provenance: string | null;
}

/** One end's optics as recommend() read them (corruption/recommend.py optics_evidence). */
export interface EvidenceOptics {
  end: string;
  transceiver_model: string | null;
  optical_time: string | null;
  rx_dbm?: number | null;
  rx_min_lane_dbm?: number | null;
  tx_dbm?: number | null;
  tx_min_lane_dbm?: number | null;
  rx_class?: string | null;
  tx_class?: string | null;
  rx_no_light?: boolean | null;
  tx_no_light?: boolean | null;
  rx_low: boolean;
  tx_low: boolean;
  thresholds: Record<string, EvidenceThreshold>;
}

export interface EvidenceNeighbour {
  link: number;
  name: string;
  switch: string;
  port: string;
  direction: Direction;
  rate: number;
  first_seen: string;
  same_breakout_group: boolean;
  same_line_card: boolean;
  onset_within_window: boolean | null;
  rate_within_ratio: boolean | null;
}

export interface EvidenceHistoryStep {
  action_recommended: string;
  action_taken: string | null;
  time: string;
  outcome: StepOutcome;
}

export interface Evidence {
  link?: { id: number; name: string; fabric: number };
  direction?: Direction;
  local_end?: Side;
  far_end?: Side;
  rates?: { this: number | null; opposite: number | null; opposite_corrupting: boolean; onset: string | null };
  optics?: { local: EvidenceOptics; far: EvidenceOptics };
  has_optical_data?: boolean;
  neighbours?: { end: Side; switch: string; port: string; links: EvidenceNeighbour[] }[];
  reseat?: {
    last_reseated_at: string | null;
    source: string | null;
    recent: boolean;
    episode_start: string | null;
    window_days: number;
  };
  history?: EvidenceHistoryStep[];
  failed_actions?: string[];
  settings?: Record<string, number>;
}

export interface Recommendation {
  step: number;
  action: RepairAction;
  rule: string;
  explanation: string;
  evidence: Evidence;
}

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

export interface SuccessRate {
  attempts: number;
  fixed: number;
  rate: number | null;
}

/** GET /api/tickets/metrics/?fabric= */
export interface TicketMetrics {
  fabric: number | null;
  first_attempt: { all: SuccessRate; followed: SuccessRate; not_followed: SuccessRate };
  mean_time_to_repair_hours: number | null;
  repaired_tickets: number;
  open_tickets: number;
  open_tickets_by_state: Partial<Record<TicketState, number>>;
  disabled_links: number;
  disabled_links_for_corruption: number;
  corrupting_links_in_service: number | null;
  current_penalty: number | null;
  worst_tor_fraction: number | null;
}

export type MetricsBucket = 'day' | 'week';

/** One bucket of GET /api/tickets/metrics/history/ (UTC day or ISO week, [start, end)). */
export interface MetricsHistoryBucket {
  start: string;
  end: string;
  tickets_opened: number;
  tickets_resolved: number;
  /** Unresolved at the bucket's end. */
  open_tickets: number;
  /** First attempts counted in the bucket of the technician's action. */
  first_attempt: { all: SuccessRate; followed: SuccessRate; not_followed: SuccessRate };
  mean_time_to_repair_hours: number | null;
  repaired_tickets: number;
  links_disabled: number;
  repair_actions: number;
}

export interface TicketMetricsHistory {
  fabric: number | null;
  bucket: MetricsBucket;
  from: string;
  to: string;
  buckets: MetricsHistoryBucket[];
}
