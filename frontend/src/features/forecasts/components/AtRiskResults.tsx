import type { ReactNode } from 'react';

import type { ForecastCause, LinkForecastRow } from '../api/types';
import { emptyText } from '../forecastText';
import { AtRiskTable } from './AtRiskTable';

interface AtRiskResultsProps {
  /** How many links are at risk under the filters (all pages). */
  total: number;
  /** This page's rows, soonest crossing first. */
  rows: readonly LinkForecastRow[];
  horizonDays: number;
  causes: readonly ForecastCause[];
  now: Date;
  /** Paging controls, under the table. */
  pagination?: ReactNode;
  ticketControl?: (linkId: number) => ReactNode;
}

/** The list of links at risk, or a sentence saying none is. */
export function AtRiskResults({
  total,
  rows,
  horizonDays,
  causes,
  now,
  pagination,
  ticketControl,
}: AtRiskResultsProps) {
  if (total === 0) {
    return <p data-testid="at-risk-empty">{emptyText(horizonDays, causes)}</p>;
  }
  return (
    <>
      <p data-testid="at-risk-count">
        {total} link{total === 1 ? ' is' : 's are'} forecast to cross a limit within {horizonDays} day
        {horizonDays === 1 ? '' : 's'}, soonest first.
      </p>
      <AtRiskTable rows={rows} now={now} ticketControl={ticketControl} />
      {pagination}
    </>
  );
}
