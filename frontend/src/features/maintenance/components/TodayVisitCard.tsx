import { useMemo, useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';

import type { TodayVisit } from '../api/types';
import { useFootprintFacts } from '../api/useFootprintFacts';
import { actionLabel } from '../actionLabel';
import { placeLines, visitWindow } from '../today';
import { STATE_LABELS } from '../workOrders';
import { WhatToBring } from './VisitFacts';

/** The footprint's physical facts, loaded only when the technician opens "What to bring". */
function BringFacts({ visit }: { visit: TodayVisit }) {
  const order = visit.work_order;
  const facts = useFootprintFacts(order.fabric, order.footprint);
  const switches = useMemo(() => new Map(facts.switches.map((item) => [item.name, item])), [facts.switches]);
  if (facts.error) return <ErrorList error={facts.error} title="Could not load the footprint’s links." />;
  if (!facts.complete) return <Loading label="Loading what to bring…" />;
  return (
    <WhatToBring
      links={facts.links}
      switches={switches}
      transceivers={facts.transceivers}
      here={order.location?.switch}
    />
  );
}

/**
 * One visit of the day, read on a phone: when, where (first, as that is where the technician
 * walks), what, what to bring (on demand), its state and the order's page, where Start and Finish are.
 */
export function TodayVisitCard({ visit, index }: { visit: TodayVisit; index: number }) {
  const order = visit.work_order;
  const [bringOpen, setBringOpen] = useState(false);
  return (
    <li
      className={visit.done ? 'today-visit today-visit-done' : 'today-visit'}
      data-testid="today-visit"
      data-work-order={order.id}
      data-done={visit.done}
      aria-label={`Visit ${index + 1}: work order ${order.id}${visit.done ? ', done' : ''}`}
    >
      <p className="today-visit-head">
        <span className="today-visit-time" data-testid="today-time">
          {visitWindow(visit)}
        </span>
        <span className={`badge badge-order-${order.state}`} data-testid="today-state">
          {visit.done ? '✓ ' : ''}
          {STATE_LABELS[order.state]}
        </span>
      </p>
      <dl className="facts today-place" data-testid="today-place">
        {placeLines(order.location).map((line) => (
          <div key={line.testId}>
            <dt>{line.label}</dt>
            <dd data-testid={line.testId}>{line.value}</dd>
          </div>
        ))}
      </dl>
      <p className="today-visit-what" data-testid="today-what">
        <strong>{actionLabel(order.action)}</strong>: {order.component_name}
      </p>
      {visit.restored.length > 0 ? (
        <p className="muted">
          Restored while you work: {visit.restored.map((link) => link.name).join(', ')} (the order’s page enables them
          on Start).
        </p>
      ) : null}
      <details onToggle={(event) => setBringOpen(event.currentTarget.open)}>
        <summary>What to bring ({order.footprint_size === 1 ? '1 link' : `${order.footprint_size} links`})</summary>
        {bringOpen ? <BringFacts visit={visit} /> : null}
      </details>
      <p className="today-visit-link">
        <Link to={`/work-orders/${order.id}`}>
          Work order #{order.id}
          {visit.done ? '' : ': start and finish it there'}
        </Link>
      </p>
    </li>
  );
}
