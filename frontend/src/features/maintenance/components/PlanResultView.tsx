import { useMemo } from 'react';
import { Link } from 'react-router';

import { formatTime, formatTimeRange } from '@/lib/format';

import type { MaintenancePlan } from '../api/types';
import { actionLabel } from '../actionLabel';
import { leftOrders, planTotals } from '../planDay';
import { headroomText, headroomTone } from '../planTimeline';
import { PlanTimeline } from './PlanTimeline';

/** A finished plan: its totals, the timeline (with its table), the headroom by interval and what waits. */
export function PlanResultView({ plan, plannedAt }: { plan: MaintenancePlan; plannedAt: string | null }) {
  const totals = planTotals(plan);
  const left = leftOrders(plan);
  const orders = useMemo(() => new Map(plan.work_orders.map((order) => [order.id, order])), [plan.work_orders]);
  const shiftEnd = new Date(new Date(plan.shift_start).getTime() + plan.shift_s * 1000).toISOString();
  return (
    <>
      <p className="muted" data-testid="plan-when">
        Plan of {plan.fabric.name}, made {formatTime(plannedAt)}, for the shift{' '}
        {formatTimeRange(plan.shift_start, shiftEnd)}.
      </p>
      <dl className="facts plan-totals" data-testid="plan-totals">
        <div>
          <dt>Expected penalty-hours, this plan</dt>
          <dd data-testid="plan-penalty">{totals.plan}</dd>
        </div>
        <div>
          <dt>First in first out</dt>
          <dd data-testid="plan-fifo">{totals.fifo}</dd>
        </div>
        <div>
          <dt>Saving</dt>
          <dd>{totals.saving}</dd>
        </div>
        <div>
          <dt>Quality</dt>
          <dd data-testid="plan-quality">{totals.quality}</dd>
        </div>
      </dl>

      <h3>Timeline</h3>
      {plan.visits.length === 0 ? (
        <p data-testid="plan-no-visits">No visit fits this shift: every open order is left for later (below).</p>
      ) : null}
      <PlanTimeline plan={plan} />
      <div className="table-scroll">
        <table className="data-table plan-visits" data-testid="plan-visits">
          <caption className="visually-hidden">The timeline’s visits, by technician in time order</caption>
          <thead>
            <tr>
              <th scope="col">Technician</th>
              <th scope="col">When</th>
              <th scope="col">Work order</th>
              <th scope="col">What</th>
              <th scope="col">Rack</th>
            </tr>
          </thead>
          <tbody>
            {plan.visits.map((visit) => {
              const order = orders.get(visit.work_order);
              return (
                <tr key={visit.work_order} data-testid="plan-visit-row">
                  <td>{visit.technician_name}</td>
                  <td>{formatTimeRange(visit.start_at, visit.end_at)}</td>
                  <td>
                    <Link to={`/work-orders/${visit.work_order}`}>#{visit.work_order}</Link>
                  </td>
                  <td>{order ? `${actionLabel(order.action)}: ${order.component_name}` : '—'}</td>
                  <td>{order?.rack || '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <details className="plan-headroom">
        <summary>Headroom by interval</summary>
        <div className="table-scroll">
          <table className="data-table" data-testid="plan-headroom">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Worst ToR</th>
                <th scope="col">Orders under way</th>
              </tr>
            </thead>
            <tbody>
              {plan.headroom.map((interval) => {
                const start = new Date(plan.shift_start).getTime();
                const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
                return (
                  <tr key={interval.start_s} data-tone={headroomTone(interval)}>
                    <td>{formatTimeRange(at(interval.start_s), at(interval.end_s))}</td>
                    <td className={`headroom-text-${headroomTone(interval)}`}>{headroomText(interval)}</td>
                    <td>{interval.visits.length ? interval.visits.map((id) => `#${id}`).join(', ') : 'none'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </details>

      <h3>Left for later</h3>
      {left.length === 0 ? (
        <p data-testid="left-for-later-none">Every open order is in the plan.</p>
      ) : (
        <ul className="left-for-later" data-testid="left-for-later">
          {left.map((order) => (
            <li key={order.workOrder} data-testid="left-for-later-order">
              <Link to={`/work-orders/${order.workOrder}`}>Work order #{order.workOrder}</Link>
              {order.reason ? (
                <>
                  {' — '}
                  <strong>{order.reason}</strong>
                  {order.detail ? `: ${order.detail}` : ''}
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
