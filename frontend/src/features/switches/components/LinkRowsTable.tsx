import { Link } from 'react-router';

import { HealthBadge } from '@/components/HealthBadge';

import type { SwitchLinkRow } from '../api/types';
import { RackName, SwitchName } from './SwitchName';
import '@/components/card.css';

function stateWords(row: SwitchLinkRow): string {
  if (row.down_for_maintenance) return `down for maintenance (${row.admin_reason})`;
  const parts = [
    row.admin_state === 'enabled' ? 'enabled' : `disabled${row.admin_reason ? ` (${row.admin_reason})` : ''}`,
  ];
  parts.push(row.oper_state === 'up' ? 'up' : 'down');
  if (row.flapping) parts.push('flapping');
  return parts.join(', ');
}

/**
 * Links with both ends (switch, port, rack), health and state; each switch and rack opens its page.
 * On a phone each link is a card, label before value (the table ran off the screen's right edge).
 */
export function LinkRowsTable({
  links,
  fabricId,
  caption,
}: {
  links: SwitchLinkRow[];
  fabricId: number;
  caption: string;
}) {
  if (links.length === 0) return <p className="muted">No links.</p>;
  return (
    <div className="table-scroll">
      <table className="data-table phone-cards" data-testid="switch-links">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col">Side A</th>
            <th scope="col">Rack A</th>
            <th scope="col">Side Z</th>
            <th scope="col">Rack Z</th>
            <th scope="col">Health</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {links.map((row) => (
            <tr key={row.id}>
              <td data-label="Link">
                <Link to={`/links/${row.id}`}>#{row.id}</Link>
              </td>
              <td data-label="Side A">
                <SwitchName id={row.a_switch} name={row.a_switch_name} /> {row.a_port}
              </td>
              <td data-label="Rack A">
                <RackName fabricId={fabricId} rack={row.a_rack} />
              </td>
              <td data-label="Side Z">
                <SwitchName id={row.z_switch} name={row.z_switch_name} /> {row.z_port}
              </td>
              <td data-label="Rack Z">
                <RackName fabricId={fabricId} rack={row.z_rack} />
              </td>
              <td data-label="Health">
                <HealthBadge health={row.health} />
              </td>
              <td data-label="State">{stateWords(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
