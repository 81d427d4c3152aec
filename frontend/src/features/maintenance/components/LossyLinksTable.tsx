import { Link } from 'react-router';

import type { Restoration } from '../api/types';
import { formatLossRate, formatPenalty } from '../workOrders';

import './LossyLinksTable.css';

export interface LossyLinksTableProps {
  links: Restoration['links'];
  /** The table's and each row's data-testid: the pages' tests and e2e specs find them by these. */
  testId: string;
  rowTestId: string;
}

/**
 * Lossy links to re-enable, with their loss rate and CorrOpt penalty: a work order's restoration and
 * the fabric page's capacity recovery list the same links the same way.
 */
export function LossyLinksTable({ links, testId, rowTestId }: LossyLinksTableProps) {
  return (
    <div className="table-scroll">
      <table className="data-table lossy-links" data-testid={testId}>
        <caption className="visually-hidden">Links to re-enable</caption>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col" className="numeric">
              Loss rate
            </th>
            <th scope="col" className="numeric">
              Penalty
            </th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => (
            <tr key={link.id} data-testid={rowTestId} data-link-id={link.id}>
              <th scope="row">
                <Link to={`/links/${link.id}`}>{link.name}</Link>
              </th>
              <td className="numeric">{formatLossRate(link.loss_rate)}</td>
              <td className="numeric">{formatPenalty(link.penalty)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The penalty the listed links add while enabled, and whether the engine proved it the least. */
export function AddedPenalty({
  penalty,
  provenOptimal,
  testId,
}: {
  penalty: number;
  provenOptimal: boolean;
  testId: string;
}) {
  return (
    <p data-testid={testId}>
      Added penalty: <strong>{formatPenalty(penalty)}</strong>
      {provenOptimal ? ' (the least possible)' : ' (best found; not proven the least)'}
    </p>
  );
}
