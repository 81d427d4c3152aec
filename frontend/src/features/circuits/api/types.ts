/**
 * Shapes of the circuits API (issue #7), generated from the server's OpenAPI document
 * (circuits/api/serializers.py); slots and metrics are the engine's `circuit_plan` output. UI-only:
 * `ScheduleParams`, `EdgeGroup` and `ScheduleRequest` (a schedule's params, which the server takes as
 * a document it checks itself) and `ScheduleJob` (a job narrowed to its kind's result).
 */
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

export type Attachment = Schemas['Attachment'];

/** `/api/circuit-switches/{id}/` */
export type CircuitSwitch = Schemas['CircuitSwitch'];

/** An attachment as the switch form sends it: always with its port count. */
export type AttachmentInput = Schemas['AttachmentRequest'] & Required<Pick<Schemas['AttachmentRequest'], 'optical_ports'>>;

type CircuitSwitchBody = Schemas['CircuitSwitchRequest'];

/**
 * What a create or update sends (attach_all_tors only on create; openapi-typescript reads its
 * default as "always present", which holds for answers, not for bodies).
 */
export type CircuitSwitchInput = Omit<CircuitSwitchBody, 'attach_all_tors'> &
  Partial<Pick<CircuitSwitchBody, 'attach_all_tors'>>;

export type DemandWindow = Schemas['DemandWindow'];

/** A row of `/api/demands/`. */
export type Demand = Schemas['Demand'];

/**
 * POST /api/demands/ (JSON): `rows` are a file's entries sent unchecked (the server lists the bad
 * ones by entry); `file` is the multipart form's.
 */
export type DemandUpload = Omit<Schemas['DemandUploadRequest'], 'rows' | 'file'> & { rows?: unknown[] };

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
export type ScheduleJobBrief = Schemas['ScheduleList'];

export type ScheduleJob = Omit<Job, 'result'> & { result: ScheduleResult | null };
