import { Link } from 'react-router';

import { formatCount } from '@/lib/format';

import type { Fabric } from '../api/types';

export function FabricsTable({ fabrics }: { fabrics: Fabric[] }) {
  return (
    <table className="data-table" data-testid="fabrics-table">
      <caption className="visually-hidden">Fabrics</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Tiers (bottom up)</th>
          <th scope="col" className="numeric">
            Switches
          </th>
          <th scope="col" className="numeric">
            Links
          </th>
          <th scope="col" className="numeric">
            Capacity constraint
          </th>
        </tr>
      </thead>
      <tbody>
        {fabrics.map((fabric) => (
          <tr key={fabric.id}>
            <th scope="row">
              <Link to={`/fabrics/${fabric.id}`}>{fabric.name}</Link>
            </th>
            <td>{fabric.tiers.join(' → ')}</td>
            <td className="numeric">{formatCount(fabric.switch_count)}</td>
            <td className="numeric">{formatCount(fabric.link_count)}</td>
            <td className="numeric">{fabric.capacity_constraint.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
