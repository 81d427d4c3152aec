import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { TicketStateBadge } from '@/features/tickets';
import { formatTime } from '@/lib/format';

import { useWorkOrder } from '../api/useWorkOrder';
import { actionLabel } from '../actionLabel';
import { WorkOrderFootprint } from '../components/WorkOrderFootprint';

export function WorkOrderDetailPage() {
  const { workOrderId: rawId } = useParams();
  const workOrderId = Number(rawId);
  const order = useWorkOrder(workOrderId);
  if (!Number.isInteger(workOrderId) || workOrderId <= 0) {
    return (
      <section>
        <h1>Work order not found</h1>
        <p>
          “{rawId}” is not a work order id. <Link to="/work-orders">Back to work orders</Link>
        </p>
      </section>
    );
  }
  return (
    <article aria-labelledby="work-order-heading">
      <p className="breadcrumb">
        <Link to="/work-orders">Work orders</Link>
      </p>
      <h1 id="work-order-heading">
        Work order #{workOrderId}
        {order.data ? ` · ${actionLabel(order.data.action)}` : ''}
      </h1>
      {order.isPending ? <Loading label="Loading work order…" /> : null}
      <ErrorList error={order.error} title="Could not load the work order." />
      {order.data ? (
        <>
          <p className="muted">
            {order.data.state}, opened {formatTime(order.data.created)}
          </p>
          <WorkOrderFootprint order={order.data} />
          <section className="panel" aria-labelledby="work-order-tickets">
            <h2 id="work-order-tickets">Tickets</h2>
            <ul>
              {order.data.ticket_details.map((ticket) => (
                <li key={ticket.id}>
                  <Link to={`/tickets/${ticket.id}`}>#{ticket.id}</Link> <TicketStateBadge state={ticket.state} />{' '}
                  {ticket.link_name}: {actionLabel(ticket.recommended_action)}
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </article>
  );
}
