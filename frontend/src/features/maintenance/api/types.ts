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
