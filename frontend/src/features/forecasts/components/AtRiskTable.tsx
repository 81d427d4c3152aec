import type { ReactNode } from 'react';
import { Link } from 'react-router';

import type { AtRiskLink, LinkForecast, SwitchRack } from '../api/types';
import { linkName, rackOf } from '../atRisk';
import { CAUSE_LABELS, confidenceText, crossingText, daysUntil, readingText } from '../forecastText';

export interface AtRiskRow {
  link: AtRiskLink;
  /** The full forecast (GET /api/links/{id}/forecast/); undefined while it loads, null if it went away. */
  forecast: LinkForecast | null | undefined;
}

interface AtRiskTableProps {
  rows: readonly AtRiskRow[];
  racks: ReadonlyMap<string, SwitchRack>;
  now: Date;
  /** Under each row's action (operators and admins): what opens a preventive ticket for the link. */
  ticketControl?: (linkId: number) => ReactNode;
}

/** One row per link at risk, in the order given (the page sorts by time to crossing). */
export function AtRiskTable({ rows, racks, now, ticketControl }: AtRiskTableProps) {
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
        {rows.map(({ link, forecast }) => {
          const brief = link.forecast;
          const crossing = forecast
            ? crossingText(forecast, now)
            : brief
              ? daysUntil(brief.crossing_at, now) === 0
                ? 'at its limit now'
                : `crosses in ${daysUntil(brief.crossing_at, now).toFixed(1)} days`
              : '—';
          const cause = forecast?.cause_label ?? (brief ? CAUSE_LABELS[brief.cause] : '—');
          const confidence = forecast?.confidence ?? brief?.confidence;
          return (
            <tr key={link.id} data-testid="at-risk-row" data-link={link.id}>
              <th scope="row" data-label="Link">
                <Link to={`/links/${link.id}`}>{linkName(link)}</Link>
              </th>
              <td data-label="Crossing" data-testid="at-risk-crossing">
                {crossing}
              </td>
              <td data-label="Cause" data-testid="at-risk-cause">
                {cause}
              </td>
              <td data-label="Confidence" data-testid="at-risk-confidence" className="numeric">
                {confidence === undefined ? '—' : confidenceText(confidence)}
              </td>
              <td data-label="Reading" data-testid="at-risk-reading">
                {forecast ? readingText(forecast) : '…'}
              </td>
              <td data-label="Racks" data-testid="at-risk-racks">
                <span className="at-risk-rack">A {rackOf(link.a_switch_name, racks)}</span>{' '}
                <span className="at-risk-rack">Z {rackOf(link.z_switch_name, racks)}</span>
              </td>
              <td data-label="Recommended" data-testid="at-risk-action">
                {forecast ? forecast.recommended_action_label : '…'}
                {ticketControl ? ticketControl(link.id) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
