/** The change log in words: what kind of object, what happened to it, what changed, where it lives. */
import type { AuditAction, AuditEvent } from './api/types';

/** The object types the filter offers (the API's `object_type`, named as the server names them in
 * `object_type_label`), with the page that shows one. */
export const OBJECT_TYPES: Record<string, { label: string; path?: (id: number) => string }> = {
  'fabric.fabric': { label: 'Fabric', path: (id) => `/fabrics/${id}` },
  'fabric.switch': { label: 'Switch' },
  'fabric.link': { label: 'Link', path: (id) => `/links/${id}` },
  'fabric.transceiver': { label: 'Transceiver' },
  'fabric.transceivermodel': { label: 'Transceiver model' },
  'corruption.ticket': { label: 'Ticket', path: (id) => `/tickets/${id}` },
  'corruption.ticketstep': { label: 'Ticket step' },
  'corruption.ticketcomment': { label: 'Ticket comment' },
  'maintenance.workorder': { label: 'Work order', path: (id) => `/work-orders/${id}` },
  'circuits.circuitswitch': { label: 'Circuit switch' },
  // Demands are uploaded and deleted on the Circuits page (circuits/api/views.py audits both).
  'circuits.demand': { label: 'Demand', path: () => '/circuits' },
  'telemetry.powerthreshold': { label: 'Power threshold' },
  'webhooks.webhookendpoint': { label: 'Webhook endpoint', path: () => '/webhooks' },
};

export const ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  import: 'Imported',
};

/** The page of the object, when it has one and still exists (a deleted object has none). */
export function objectPath(event: Pick<AuditEvent, 'object_type' | 'object_id' | 'action'>): string | undefined {
  if (event.object_id === null || event.action === 'delete') return undefined;
  return OBJECT_TYPES[event.object_type]?.path?.(event.object_id);
}

/**
 * What an update changed, in the server's words (audit/words.py, the CSV's "What changed" too):
 * "admin state: Enabled → Disabled; admin changed by: (none) → olga". Empty when nothing did.
 */
export function changeText(event: Pick<AuditEvent, 'changes'>): string {
  return event.changes.map((change) => `${change.field}: ${change.before} → ${change.after}`).join('; ');
}
