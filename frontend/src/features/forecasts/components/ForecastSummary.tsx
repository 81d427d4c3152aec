import { Link } from 'react-router';

import type { LinkForecastAnswer } from '../api/types';
import {
  failedText,
  failedWithoutTicketText,
  forecastSentence,
  type NewestSideReadings,
  pastLimitText,
} from '../forecastText';

/**
 * The link page's power chart in words: the forecast it draws (nothing when the link has none). A
 * failed link is past forecasting (trial 29 item 3: "flat, at its limit now, not at risk", "inspect
 * both ends" on a link out of service with a repair ticket): how it failed, its reading past the
 * limit (the newest reading of both ends, `newest`, as the Newest readings table shows it), and the
 * ticket that has it, with no forecast advice.
 */
export function ForecastSummary({
  answer,
  newest,
  now,
}: {
  answer: LinkForecastAnswer;
  newest: Record<'a' | 'z', NewestSideReadings>;
  now: Date;
}) {
  const { failed, forecast } = answer;
  if (failed) {
    const pastLimit = forecast ? pastLimitText(forecast, newest[forecast.side]) : null;
    return (
      <p className="forecast-summary forecast-failed" data-testid="power-forecast-text">
        <span data-testid="forecast-failed">{failedText(failed, now)}</span>
        {pastLimit ? ` ${pastLimit}` : null}{' '}
        {failed.ticket ? (
          <span data-testid="forecast-failed-ticket">
            Not a forecast matter any more: it belongs to its {failed.ticket.kind} ticket{' '}
            <Link to={`/tickets/${failed.ticket.id}`}>#{failed.ticket.id}</Link> (
            {failed.ticket.state.replace('_', ' ')}).
          </span>
        ) : (
          <span data-testid="forecast-failed-ticket">
            Not a forecast matter any more. {failedWithoutTicketText(failed)}
          </span>
        )}
      </p>
    );
  }
  if (!forecast) return null;
  return (
    <p className="forecast-summary" data-testid="power-forecast-text">
      {forecastSentence(forecast, answer.horizon_days, now)}
    </p>
  );
}
