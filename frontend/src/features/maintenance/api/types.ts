/**
 * Shapes of /api/work-orders/, generated from the server's OpenAPI document
 * (backend/maintenance/api/serializers.py). UI-only: `WorkOrderQuery` (the list's query).
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type WorkOrderState = Schemas['WorkOrderStateEnum'];

/** A row of the list. */
export type WorkOrder = Schemas['WorkOrder'];

/** The page: tickets, footprint links, the ToRs on them and the guard's dry run. */
export type WorkOrderDetail = Schemas['WorkOrderDetail'];

export type WorkOrderTicket = Schemas['WorkOrderTicket'];

export type FootprintLink = Schemas['FootprintLink'];

/** Where the work is (the server knows which end of the component is repaired). */
export type WorkOrderLocation = Schemas['WorkOrderLocation'];

/** POST start/?dry_run=1, and the body of a refused start (409). */
export type StartPreview = Schemas['WorkOrderStartPreview'];

export type StartVerdict = Schemas['WorkOrderStartPreviewVerdictEnum'];

export type Restoration = Schemas['Restoration'];

export type UnreachableTor = Schemas['UnreachableTor'];

export type WaitsFor = Schemas['WaitsFor'];

export type StartInput = Schemas['WorkOrderStartRequest'];

export type FinishInput = Schemas['WorkOrderFinishRequest'];

/** POST finish/: the order after the visit, and a sentence on what became of its links. */
export type FinishedWorkOrder = Schemas['WorkOrderFinished'];

export type Outcome = FinishInput['outcome'];

/** Query parameters of the list, as the API reads them (a repeated parameter means OR). */
export interface WorkOrderQuery {
  fabric?: number;
  state?: WorkOrderState[];
}

/** What the page needs of a footprint link beyond the order's answer (GET /api/links/{id}/). */
export type LinkFacts = Pick<
  Schemas['Link'],
  | 'id'
  | 'a_switch'
  | 'a_switch_name'
  | 'a_port'
  | 'z_switch'
  | 'z_switch_name'
  | 'z_port'
  | 'length_m'
  | 'fiber'
  | 'speed_gbps'
  | 'components'
>;

export type Transceiver = Schemas['Transceiver'];

export type SwitchFacts = Pick<Schemas['Switch'], 'id' | 'name' | 'tier' | 'rack'>;

/* ---- The technician's day and the operator's plan (contract-today.md). ---- */

/** GET /api/users/?role=technician: who may be assigned visits. */
export interface AssignableUser {
  username: string;
  full_name: string;
  roles: string[];
}

/** GET /api/work-orders/today/: the plan that names the user, if any. */
export interface TodayPlan {
  job: number;
  fabric: { id: number; name: string };
  planned_at: string;
  shift_start: string;
  shift_end: string;
  stale: boolean;
  stale_reasons: string[];
}

/** One of the user's visits, with its order as it is now. */
export interface TodayVisit {
  work_order: WorkOrder;
  start_at: string;
  end_at: string;
  start_s: number;
  end_s: number;
  links_down: Schemas['WorkOrderLink'][];
  restored: Schemas['WorkOrderLink'][];
  done: boolean;
}

export interface TodayAnswer {
  user: string;
  plan: TodayPlan | null;
  visits: TodayVisit[];
  detail: string;
}

export interface HeadroomInterval {
  start_s: number;
  end_s: number;
  worst_tor: { id: number; name: string } | null;
  spare_paths: number | null;
  paths: number | null;
  required_paths: number | null;
  visits: number[];
}

export interface LeftForLater {
  work_order: number;
  reason: 'longer_than_shift' | 'never_safe' | 'restoration_dearer' | 'no_penalty' | 'no_room';
  detail: string;
}

export type PlannedVisit = Schemas['PlanVisit'] & { technician_name: string; start_at: string; end_at: string };

/** The `tickets.plan` job's result. */
export type MaintenancePlan = Omit<Schemas['MaintenancePlanResult'], 'visits'> & {
  shift_start: string;
  assignees: string[] | null;
  visits: PlannedVisit[];
  left_for_later?: LeftForLater[];
  headroom: HeadroomInterval[];
};

/** POST /api/jobs/ body of a plan (backend/maintenance/jobs.py validate_params). */
export interface PlanParams {
  assignees: string[];
  shift_start: string;
  shift_hours: number;
}
