import { Link } from 'react-router';

import { actionTodo } from '@/features/tickets';

import { useLinkWorkOrders } from '../api/useLinkWorkOrders';

/** The work orders that take this link down (trial item 17b): the repair, its state, a way there. */
export function LinkWorkOrders({ linkId }: { linkId: number }) {
  const orders = useLinkWorkOrders(linkId);
  if (orders.isPending) return <>…</>;
  if (orders.isError) return <span className="muted">could not load work orders</span>;
  if (orders.data.results.length === 0) return <span className="muted">none open</span>;
  return (
    <>
      {orders.data.results.map((order) => (
        <div key={order.id} className="link-work-order" data-testid="link-work-order">
          <Link to={`/work-orders/${order.id}`}>Work order #{order.id}</Link>
          {`: ${actionTodo(order.action)}, ${order.component_name} `}
          <span className="muted" data-testid="link-work-order-state">
            ({order.state.replace('_', ' ')})
          </span>
        </div>
      ))}
    </>
  );
}
