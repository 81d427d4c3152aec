import { Link } from 'react-router';

import type { LinkForecastRow } from '../api/types';
import { useOpenPreventiveTicket } from '../api/useOpenPreventiveTicket';
import { PreventiveTicketButton } from './PreventiveTicketButton';

/** A row's preventive ticket: one mutation per link, so each row says its own answer. */
export function AtRiskRowTicket({ linkId }: { linkId: number }) {
  const open = useOpenPreventiveTicket();
  return (
    <PreventiveTicketButton
      onOpen={() => open.mutate({ link: linkId })}
      pending={open.isPending}
      opened={open.data}
      error={open.error}
    />
  );
}

type LinkTicket = NonNullable<LinkForecastRow['ticket']>;

const KIND_WORDS: Record<LinkTicket['kind'], string> = {
  preventive: 'Preventive ticket',
  repair: 'Repair ticket',
};

/**
 * The link's unresolved ticket, where the button would be: the link is already being handled
 * (every role reads it; trial 27 item 5: the button came back after a reload and the server refused).
 */
export function AtRiskExistingTicket({ ticket }: { ticket: Pick<LinkTicket, 'id' | 'kind'> & { state: string } }) {
  return (
    <p className="preventive-opened" data-testid="at-risk-ticket">
      <Link to={`/tickets/${ticket.id}`}>
        {KIND_WORDS[ticket.kind]} #{ticket.id}
      </Link>{' '}
      ({ticket.state.replace('_', ' ')})
    </p>
  );
}
