import type { ReactNode } from 'react';
import { Link } from 'react-router';

import type { LinkForecastRow } from '../api/types';
import { linkName } from '../atRisk';
import { confidenceText, crossingText, forecastAgeText, readingText, staleForecastText } from '../forecastText';
import { AtRiskExistingTicket } from './AtRiskRowTicket';

interface AtRiskTableProps {
  rows: readonly LinkForecastRow[];
  now: Date;
  /** Under each row's action (operators and admins): what opens a preventive ticket for a link without an unresolved one. */
  ticketControl?: (linkId: number) => ReactNode;
}

/** One row per link at risk, in the server's order (soonest crossing first). */
export function AtRiskTable({ rows, now, ticketControl }: AtRiskTableProps) {
  return (
    <table className="data-table at-risk-table">
      <thead>
        <tr>
          <th scope="col">Link</th>
          <th scope="col">Crossing</th>
          <th scope="col">Cause</th>
          <th scope="col">Confidence</th>
          <th scope="col">Reading</th>
          <th scope="col">Racks</th>
          <th scope="col">Recommended</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.link.id} data-testid="at-risk-row" data-link={row.link.id}>
            <th scope="row" data-label="Link">
              <Link to={`/links/${row.link.id}`}>{linkName(row)}</Link>
            </th>
            <td data-label="Crossing">
              <span data-testid="at-risk-crossing">{crossingText(row, now)}</span>
              <AtRiskForecastAge computedAt={row.computed_at} now={now} />
            </td>
            <td data-label="Cause" data-testid="at-risk-cause">
              {row.cause_label}
            </td>
            <td data-label="Confidence" data-testid="at-risk-confidence" className="numeric">
              {confidenceText(row.confidence)}
            </td>
            <td data-label="Reading" data-testid="at-risk-reading">
              {readingText(row)}
            </td>
            <td data-label="Racks" data-testid="at-risk-racks">
              {/* A switch without a rack reads "—". */}
              <span className="at-risk-rack">A {row.link.a.rack || '—'}</span>{' '}
              <span className="at-risk-rack">Z {row.link.z.rack || '—'}</span>
            </td>
            <td data-label="Recommended" data-testid="at-risk-action">
              {row.recommended_action_label}
              {row.ticket ? (
                <AtRiskExistingTicket ticket={row.ticket} />
              ) : ticketControl ? (
                ticketControl(row.link.id)
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "forecast made 2 h ago", with a warning when the optics stopped coming (STALE_FORECAST_HOURS). */
function AtRiskForecastAge({ computedAt, now }: { computedAt: string; now: Date }) {
  const stale = staleForecastText(computedAt, now);
  return (
    <>
      <span className="at-risk-age" data-testid="at-risk-age">
        {forecastAgeText(computedAt, now)}
      </span>
      {stale ? (
        <span className="at-risk-stale" role="note" data-testid="at-risk-stale">
          {stale}
        </span>
      ) : null}
    </>
  );
}
