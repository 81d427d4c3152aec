import { DataTable, type TableColumn } from '@/components/table';
import { formatTime } from '@/lib/format';

import type { WebhookDelivery } from '../api/types';

const STATE_LABELS: Record<WebhookDelivery['state'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

const EVENT_LABELS: Record<string, string> = {
  'link.admin_state_changed': 'Link taken out of / put back in service',
  'link.oper_state_changed': 'Link went down / came up',
  'webhook.test': 'Test',
};

/** The delivery log: each event sent, its state, the receiver's last answer, and Redeliver. */
export function DeliveriesTable({
  deliveries,
  onRedeliver,
  redelivering,
}: {
  deliveries: WebhookDelivery[];
  onRedeliver?: (delivery: WebhookDelivery) => void;
  redelivering?: number;
}) {
  const columns: TableColumn<WebhookDelivery>[] = [
    { key: 'created', label: 'Sent', required: true, cell: (delivery) => formatTime(delivery.created) },
    { key: 'endpoint', label: 'Endpoint', cell: (delivery) => delivery.endpoint_name },
    { key: 'event', label: 'Event', cell: (delivery) => EVENT_LABELS[delivery.event_type] ?? delivery.event_type },
    {
      key: 'state',
      label: 'State',
      cell: (delivery) => (
        <span className={`badge badge-delivery-${delivery.state}`}>
          {delivery.state === 'pending' && delivery.sending_since ? 'Sending…' : STATE_LABELS[delivery.state]}
        </span>
      ),
    },
    {
      key: 'status',
      label: 'Response code',
      numeric: true,
      cell: (delivery) => delivery.last_status_code ?? '—',
    },
    { key: 'attempts', label: 'Attempts', numeric: true, cell: (delivery) => delivery.attempts },
    {
      key: 'error',
      label: 'Last error',
      cell: (delivery) => delivery.last_error || '—',
    },
    {
      key: 'next',
      label: 'Next attempt',
      // While an attempt runs, next_attempt_at is only its lease: no retry is scheduled.
      cell: (delivery) =>
        delivery.state === 'pending' && !delivery.sending_since && delivery.next_attempt_at
          ? formatTime(delivery.next_attempt_at)
          : '—',
    },
  ];
  if (onRedeliver) {
    columns.push({
      key: 'redeliver',
      label: 'Action',
      cell: (delivery) => (
        <button
          type="button"
          onClick={() => onRedeliver(delivery)}
          disabled={redelivering === delivery.id}
          aria-label={`Redeliver delivery ${delivery.id}`}
        >
          {redelivering === delivery.id ? 'Redelivering…' : 'Redeliver'}
        </button>
      ),
    });
  }
  return (
    <DataTable
      caption="Deliveries"
      testId="webhook-deliveries"
      columns={columns}
      rows={deliveries}
      rowKey={(delivery) => delivery.id}
      rowProps={(delivery) => ({ 'data-delivery-id': delivery.id, 'data-state': delivery.state })}
    />
  );
}
