/**
 * Shapes of /api/work-orders/, generated from the server's OpenAPI document
 * (backend/maintenance/api/serializers.py). UI-only: `WorkOrderQuery` (the list's query) and
 * `PlanParams` (a job's params: a document the server checks, like the other kinds' params).
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
export type AssignableUser = Schemas['UserList'];

/** GET /api/work-orders/today/: the user's visits in the newest plan naming them (plan null: none does). */
export type TodayAnswer = Schemas['Today'];

export type TodayPlan = Schemas['TodayPlan'];

/** One of the user's visits, with its work order as it is now. */
export type TodayVisit = Schemas['TodayVisit'];

/** A stretch of the shift with the same visits under way, and the ToR left with the least spare paths. */
export type HeadroomInterval = Schemas['PlanHeadroom'];

/** A ToR under its requirement before any work: the plan keeps it where it is. */
export type PlanShortTor = Schemas['PlanShortTor'];

export type PlannedVisit = Schemas['PlanVisit'];

/** The `tickets.plan` job's result. */
export type MaintenancePlan = Schemas['MaintenancePlanResult'];

/** Why an order waits (the engine's first reason that holds); absent from plans made before reasons were given. */
export type LeftForLater = Schemas['PlanLeftForLater'];

/** `tickets.plan` params (backend/maintenance/jobs.py validate_params); omitted keys take the server's defaults. */
export interface PlanParams {
  assignees: string[];
  shift_start: string;
  shift_hours: number;
}
