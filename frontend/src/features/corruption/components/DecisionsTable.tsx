import { Link } from 'react-router';

import { formatRate } from '@/features/tickets';
import { formatTime } from '@/lib/format';

import type { Decision } from '../api/types';
import {
  constraintNow,
  DECISION_ACTIONS,
  DECISION_KINDS,
  describeAffected,
  fallsBelow,
  formatFraction,
} from '../decisionLog';

function label<T extends string>(options: readonly { value: T; label: string }[], value: T): string {
  return options.find((option) => option.value === value)?.label ?? value;
}

/** CorrOpt's decisions, newest first: what it did to which link, and what that did to the ToRs below. */
export function DecisionsTable({
  decisions,
  fabricNames,
}: {
  decisions: Decision[];
  fabricNames?: Map<number, string>;
}) {
  return (
    <div className="table-scroll">
      <table className="data-table decisions-table" data-testid="decisions-table">
        <caption className="visually-hidden">CorrOpt decisions</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Decision</th>
            <th scope="col">Link</th>
            <th scope="col" className="numeric">
              Penalty (loss rate)
            </th>
            <th scope="col">ToRs below: capacity before → after</th>
            <th scope="col">Blocking ToR</th>
          </tr>
        </thead>
        <tbody>
          {decisions.map((decision) => (
            <tr
              key={decision.id}
              data-testid="decision-row"
              data-decision-id={decision.id}
              data-action={decision.action}
              data-kind={decision.kind}
            >
              <td data-label="Time">{formatTime(decision.created)}</td>
              <td data-label="Decision">
                <span className={`badge badge-decision-${decision.action}`}>
                  {label(DECISION_ACTIONS, decision.action)}
                </span>
                <span className="muted">
                  {' '}
                  by{' '}
                  {decision.job !== null ? (
                    <Link to={`/optimizer/${decision.job}`} data-testid="decision-run">
                      {label(DECISION_KINDS, decision.kind)} run #{decision.job}
                    </Link>
                  ) : (
                    label(DECISION_KINDS, decision.kind)
                  )}
                </span>
              </td>
              <td data-label="Link">
                <Link to={`/links/${decision.link}`}>{decision.link_name}</Link>
                {fabricNames ? (
                  <span className="muted"> {fabricNames.get(decision.fabric) ?? `fabric ${decision.fabric}`}</span>
                ) : null}
              </td>
              <td
                data-label="Penalty"
                className="numeric"
                title={`A→Z ${formatRate(decision.loss_rate_a_to_z)}, Z→A ${formatRate(decision.loss_rate_z_to_a)}`}
              >
                {formatRate(decision.penalty)}
              </td>
              <td data-label="ToRs below">
                <ul className="affected-list">
                  {decision.affected.map((tor) => {
                    const constraint = constraintNow(decision, tor);
                    const below = fallsBelow(tor, constraint);
                    return (
                      <li key={tor.switch} className={below ? 'falls-below' : undefined}>
                        {describeAffected(tor, constraint)}
                        {below ? ` — under its constraint ${formatFraction(constraint)}` : ''}
                      </li>
                    );
                  })}
                </ul>
              </td>
              <td data-label="Blocking ToR">
                {decision.blocking_tor_name ? (
                  <>
                    <strong>{decision.blocking_tor_name}</strong>
                    <span className="muted"> at {formatFraction(decision.blocking_tor_fraction)}</span>
                    {typeof decision.blocking_tor_constraint === 'number' ? (
                      <div className="muted" data-testid="blocking-constraint">
                        constraint now {formatFraction(decision.blocking_tor_constraint)}
                      </div>
                    ) : null}
                  </>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
