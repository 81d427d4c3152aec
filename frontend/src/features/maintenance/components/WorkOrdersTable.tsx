import { Link } from 'react-router';

import type { WorkOrder } from '../api/types';
import { actionLabel } from '../actionLabel';
import { formatDuration, STATE_LABELS } from '../workOrders';

interface WorkOrdersTableProps {
  orders: readonly WorkOrder[];
  /** Rack (and ToR) of each order's visit, by order id; absent while loading. */
  locations: ReadonlyMap<number, string>;
  fabricNames: ReadonlyMap<number, string>;
}

/** The work orders as a table; on a phone each order is a card (maintenance.css), its state on top. */
export function WorkOrdersTable({ orders, locations, fabricNames }: WorkOrdersTableProps) {
  return (
    <div className="table-scroll">
      <table className="data-table work-orders-table" data-testid="work-orders">
        <caption className="visually-hidden">Work orders</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Action</th>
            <th scope="col">Component</th>
            <th scope="col">Location</th>
            <th scope="col" className="numeric">
              Footprint
            </th>
            <th scope="col">Tickets</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} data-testid="work-order-row" data-order-id={order.id} data-state={order.state}>
              <th scope="row" data-label="Order">
                <Link to={`/work-orders/${order.id}`} aria-label={`Work order ${order.id}: ${order.component_name}`}>
                  #{order.id}
                </Link>
              </th>
              <td data-label="Action">{actionLabel(order.action)}</td>
              <td data-label="Component" className="work-order-component">
                {order.component_name}
              </td>
              <td data-testid="work-order-location" data-label="Location">
                {locations.get(order.id) ?? '…'}
                {fabricNames.size > 1 ? (
                  <span className="muted"> · {fabricNames.get(order.fabric) ?? `fabric ${order.fabric}`}</span>
                ) : null}
              </td>
              <td
                data-label="Footprint"
                className="numeric"
                title={`${formatDuration(order.duration_s)} out of service`}
              >
                {order.footprint_size} {order.footprint_size === 1 ? 'link' : 'links'}
              </td>
              <td data-label="Tickets">
                {order.tickets.map((ticket, index) => (
                  <span key={ticket}>
                    {index > 0 ? ', ' : ''}
                    <Link to={`/tickets/${ticket}`}>#{ticket}</Link>
                  </span>
                ))}
              </td>
              <td data-label="State">
                <span className={`badge badge-order-${order.state}`} data-testid="work-order-state">
                  {STATE_LABELS[order.state]}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
