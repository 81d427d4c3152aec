import { useMemo } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { canOverrideCapacity, canWorkTickets, useCurrentUser } from '@/features/auth';
import { formatPercent, formatTime } from '@/lib/format';

import type { WorkOrderDetail } from '../api/types';
import { useFootprintFacts } from '../api/useFootprintFacts';
import { useWorkOrder } from '../api/useWorkOrder';
import { VisitLocation, WhatToBring } from '../components/VisitFacts';
import { WorkOrderActions } from '../components/WorkOrderActions';
import { WorkOrderFootprint } from '../components/WorkOrderFootprint';
import { actionLabel } from '../actionLabel';
import { hasToday } from '../roles';
import { deadlineText, formatDuration, kindText, STATE_LABELS } from '../workOrders';
import '../maintenance.css';

export function WorkOrderDetailPage() {
  const { workOrderId: rawId } = useParams();
  const orderId = Number(rawId);
  if (!Number.isInteger(orderId) || orderId <= 0) {
    return (
      <section>
        <h1>Work order not found</h1>
        <p>
          “{rawId}” is not a work order id. <Link to="/work-orders">Back to work orders</Link>
        </p>
      </section>
    );
  }
  return <WorkOrderPage orderId={orderId} />;
}

function WorkOrderPage({ orderId }: { orderId: number }) {
  const order = useWorkOrder(orderId);
  const data = order.data;
  return (
    <article aria-labelledby="work-order-heading" className="work-order-page">
      <p className="breadcrumb">
        <Link to="/work-orders">Work orders</Link>
      </p>
      <h1 id="work-order-heading">
        Work order #{orderId}
        {data ? <span className="work-order-heading-component"> {data.component_name}</span> : null}
      </h1>
      {order.isPending ? <Loading label="Loading work order…" /> : null}
      <ErrorList error={order.error} title="Could not load the work order." />
      {data ? <WorkOrderBody order={data} /> : null}
    </article>
  );
}

function WorkOrderBody({ order }: { order: WorkOrderDetail }) {
  const user = useCurrentUser();
  const mayWork = canWorkTickets(user.data);
  const facts = useFootprintFacts(order.fabric, order.footprint);
  const switches = useMemo(() => new Map(facts.switches.map((item) => [item.name, item])), [facts.switches]);
  const ready = facts.complete;
  return (
    <>
      <section className="panel" aria-labelledby="where-heading">
        <h2 id="where-heading">Where</h2>
        {ready ? <VisitLocation location={order.location} links={facts.links} switches={switches} /> : null}
        {!ready && !facts.error ? <Loading label="Loading the footprint’s links…" /> : null}
        <ErrorList error={facts.error} title="Could not load the footprint’s links." />
        <dl className="facts" data-testid="work-order-facts">
          <div>
            <dt>State</dt>
            <dd>
              <span className={`badge badge-order-${order.state}`} data-testid="work-order-state">
                {STATE_LABELS[order.state]}
              </span>
            </dd>
          </div>
          <div>
            <dt>Kind</dt>
            <dd data-testid="work-order-kind">{kindText(order.kinds)}</dd>
          </div>
          {order.deadline ? (
            <div>
              <dt>Deadline (forecast crossing)</dt>
              <dd data-testid="work-order-deadline">{deadlineText(order.deadline, new Date())}</dd>
            </div>
          ) : null}
          <div>
            <dt>Out of service for</dt>
            <dd>{formatDuration(order.duration_s)}</dd>
          </div>
          <div>
            <dt>Chance it fixes its tickets</dt>
            <dd>{formatPercent(order.success_chance, 0)}</dd>
          </div>
          <div>
            <dt>Opened</dt>
            <dd>{formatTime(order.created)}</dd>
          </div>
        </dl>
      </section>

      <section className="panel" aria-labelledby="bring-heading">
        <h2 id="bring-heading">What to do and bring</h2>
        <p className="work-order-action" data-testid="work-order-action">
          <strong>{actionLabel(order.action)}</strong>: {order.component_name}
        </p>
        {ready ? (
          <WhatToBring
            links={facts.links}
            switches={switches}
            transceivers={facts.transceivers}
            here={order.location?.switch}
          />
        ) : null}
      </section>

      <section className="panel" aria-labelledby="order-tickets-heading">
        <h2 id="order-tickets-heading">Tickets</h2>
        <ul className="order-tickets" data-testid="order-tickets">
          {order.ticket_details.map((ticket) => (
            <li key={ticket.id}>
              <Link to={`/tickets/${ticket.id}`}>Ticket #{ticket.id}</Link>{' '}
              <span className="muted">({ticket.state.replace('_', ' ')})</span> {ticket.link_name}:{' '}
              {actionLabel(ticket.recommended_action)}
            </li>
          ))}
        </ul>
      </section>

      <section className="panel" aria-labelledby="footprint-heading">
        <h2 id="footprint-heading">What the repair takes down</h2>
        <WorkOrderFootprint order={order} links={facts.links} />
        {order.restored_links.length > 0 ? (
          <p data-testid="restored-links">
            Restored for the repair:{' '}
            {order.restored_links.map((link, index) => (
              <span key={link.id}>
                {index > 0 ? ', ' : ''}
                <Link to={`/links/${link.id}`}>{link.name}</Link>
              </span>
            ))}
          </p>
        ) : null}
      </section>

      <section className="panel" aria-labelledby="visit-heading">
        <h2 id="visit-heading">The visit</h2>
        {mayWork ? (
          <WorkOrderActions order={order} canOverride={canOverrideCapacity(user.data)} hasToday={hasToday(user.data)} />
        ) : (
          <p className="muted" data-testid="read-only-note">
            Technicians and operators start and finish work orders; your role can read them.
          </p>
        )}
      </section>
    </>
  );
}
