import { Link } from 'react-router';

import { HealthBadge } from '@/components/HealthBadge';

import type { FabricLink } from '../api/types';
import { FlappingBadge } from './FlappingBadge';

function formatOptional(value: number | string | null, suffix = ''): string {
  return value === null || value === '' ? '—' : `${value}${suffix}`;
}

export function LinksTable({ links, fabricNames }: { links: FabricLink[]; fabricNames: Map<number, string> }) {
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="links-table">
        <caption className="visually-hidden">Links</caption>
        <thead>
          <tr>
            <th scope="col">Fabric</th>
            <th scope="col">A end</th>
            <th scope="col">Z end</th>
            <th scope="col">Health</th>
            <th scope="col" className="numeric">
              Length (m)
            </th>
            <th scope="col" className="numeric">
              Speed (Gb/s)
            </th>
            <th scope="col">Fiber</th>
            <th scope="col">Admin state</th>
            <th scope="col">Oper state</th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => (
            <tr
              key={link.id}
              data-link-id={link.id}
              data-admin-state={link.admin_state}
              data-oper-state={link.oper_state}
              data-flapping={link.flapping}
              data-health={link.health}
            >
              <td>{fabricNames.get(link.fabric) ?? link.fabric}</td>
              <td>
                {/* The A end names the link: it opens the link page with its telemetry. */}
                <Link to={`/links/${link.id}`}>
                  {link.a_switch_name} <span className="port">{link.a_port}</span>
                </Link>
              </td>
              <td>
                {link.z_switch_name} <span className="port">{link.z_port}</span>
              </td>
              <td>
                <HealthBadge health={link.health} />
                {link.rx_low ? <span className="badge badge-rx-low">Rx low</span> : null}
              </td>
              <td className="numeric">{formatOptional(link.length_m)}</td>
              <td className="numeric">{formatOptional(link.speed_gbps)}</td>
              <td>{formatOptional(link.fiber)}</td>
              <td>
                <span className={`badge badge-${link.admin_state}`}>{link.admin_state}</span>
                {link.admin_reason ? <span className="reason"> {link.admin_reason}</span> : null}
              </td>
              <td>
                <span className={`badge badge-${link.oper_state}`}>{link.oper_state}</span>
                {link.flapping ? <FlappingBadge /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
