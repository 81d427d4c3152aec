import { Link } from 'react-router';

import { formatTime } from '@/lib/format';

import type { WorkOrderDetail } from '../api/types';
import { useFinishWorkOrder } from '../api/useFinishWorkOrder';
import { useToday } from '../api/useToday';
import { actionLabel } from '../actionLabel';
import { nextVisit } from '../nextVisit';
import { visitWindow } from '../today';
import { STATE_LABELS } from '../workOrders';
import { FinishForm } from './FinishForm';
import { StartWorkPanel } from './StartWorkPanel';

/** What the user can do next, by the order's state: start (open), finish (in progress), or read how it ended. */
export function WorkOrderActions({
  order,
  canOverride,
  hasToday = false,
}: {
  order: WorkOrderDetail;
  canOverride: boolean;
  /** The user's role has a day (Today): a finish offers the way back to it and the next visit. */
  hasToday?: boolean;
}) {
  // Held here: the finish form goes away when the order moves on, its answer stays on screen.
  const finish = useFinishWorkOrder(order);
  return (
    <div className="work-order-actions" data-testid="work-order-actions">
      {finish.data ? (
        <p
          className={finish.data.outcome === 'repaired' ? 'success-box' : 'notice'}
          role="status"
          data-testid="finish-message"
        >
          {finish.data.detail}
        </p>
      ) : null}
      {finish.data && hasToday ? <AfterFinish finished={order.id} /> : null}
      {order.state === 'open' ? <StartWorkPanel key={order.updated} order={order} canOverride={canOverride} /> : null}
      {order.state === 'in_progress' ? (
        <>
          <p data-testid="started-note">
            Started {formatTime(order.started_at)}
            {order.started_by ? ` by ${order.started_by}` : ''}: the footprint is out of service
            {order.restored_links.length > 0
              ? `, and ${order.restored_links.length === 1 ? '1 link is' : `${order.restored_links.length} links are`} restored for the repair`
              : ''}
            .
          </p>
          <FinishForm key={order.updated} order={order} finish={finish} />
        </>
      ) : null}
      {order.state === 'done' || order.state === 'cancelled' ? (
        <p data-testid="ended-note">
          {order.state === 'done'
            ? `Finished ${formatTime(order.finished_at)}${order.outcome ? `: ${order.outcome.replace('_', ' ')}` : ''}.`
            : `This work order is ${STATE_LABELS[order.state]}: its tickets were regrouped or repaired.`}
        </p>
      ) : null}
    </div>
  );
}

/** Where to go once an order is finished: the day's next visit, when there is one, and back to Today. */
function AfterFinish({ finished }: { finished: number }) {
  const today = useToday(undefined);
  const next = today.data ? nextVisit(today.data.visits, finished) : undefined;
  return (
    <nav className="button-row" aria-label="What next" data-testid="after-finish" data-day-loaded={Boolean(today.data)}>
      {next ? (
        <Link to={`/work-orders/${next.work_order.id}`}>
          Next visit: work order #{next.work_order.id}, {actionLabel(next.work_order.action)}:{' '}
          {next.work_order.component_name}
          {next.end_at ? ` (${visitWindow(next)})` : ''}
        </Link>
      ) : null}
      <Link to="/today">Back to Today</Link>
    </nav>
  );
}
