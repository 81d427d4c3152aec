import type { LinkForecastAnswer, LinkForecastRow } from '../api/types';
import { crossingHeadline } from '../forecastText';
import '../forecasts.css';
import { AtRiskExistingTicket, AtRiskRowTicket } from './AtRiskRowTicket';

interface LinkAtRiskProps {
  answer: LinkForecastAnswer;
  now: Date;
  /** The link's unresolved ticket (preventive or repair), or null. */
  ticket: (Pick<NonNullable<LinkForecastRow['ticket']>, 'id' | 'kind'> & { state: string }) | null;
  /** Operators and admins may open a preventive ticket. */
  canOpen: boolean;
}

/**
 * The link page's header when the link is at risk (trial 27 item 8: the forecast sat 1,000 px down,
 * under the power chart): the badge, when and which reading crosses, the cause in words, and the
 * link's ticket or the button that opens a preventive one. Nothing when the link is not at risk.
 */
export function LinkAtRisk({ answer, now, ticket, canOpen }: LinkAtRiskProps) {
  const forecast = answer.forecast;
  if (!forecast?.at_risk) return null;
  return (
    <section className="link-at-risk" data-testid="link-at-risk" aria-label="At risk">
      <p>
        <span className="badge badge-at-risk">At risk</span>{' '}
        <span data-testid="link-at-risk-crossing">{crossingHeadline(forecast, now)}</span>
      </p>
      <p data-testid="link-at-risk-cause">
        Probable cause: {forecast.cause_label}. Recommended: {forecast.recommended_action_label}.
      </p>
      {ticket ? <AtRiskExistingTicket ticket={ticket} /> : canOpen ? <AtRiskRowTicket linkId={answer.link} /> : null}
    </section>
  );
}
