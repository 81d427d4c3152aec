import { useMemo, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { DataTable, type TableColumn } from '@/components/table';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';
import { formatTime } from '@/lib/format';
import { pageOffset } from '@/lib/pagination';

import type { WebhookEndpoint, WebhookEndpointCreated } from '../api/types';
import {
  useRedeliverWebhook,
  useTestWebhookEndpoint,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from '../api/webhooks';
import { DeliveriesTable } from '../components/DeliveriesTable';
import { EndpointForm } from '../components/EndpointForm';
import { canManageWebhooks } from '../roles';

const DELIVERIES_PAGE = 25;

export function WebhooksPage() {
  const user = useCurrentUser();
  const allowed = canManageWebhooks(user.data);
  return (
    <section aria-labelledby="webhooks-heading">
      <h1 id="webhooks-heading">Webhooks</h1>
      <p className="lede">
        Receivers of a fabric&apos;s link state changes, signed with the endpoint&apos;s secret, and every delivery made
        to them.
      </p>
      {user.isPending ? <Loading label="Loading…" /> : null}
      {user.data && !allowed ? (
        <p role="alert" className="error-box" data-testid="webhooks-not-allowed">
          Only operators and admins may manage webhooks. Ask one of them to add or change an endpoint.
        </p>
      ) : null}
      {allowed ? <WebhooksManager /> : null}
    </section>
  );
}

function WebhooksManager() {
  const endpoints = useWebhookEndpoints();
  const fabricChoices = useFabricChoices();
  const fabricNames = useMemo(
    () => new Map((fabricChoices.data?.results ?? []).map((fabric) => [fabric.id, fabric.name])),
    [fabricChoices.data],
  );
  const update = useUpdateWebhookEndpoint();
  const test = useTestWebhookEndpoint();
  const redeliver = useRedeliverWebhook();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  const [endpointFilter, setEndpointFilter] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(
    { endpoint: endpointFilter },
    { limit: DELIVERIES_PAGE, offset: pageOffset(page, DELIVERIES_PAGE) },
  );

  const columns: TableColumn<WebhookEndpoint>[] = [
    { key: 'name', label: 'Name', required: true, cell: (endpoint) => endpoint.name },
    { key: 'fabric', label: 'Fabric', cell: (endpoint) => fabricNames.get(endpoint.fabric) ?? endpoint.fabric },
    { key: 'payload_url', label: 'Payload URL', cell: (endpoint) => <code>{endpoint.payload_url}</code> },
    {
      key: 'enabled',
      label: 'State',
      cell: (endpoint) => (
        <span className={`badge badge-${endpoint.enabled ? 'enabled' : 'disabled'}`}>
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </span>
      ),
    },
    { key: 'secret', label: 'Secret', cell: (endpoint) => endpoint.secret_hint || '—' },
    { key: 'pending', label: 'Waiting', numeric: true, cell: (endpoint) => endpoint.pending_deliveries },
    { key: 'failed', label: 'Failed', numeric: true, cell: (endpoint) => endpoint.failed_deliveries },
    { key: 'last_success', label: 'Last delivered', cell: (endpoint) => formatTime(endpoint.last_success_at) },
    {
      key: 'actions',
      label: 'Actions',
      cell: (endpoint) => (
        <span className="row-actions">
          <button type="button" onClick={() => setEditing(endpoint)}>
            Edit
          </button>{' '}
          <button
            type="button"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: endpoint.id, enabled: !endpoint.enabled })}
          >
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>{' '}
          <button type="button" disabled={!endpoint.enabled || test.isPending} onClick={() => test.mutate(endpoint.id)}>
            Send test
          </button>
        </span>
      ),
    },
  ];

  return (
    <>
      <section className="panel" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        {created?.secret ? (
          <div className="notice" role="status" data-testid="webhook-secret">
            <p>
              Secret of <strong>{created.name}</strong>, shown only now: store it on the receiver, which checks each
              request&apos;s signature with it.
            </p>
            <code>{created.secret}</code>{' '}
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        ) : null}
        {editing ? (
          <EndpointForm
            key={editing === 'new' ? 'new' : editing.id}
            endpoint={editing === 'new' ? undefined : editing}
            onDone={(answer) => {
              setEditing(null);
              if (answer) setCreated(answer);
            }}
          />
        ) : (
          <button type="button" onClick={() => setEditing('new')}>
            New endpoint
          </button>
        )}
        <ErrorList error={update.error ?? test.error} title="Could not change the endpoint." />
        {endpoints.isPending ? <Loading label="Loading endpoints…" /> : null}
        <ErrorList error={endpoints.error} title="Could not load the endpoints." />
        {endpoints.data ? (
          endpoints.data.count === 0 ? (
            <p>No endpoints yet.</p>
          ) : (
            <DataTable
              caption="Endpoints"
              testId="webhook-endpoints"
              columns={columns}
              rows={endpoints.data.results}
              rowKey={(endpoint) => endpoint.id}
              rowProps={(endpoint) => ({ 'data-endpoint-id': endpoint.id })}
            />
          )
        ) : null}
      </section>

      <section className="panel" aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="filters">
          <label>
            Endpoint
            <select
              value={endpointFilter ?? ''}
              onChange={(event) => {
                setEndpointFilter(Number(event.target.value) || undefined);
                setPage(1);
              }}
            >
              <option value="">All endpoints</option>
              {(endpoints.data?.results ?? []).map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpoint.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <ErrorList error={redeliver.error} title="Could not redeliver." />
        {redeliver.data ? <p role="status">Sent again as a new delivery ({redeliver.data.delivery_id}).</p> : null}
        {deliveries.isPending ? <Loading label="Loading deliveries…" /> : null}
        <ErrorList error={deliveries.error} title="Could not load the deliveries." />
        {deliveries.data ? (
          deliveries.data.count === 0 ? (
            <p>No deliveries yet.</p>
          ) : (
            <>
              <DeliveriesTable
                deliveries={deliveries.data.results}
                onRedeliver={(delivery) => redeliver.mutate(delivery.id)}
                redelivering={redeliver.isPending ? redeliver.variables : undefined}
              />
              <Pagination
                label="Delivery pages"
                total={deliveries.data.count}
                page={page}
                pageSize={DELIVERIES_PAGE}
                shown={deliveries.data.results.length}
                onPageChange={setPage}
              />
            </>
          )
        ) : null}
      </section>
    </>
  );
}
