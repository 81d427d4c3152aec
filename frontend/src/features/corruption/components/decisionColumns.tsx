import { Link } from 'react-router';

import { penaltyColumn, type TableColumn } from '@/components/table';
import { Time } from '@/components/Time';
import { formatLossRate } from '@/lib/format/number';

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

/** The decision log's columns; with `fabricNames` the link names its fabric. */
export function decisionColumns(fabricNames?: Map<number, string>): TableColumn<Decision>[] {
  return [
    { key: 'created', label: 'Time', sortField: 'created', cell: (decision) => <Time value={decision.created} /> },
    {
      key: 'action',
      label: 'Decision',
      sortField: 'action',
      cell: (decision) => (
        <>
          <span className={`badge badge-decision-${decision.action}`}>{label(DECISION_ACTIONS, decision.action)}</span>
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
        </>
      ),
    },
    {
      key: 'link',
      label: 'Link',
      sortField: 'link',
      required: true,
      cell: (decision) => (
        <>
          <Link to={`/links/${decision.link}`}>{decision.link_name}</Link>
          {fabricNames ? (
            <span className="muted"> {fabricNames.get(decision.fabric) ?? `fabric ${decision.fabric}`}</span>
          ) : null}
        </>
      ),
    },
    penaltyColumn(
      (decision) =>
        `A→Z ${formatLossRate(decision.loss_rate_a_to_z)}, Z→A ${formatLossRate(decision.loss_rate_z_to_a)}`,
    ),
    {
      key: 'affected',
      label: 'ToRs below: capacity before → after',
      cardLabel: 'ToRs below',
      cell: (decision) => (
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
      ),
    },
    {
      key: 'blocking_tor',
      label: 'Blocking ToR',
      sortField: 'blocking_tor__name',
      cell: (decision) =>
        decision.blocking_tor_name ? (
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
          <span className="muted">none</span>
        ),
    },
  ];
}

export const DECISION_COLUMNS = decisionColumns(new Map());
export const DECISION_COLUMN_KEYS = DECISION_COLUMNS.map((column) => column.key);
export const DECISION_SORT_FIELDS = DECISION_COLUMNS.flatMap((column) => column.sortField ?? []);
