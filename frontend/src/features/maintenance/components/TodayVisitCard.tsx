import { useMemo, useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';

import type { TodayVisit } from '../api/types';
import { useFootprintFacts } from '../api/useFootprintFacts';
import { actionLabel } from '../actionLabel';
import { placeLines, visitWindow } from '../today';
import { bringSummary, STATE_LABELS } from '../workOrders';
import { WhatToBring } from './VisitFacts';

/**
 * "What to bring", opened on demand: the footprint's physical facts are loaded when it is first opened,
 * and the summary then names the things (not the number of links), still readable when closed again.
 */
function BringDetails({ visit }: { visit: TodayVisit }) {
  const order = visit.work_order;
  const [opened, setOpened] = useState(false);
  // No request until opened: an empty footprint asks for nothing.
  const facts = useFootprintFacts(order.fabric, opened ? order.footprint : []);
  const switches = useMemo(() => new Map(facts.switches.map((item) => [item.name, item])), [facts.switches]);
  const ready = opened && facts.complete && !facts.error;
  const things = ready ? bringSummary(facts.links, switches, facts.transceivers, order.location?.switch) : '';
  return (
    <details
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary>What to bring{things ? `: ${things}` : ''}</summary>
      {opened && facts.error ? <ErrorList error={facts.error} title="Could not load the footprint’s links." /> : null}
      {opened && !facts.complete && !facts.error ? <Loading label="Loading what to bring…" /> : null}
      {ready ? (
        <WhatToBring
          links={facts.links}
          switches={switches}
          transceivers={facts.transceivers}
          here={order.location?.switch}
        />
      ) : null}
    </details>
  );
}

/**
 * One visit of the day, read on a phone: when, where (first, as that is where the technician
 * walks), what, what to bring (on demand), its state and the order's page, where Start and Finish are.
 */
export function TodayVisitCard({ visit, index }: { visit: TodayVisit; index: number }) {
  const order = visit.work_order;
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
      <BringDetails visit={visit} />
      <p className="today-visit-link">
        <Link to={`/work-orders/${order.id}`}>
          Work order #{order.id}
          {visit.done ? '' : ': start and finish it there'}
        </Link>
      </p>
    </li>
  );
}
