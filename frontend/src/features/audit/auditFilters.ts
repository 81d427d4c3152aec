import type { AuditAction, AuditFilters } from './api/types';
import { ACTION_LABELS } from './auditText';

const ACTIONS = Object.keys(ACTION_LABELS) as AuditAction[];
const FILTER_KEYS = ['username', 'object_type', 'object_id', 'action', 'timestamp__gte', 'timestamp__lte'] as const;

/** Filters live in the URL so a filtered log can be shared; junk is dropped. */
export function auditFiltersFromParams(params: URLSearchParams): AuditFilters {
  const objectId = Number(params.get('object_id'));
  const action = params.get('action');
  const time = (key: string) => {
    const value = params.get(key);
    return value && !Number.isNaN(Date.parse(value)) ? value : undefined;
  };
  return {
    username: params.get('username')?.trim() || undefined,
    object_type: params.get('object_type') || undefined,
    object_id: Number.isInteger(objectId) && objectId > 0 ? objectId : undefined,
    action: ACTIONS.find((candidate) => candidate === action),
    timestamp__gte: time('timestamp__gte'),
    timestamp__lte: time('timestamp__lte'),
  };
}

/** `current` with the filters replaced (the table's ordering and page size kept, back to page 1). */
export function withAuditFilters(current: URLSearchParams, filters: AuditFilters): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('page');
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}
