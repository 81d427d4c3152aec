/** The change log in words: what kind of object, what happened to it, what changed, where it lives. */
import type { AuditAction, AuditEvent } from './api/types';

/** Model labels (the API's `object_type`) as people name them, with the page that shows one. */
export const OBJECT_TYPES: Record<string, { label: string; path?: (id: number) => string }> = {
  'fabric.fabric': { label: 'Fabric', path: (id) => `/fabrics/${id}` },
  'fabric.switch': { label: 'Switch' },
  'fabric.link': { label: 'Link', path: (id) => `/links/${id}` },
  'fabric.transceiver': { label: 'Transceiver' },
  'fabric.transceivermodel': { label: 'Transceiver model' },
  'corruption.ticket': { label: 'Ticket', path: (id) => `/tickets/${id}` },
  'maintenance.workorder': { label: 'Work order', path: (id) => `/work-orders/${id}` },
  'circuits.circuitswitch': { label: 'Circuit switch' },
  'telemetry.powerthreshold': { label: 'Power threshold' },
  'webhooks.webhookendpoint': { label: 'Webhook endpoint', path: () => '/webhooks' },
};

export const ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  import: 'Imported',
};

export function objectTypeLabel(objectType: string): string {
  return OBJECT_TYPES[objectType]?.label ?? objectType;
}

/** The page of the object, when it has one and still exists (a deleted object has none). */
export function objectPath(event: Pick<AuditEvent, 'object_type' | 'object_id' | 'action'>): string | undefined {
  if (event.object_id === null || event.action === 'delete') return undefined;
  return OBJECT_TYPES[event.object_type]?.path?.(event.object_id);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * What an update changed: "admin state: enabled → disabled; admin reason: (none) → bent fiber".
 * Empty for a creation, a deletion, or an update whose snapshots say nothing changed.
 */
export function changeText(event: Pick<AuditEvent, 'action' | 'before' | 'after'>): string {
  if (event.action !== 'update' || !isRecord(event.before) || !isRecord(event.after)) return '';
  const before = event.before;
  const after = event.after;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  );
  return fields
    .map((field) => `${field.replaceAll('_', ' ')}: ${valueText(before[field])} → ${valueText(after[field])}`)
    .join('; ');
}
