/** Audit answers, generated from the server's OpenAPI document (audit/api/serializers.py). UI-only: `AuditFilters`. */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type AuditEvent = Schemas['AuditEvent'];
export type AuditAction = Schemas['AuditEventActionEnum'];

/** The audit page's query (`GET /api/audit/`). */
export interface AuditFilters {
  /** Who made the change (username). */
  username?: string;
  /** Model label, e.g. `fabric.link`. */
  object_type?: string;
  object_id?: number;
  action?: AuditAction;
  /** ISO times bounding `timestamp`. */
  timestamp__gte?: string;
  timestamp__lte?: string;
}
