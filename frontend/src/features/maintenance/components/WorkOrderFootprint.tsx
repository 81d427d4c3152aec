import { Link } from 'react-router';

import { formatReason, formatSeconds } from '@/lib/format';

import { actionLabel } from '../actionLabel';
import type { LinkFacts, WorkOrderDetail } from '../api/types';
import { footprintReason, footprintRoles } from '../workOrders';

/**
 * What a visit takes out of service and whether the capacity guard lets it start now. `links` (the
 * footprint's link pages) tell which links are breakout siblings of a ticket's link; until they load,
 * every link without a ticket reads as sharing the component.
 */
export function WorkOrderFootprint({ order, links = [] }: { order: WorkOrderDetail; links?: readonly LinkFacts[] }) {
  const { guard } = order;
  const roles = footprintRoles(order, links);
  return (
    <>
      <p data-testid="work-order-summary">
        {actionLabel(order.action)}: {order.component_name}. Takes {order.footprint_links.length} link
        {order.footprint_links.length === 1 ? '' : 's'} down for {formatSeconds(order.duration_s)}; succeeds{' '}
        {Math.round(order.success_chance * 100)}% of the time.
      </p>
      {order.state === 'open' ? (
        <p data-testid="work-order-verdict" className={guard.verdict === 'safe' ? 'success-box' : 'notice'}>
          {/* Unsafe: the server's sentence alone says which ToR falls and how far; whether a restoration makes
              the start possible is the start's dry run (below), so this box adds no "not now" of its own. */}
          {guard.verdict === 'safe' ? 'Safe to start now. ' : null}
          {guard.detail}
          {guard.verdict === 'safe' ? null : ' Starting first asks whether a capacity restoration makes it possible.'}
        </p>
      ) : null}
      {/* On a phone each row is a card (maintenance.css), so no column is cut off. */}
      <div className="table-scroll">
        <table className="data-table footprint-table">
          <caption>Links out of service during the work</caption>
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col">ToR</th>
              <th scope="col">Now</th>
              <th scope="col">Taken down</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {order.footprint_links.map((link) => {
              const role = roles.get(link.id) ?? 'shares_component';
              return (
                <tr key={link.id} data-testid="footprint-link" data-link-id={link.id} data-role={role}>
                  <td data-label="Link">
                    <Link to={`/links/${link.id}`}>{link.name}</Link>
                  </td>
                  <td data-label="ToR">{link.tor ?? '—'}</td>
                  <td data-label="Now">
                    {link.admin_state}
                    {link.admin_reason ? ` (${formatReason(link.admin_reason)})` : ''}, {link.oper_state}
                  </td>
                  <td data-label="Taken down">{guard.links.includes(link.id) ? 'yes' : 'already out'}</td>
                  <td data-label="Why">
                    {role === 'breakout_sibling' ? (
                      <span className="badge badge-sibling">{footprintReason(role, link.health)}</span>
                    ) : (
                      footprintReason(role, link.health)
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p data-testid="work-order-tors">
        ToRs on the footprint:{' '}
        {order.tors.length ? order.tors.join(', ') : 'none (its links are between fabric tiers, above the ToRs)'}
      </p>
      {order.state === 'open' && guard.affected_tors.length > 0 ? (
        <p data-testid="work-order-affected-tors">
          ToRs that lose up-paths: {guard.affected_tors.map((tor) => tor.name).join(', ')}
        </p>
      ) : null}
    </>
  );
}
