import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { formatSeconds, formatTime } from '@/lib/format';

import type { WorkOrderState } from '../api/types';
import { useWorkOrders } from '../api/useWorkOrders';
import { actionLabel } from '../actionLabel';

const PAGE_SIZE = 50;
const STATES: WorkOrderState[] = ['open', 'in_progress', 'done', 'cancelled'];

/** The visits waiting: tickets whose repairs share links, one row each. */
export function WorkOrdersPage() {
  const [state, setState] = useState<WorkOrderState>('open');
  const [page, setPage] = useState(1);
  const orders = useWorkOrders({ state: [state] }, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return (
    <section aria-labelledby="work-orders-heading">
      <h1 id="work-orders-heading">Work orders</h1>
      <label>
        State
        <select
          value={state}
          onChange={(event) => {
            setState(event.target.value as WorkOrderState);
            setPage(1);
          }}
        >
          {STATES.map((name) => (
            <option key={name} value={name}>
              {name.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      {orders.isPending ? <Loading label="Loading work orders…" /> : null}
      <ErrorList error={orders.error} title="Could not load work orders." />
      {orders.data ? (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Repair</th>
                <th scope="col">Links down</th>
                <th scope="col">Takes</th>
                <th scope="col">Tickets</th>
                <th scope="col">Opened</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.results.map((order) => (
                <tr key={order.id}>
                  <td>
                    <Link to={`/work-orders/${order.id}`}>#{order.id}</Link>
                  </td>
                  <td>
                    {actionLabel(order.action)}: {order.component_name}
                  </td>
                  <td>{order.footprint_size}</td>
                  <td>{formatSeconds(order.duration_s)}</td>
                  <td>{order.tickets.map((id) => `#${id}`).join(', ')}</td>
                  <td>{formatTime(order.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination
            total={orders.data.count}
            page={page}
            pageSize={PAGE_SIZE}
            shown={orders.data.results.length}
            onPageChange={setPage}
            label="Work order pages"
          />
        </>
      ) : null}
    </section>
  );
}
