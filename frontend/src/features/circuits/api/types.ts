/** Shapes of the circuits API (issue #7); slots and metrics are the engine's `circuit_plan` output. */
import type { Job } from '@/features/jobs/api/types';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** A circuit between racks a and b (rack indices of the schedule); count > 1 for parallel circuits. */
export interface Circuit {
  a: number;
  b: number;
  count: number;
}

export interface CircuitSlot {
  index: number;
  t0: number;
  t1: number;
  circuits: Circuit[];
  /** Racks whose port goes dark at t0 (a rack once per dark port). */
  changed_ports: number[];
  weight: number;
  bound: number;
  offloaded_bytes: number;
  algorithm: string;
  exact: boolean;
  maximal: boolean;
}

/** Pairs with demand whose longest wait for a circuit fell in [min_slots, max_slots] slots. */
export interface VisitDelayBin {
  min_slots: number;
  max_slots: number;
  min_s: number;
  max_s: number;
  pairs: number;
}

export interface CircuitMetrics {
  total_bytes: number;
  offloaded_bytes: number;
  optical_ratio: number;
  uniform_ratio: number;
  visit_delay_max_slots: number;
  visit_delay_p95_slots: number;
  /** Pairs per longest wait, in powers-of-two bins (0, 1, 2-3, 4-7, ...); absent from results
   * computed before it existed. */
  visit_delay_histogram?: VisitDelayBin[];
  flap_count: number;
  weight: number;
  bound: number;
  gap: number;
  fallback_slots: number;
  runtime_s: number;
}

/** One algorithm's metrics in the result's `comparison` (the main algorithm first). */
export type ComparisonMetrics = CircuitMetrics & { algorithm: string };

export const ALGORITHMS = ['exact', 'greedy', 'round_robin', 'static', 'random'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
export type Reconfig = 'per_port' | 'global';
export type PlanMode = 'replay' | 'drain';

export type PortUnavailable = Schemas['PortUnavailable'];

export interface Attachment {
  tor: number;
  tor_name: string;
  optical_ports: number;
  links: number[];
  available_ports: number;
  unavailable: PortUnavailable[];
}

/** `/api/circuit-switches/{id}/` */
export interface CircuitSwitch {
  id: number;
  url: string;
  fabric: number;
  name: string;
  zone: string;
  port_count: number;
  dark_time_s: number;
  capacity_gbps: number;
  description: string;
  attachments: Attachment[];
  ports_attached: number;
  ports_available: number;
  created: string;
  updated: string;
}

export interface AttachmentInput {
  tor: number;
  optical_ports: number;
  links?: number[];
}

/** What a create or update sends (attach_all_tors only on create). */
export interface CircuitSwitchInput {
  fabric: number;
  name: string;
  zone: string;
  port_count: number;
  dark_time_s: number;
  capacity_gbps: number;
  description: string;
  attachments?: AttachmentInput[];
  attach_all_tors?: boolean;
}

export type DemandWindow = Schemas['DemandWindow'];

/** A row of `/api/demands/` (the detail adds `windows`). */
export interface Demand {
  id: number;
  url: string;
  fabric: number;
  name: string;
  description: string;
  uploaded_by: string | null;
  created: string;
  window_s: number;
  first_window_start: number;
  window_count: number;
  row_count: number;
  rack_count: number;
  total_bytes: number;
  windows?: DemandWindow[];
}

export interface DemandUpload {
  fabric: number;
  name: string;
  description: string;
  window_s?: number;
  csv?: string;
  rows?: unknown[];
}

/** `GET /api/demands/{id}/matrix/`: sparse directed cells [row, column, bytes] into `racks`. */
export type DemandMatrix = Schemas['DemandMatrix'];

/** Rack pairs that earn `bonus_bytes` in a slot where all of them have circuits. */
export interface EdgeGroup {
  name: string;
  pairs: [string, string][];
  bonus_bytes: number;
}

/** The `params` of a `circuits.schedule` job; the server fills in what is left out. */
export interface ScheduleParams {
  period_s?: number;
  dark_time_s?: number;
  capacity_gbps?: number;
  reconfig?: Reconfig;
  mode?: PlanMode;
  algorithm?: Algorithm;
  seed?: number;
  min_demand_bytes?: number;
  burst_active?: number;
  burst_reset?: number;
  hysteresis?: number;
  time_budget_s?: number | null;
  max_slots?: number;
  compare?: Algorithm[];
  edge_groups?: EdgeGroup[];
}

export interface ScheduleRequest {
  demand: number;
  circuit_switch?: number;
  zone?: string;
  params: ScheduleParams;
}

export interface ScheduleRack {
  index: number;
  id: number;
  name: string;
  circuit_switch: number;
  optical_ports: number;
  available_ports: number;
  unavailable: PortUnavailable[];
}

export interface ScheduleInput {
  racks: number;
  ports: number[];
  zones: number[];
  capacity_bytes_per_s: number;
  period_s: number;
  dark_time_s: number;
  reconfig: Reconfig;
  mode: PlanMode;
  algorithm: string;
  seed: number;
  min_demand_bytes: number;
  burst_active: number;
  burst_reset: number;
  hysteresis: number;
  time_budget_s: number | null;
  max_slots: number;
  /** Edge groups by rack index: [[[a, b], ...], bonus bytes]. */
  groups?: [[number, number][], number][];
  /** Demand per period, directed [a, b, bytes] by rack index; null when too large to echo. */
  windows: [number, number, number][][] | null;
}

export interface EdgeGroupScore {
  name: string;
  pairs: [string, string][];
  bonus_bytes: number;
  completed_slots: number;
  bonus_earned_bytes: number;
}

/** `GET /api/jobs/{id}/result/?format=json` of a `circuits.schedule` job. */
export interface ScheduleResult {
  demand: { id: number; name: string; window_s: number; first_window_start: number };
  fabric: { id: number; name: string };
  circuit_switches: { id: number; name: string; zone: string; port_count: number }[];
  racks: ScheduleRack[];
  params: ScheduleParams & Record<string, unknown>;
  input: ScheduleInput;
  ignored: { rows: number; bytes: number };
  slots: CircuitSlot[];
  metrics: CircuitMetrics;
  comparison: ComparisonMetrics[];
  edge_groups: EdgeGroupScore[];
}

export const SCHEDULE_KIND = 'circuits.schedule';

export type ScheduleSummary = Schemas['ScheduleSummary'];

/** A row of `/api/circuit-schedules/`: the job (no result) and what it planned. */
export type ScheduleJobBrief = Omit<Job, 'result'> & {
  /** `deleted`: gone since; the name is then the one the finished schedule stored (null if none). */
  demand: Schemas['ScheduledObject'];
  circuit_switches: Schemas['ScheduledObject'][];
  zone: string | null;
  algorithm: string;
  mode: string;
  summary: ScheduleSummary | null;
};

export type ScheduleJob = Omit<Job, 'result'> & { result: ScheduleResult | null };
