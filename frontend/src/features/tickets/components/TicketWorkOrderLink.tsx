import { Link } from 'react-router';

import { useTicketWorkOrder } from '../api/useTicketWorkOrder';

/** The work order this ticket's repair is part of: one visit with the tickets sharing its component. */
export function TicketWorkOrderLink({ ticket }: { ticket: { id: number; fabric: number } }) {
  const order = useTicketWorkOrder(ticket);
  if (order.isPending) return <>…</>;
  if (!order.data) return <span className="muted">none open</span>;
  return (
    <span data-testid="ticket-work-order">
      <Link to={`/work-orders/${order.data.id}`}>
        Work order #{order.data.id}: {order.data.component_name}
      </Link>{' '}
      <span className="muted">({order.data.state.replace('_', ' ')})</span>
    </span>
  );
}
