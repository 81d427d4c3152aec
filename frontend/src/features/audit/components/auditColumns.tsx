import type { TableColumn } from '@/components/table';
import { formatTime } from '@/lib/format';

import type { AuditEvent } from '../api/types';
import { ACTION_LABELS, changeText } from '../auditText';
import { AuditObjectLink } from './AuditObjectLink';

export const AUDIT_COLUMNS: TableColumn<AuditEvent>[] = [
  { key: 'time', label: 'Time', sortField: 'timestamp', required: true, cell: (event) => formatTime(event.timestamp) },
  { key: 'who', label: 'Who', sortField: 'user__username', cell: (event) => event.user ?? 'the system' },
  { key: 'action', label: 'Action', sortField: 'action', cell: (event) => ACTION_LABELS[event.action] },
  {
    key: 'object_type',
    label: 'Object type',
    sortField: 'object_type',
    cell: (event) => event.object_type_label,
  },
  { key: 'object', label: 'Object', cell: (event) => <AuditObjectLink event={event} /> },
  { key: 'change', label: 'What changed', cell: (event) => changeText(event) || '—' },
  { key: 'note', label: 'Note', cell: (event) => event.note || '—' },
];

export const AUDIT_COLUMN_KEYS = AUDIT_COLUMNS.map((column) => column.key);
export const AUDIT_SORT_FIELDS = AUDIT_COLUMNS.flatMap((column) => column.sortField ?? []);
