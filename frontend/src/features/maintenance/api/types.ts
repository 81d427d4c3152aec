import type { components } from '@/lib/api/schema';

/** A work order as listed (GET /api/work-orders/). */
export type WorkOrder = components['schemas']['WorkOrder'];
/** A work order with its tickets, footprint links, ToRs and the guard's dry run. */
export type WorkOrderDetail = components['schemas']['WorkOrderDetail'];
export type WorkOrderState = WorkOrder['state'];

export interface WorkOrderQuery {
  fabric?: number;
  state?: WorkOrderState[];
}
