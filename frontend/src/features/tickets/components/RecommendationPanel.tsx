import { Link } from 'react-router';

import '@/components/card.css';

import { formatDbm, formatTime } from '@/lib/format';
import { formatLossRate } from '@/lib/format/number';

import type { LinkEnd, Recommendation } from '../api/types';
import { decisiveEvidence, historySummary, neighbourRows, opticsRows, reseatSummary } from '../evidence';
import { describeRule, isEscalation, isPreventiveRule } from '../repairActions';
import { stepInstruction } from '../ticketHeader';
import { ForecastEvidence } from './ForecastEvidence';

const DIRECTION_WORDS: Record<string, string> = { a_to_z: 'A → Z', z_to_a: 'Z → A' };

/** The current step's advice and every fact behind it, the facts that made the rule fire marked. */
export function RecommendationPanel({ recommendation, ends }: { recommendation: Recommendation; ends?: LinkEnd[] }) {
  const forecast = recommendation.evidence.forecast;
  if (isPreventiveRule(recommendation.rule) && forecast) {
    return <PreventiveRecommendation recommendation={recommendation} forecast={forecast} />;
  }
  return <RepairRecommendation recommendation={recommendation} ends={ends} />;
}

function PreventiveRecommendation({
  recommendation,
  forecast,
}: {
  recommendation: Recommendation;
  forecast: NonNullable<Recommendation['evidence']['forecast']>;
}) {
  const { rule } = recommendation;
  return (
    <div className="recommendation" data-testid="recommendation" data-action={recommendation.action} data-rule={rule}>
      <p className="recommendation-action">
        <span className="muted">Step {recommendation.step}: </span>
        <strong data-testid="recommended-action">{stepInstruction(recommendation, undefined)}</strong>
      </p>
      <p className="recommendation-explanation">{recommendation.explanation}</p>
      {/* The rule in words; its code (for a bug report) only on hover. */}
      <p className="recommendation-rule" data-testid="recommendation-rule" title={`rule ${rule}`}>
        Rule: {describeRule(rule)}
      </p>
      <h3>Evidence: the forecast</h3>
      <ForecastEvidence forecast={forecast} />
      <details className="evidence-raw">
        <summary>All evidence (JSON)</summary>
        <pre>{JSON.stringify(recommendation.evidence, null, 2)}</pre>
      </details>
    </div>
  );
}

function RepairRecommendation({ recommendation, ends }: { recommendation: Recommendation; ends?: LinkEnd[] }) {
  const { evidence, rule } = recommendation;
  const decisive = decisiveEvidence(rule);
  const optics = opticsRows(evidence, rule);
  const neighbours = neighbourRows(evidence);
  const history = historySummary(evidence);
  const reseat = reseatSummary(evidence);
  const rates = evidence.rates;
  const direction = evidence.direction ? (DIRECTION_WORDS[evidence.direction] ?? evidence.direction) : null;
  const opposite = evidence.direction === 'a_to_z' ? 'Z → A' : 'A → Z';

  return (
    <div className="recommendation" data-testid="recommendation" data-action={recommendation.action} data-rule={rule}>
      <p className="recommendation-action">
        <span className="muted">Step {recommendation.step}: </span>
        <strong data-testid="recommended-action">{stepInstruction(recommendation, ends)}</strong>
        {isEscalation(rule) ? <span className="badge badge-escalated">escalated</span> : null}
      </p>
      <p className="recommendation-explanation">{recommendation.explanation}</p>
      {/* The rule in words; its code (for a bug report) only on hover. */}
      <p className="recommendation-rule" data-testid="recommendation-rule" title={`rule ${rule}`}>
        Rule: {describeRule(rule)}
      </p>

      <h3>Evidence</h3>
      <dl className="facts evidence-facts">
        <div>
          <dt>Corruption {direction ? `(${direction})` : ''}</dt>
          <dd data-testid="evidence-rate">{formatLossRate(rates?.this)}</dd>
        </div>
        <div className={decisive.includes('opposite') ? 'decisive' : undefined} data-testid="evidence-opposite">
          <dt>Opposite direction ({opposite})</dt>
          <dd>
            {formatLossRate(rates?.opposite)}
            {rates?.opposite_corrupting ? ' — corrupting too' : ''}
          </dd>
        </div>
        <div>
          <dt>Corrupting since</dt>
          <dd>{formatTime(rates?.onset)}</dd>
        </div>
      </dl>
      <p className="muted">Loss rates are fractions of packets ({formatLossRate(1e-6)} = one in a million).</p>

      {optics.length > 0 ? (
        <table className="data-table evidence-optics phone-cards" data-testid="evidence-optics">
          <caption>Optical power against the lower limits (lowest lane when lanes are reported)</caption>
          <thead>
            <tr>
              <th scope="col">Reading</th>
              <th scope="col">End</th>
              <th scope="col" className="numeric">
                Value (dBm)
              </th>
              <th scope="col" className="numeric">
                Lower limit (dBm)
              </th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {optics.map((row) => (
              <tr
                key={row.key}
                className={row.decisive ? 'decisive' : undefined}
                data-testid="evidence-optics-row"
                data-reading={row.key}
                data-low={row.low ? 'true' : 'false'}
                data-decisive={row.decisive ? 'true' : 'false'}
              >
                <th scope="row" data-label="Reading">
                  {row.label}
                  {row.decisive ? <span className="badge badge-decisive">rule fired on this</span> : null}
                </th>
                <td data-label="End">
                  {row.end}
                  {row.transceiverModel ? <span className="muted"> {row.transceiverModel}</span> : null}
                </td>
                <td data-label="Value" className="numeric">
                  {row.dark ? 'no light' : formatDbm(row.value)}
                  {row.average !== null && row.average !== row.value ? (
                    <span className="muted"> (avg {formatDbm(row.average)})</span>
                  ) : null}
                </td>
                <td data-label="Lower limit" className="numeric">
                  {formatDbm(row.limit)}
                  {row.provenance ? <span className="muted"> ({row.provenance})</span> : null}
                </td>
                <td data-label="Verdict">
                  <span className={row.low ? 'verdict-low' : 'verdict-ok'}>{row.low ? 'low' : 'ok'}</span>{' '}
                  <span className="muted">{row.comparison}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {evidence.has_optical_data === false ? (
        <p className={decisive.includes('no_optics') ? 'decisive' : undefined}>
          No optical readings for this link: the rules that compare power cannot be judged.
        </p>
      ) : null}

      <section
        aria-label="Neighbour links"
        className={decisive.includes('neighbours') ? 'decisive evidence-block' : 'evidence-block'}
      >
        <h4>Other corrupting links on the same switches</h4>
        {neighbours.length === 0 ? (
          <p className="muted">None with an open corruption event.</p>
        ) : (
          <ul data-testid="evidence-neighbours">
            {neighbours.map((neighbour) => (
              <li key={`${neighbour.link}-${neighbour.where}`}>
                <Link to={`/links/${neighbour.link}`}>{neighbour.name}</Link> at {neighbour.where}: {neighbour.rate}{' '}
                since {formatTime(neighbour.firstSeen)} <span className="muted">({neighbour.relation})</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      {reseat ? (
        <p className={decisive.includes('reseat') ? 'decisive evidence-block' : 'evidence-block'}>
          <strong>Reseat record: </strong>
          {reseat}
        </p>
      ) : null}
      <p
        className={decisive.includes('history') ? 'decisive evidence-block' : 'evidence-block'}
        data-testid="evidence-history"
      >
        <strong>Repair history: </strong>
        {history ?? 'no earlier step on this ticket.'}
      </p>
      <details className="evidence-raw">
        <summary>All evidence (JSON)</summary>
        <pre>{JSON.stringify(evidence, null, 2)}</pre>
      </details>
    </div>
  );
}
