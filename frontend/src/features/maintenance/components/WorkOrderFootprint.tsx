import { Link } from 'react-router';

import { formatSeconds } from '@/lib/format';

import { actionLabel } from '../actionLabel';

import type { WorkOrderDetail } from '../api/types';

/** What a visit takes out of service and whether the capacity guard lets it start now. */
export function WorkOrderFootprint({ order }: { order: WorkOrderDetail }) {
  const { guard } = order;
  const worst = guard.blocking_tors[0];
  return (
    <>
      <p data-testid="work-order-summary">
        {actionLabel(order.action)}: {order.component_name}. Takes {order.footprint_links.length} link
        {order.footprint_links.length === 1 ? '' : 's'} down for {formatSeconds(order.duration_s)}; succeeds{' '}
        {Math.round(order.success_chance * 100)}% of the time.
      </p>
      <p data-testid="work-order-verdict" className={guard.verdict === 'safe' ? 'success-box' : 'reason'}>
        {guard.verdict === 'safe' ? 'Safe to start now. ' : 'Not safe to start now. '}
        {guard.detail}
        {worst ? ` ${worst.name} would keep ${worst.paths_after} of ${worst.design_paths} up-paths.` : null}
      </p>
      <table>
        <caption>Links out of service during the work</caption>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col">ToR</th>
            <th scope="col">Now</th>
            <th scope="col">Taken down</th>
          </tr>
        </thead>
        <tbody>
          {order.footprint_links.map((link) => (
            <tr key={link.id} data-testid="footprint-link">
              <td>
                <Link to={`/links/${link.id}`}>{link.name}</Link>
              </td>
              <td>{link.tor ?? '—'}</td>
              <td>
                {link.admin_state}
                {link.admin_reason ? ` (${link.admin_reason})` : ''}, {link.oper_state}
              </td>
              <td>{guard.links.includes(link.id) ? 'yes' : 'already out'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="work-order-tors">ToRs on the footprint: {order.tors.length ? order.tors.join(', ') : 'none'}</p>
    </>
  );
}
