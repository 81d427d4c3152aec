/** Shapes of the circuits API (issue #7); slots and metrics are the engine's `circuit_plan` output. */
import type { Job } from '@/features/jobs';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type Circuit = Schemas['Circuit'];

export type CircuitSlot = Schemas['CircuitSlot'];

export type VisitDelayBin = Schemas['VisitDelayBin'];

export type CircuitMetrics = Schemas['CircuitMetrics'];

/** One algorithm's metrics in the result's `comparison` (the main algorithm first). */
export type ComparisonMetrics = Schemas['ComparisonMetrics'];

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

export type ScheduleRack = Schemas['ScheduleRack'];

export type ScheduleInput = Schemas['ScheduleInput'];

export type EdgeGroupScore = Schemas['EdgeGroupScore'];

export type ScheduleResult = Schemas['ScheduleResult'];

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
