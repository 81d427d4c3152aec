import { formatTime } from '@/lib/format';

import type { TicketDetail } from '../api/types';
import { actionAt, ticketWhere, validationSentence, whatToBring } from '../ticketHeader';

/** First on the ticket, above the fold on a phone: what to do where, what to bring, and validation. */
export function TicketHeader({ ticket }: { ticket: TicketDetail }) {
  const where = ticketWhere(ticket);
  const recommendation = ticket.recommendation;
  const validation = validationSentence(ticket);
  return (
    <section className="panel ticket-header" aria-label="Where and what to bring" data-testid="ticket-header">
      {recommendation && where ? (
        <>
          <p className="ticket-header-todo" data-testid="ticket-header-todo">
            <strong>{actionAt(recommendation.action, recommendation.evidence, ticket.ends, ticket.direction)}</strong>
          </p>
          <h2 className="ticket-header-title">What to bring</h2>
          <ul className="ticket-header-bring" data-testid="ticket-header-bring">
            {whatToBring(ticket, where).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p data-testid="ticket-header-reseated">
            Last reseated (end {where.end.side.toUpperCase()}):{' '}
            {where.end.last_reseated_at ? formatTime(where.end.last_reseated_at) : 'never recorded'}
          </p>
        </>
      ) : null}
      {validation ? <p data-testid="ticket-header-validation">{validation}</p> : null}
    </section>
  );
}
