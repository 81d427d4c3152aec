import { formatTime } from '@/lib/format';

import type { TicketDetail } from '../api/types';
import {
  currentStep,
  doneAt,
  ifValidationFails,
  returnedAfter,
  stepInstruction,
  ticketWhere,
  validationSentence,
  whatToBring,
} from '../ticketHeader';

/** First on the ticket, above the fold on a phone: what to do where and what to bring; once the
 * step is done, what was done and what the ticket waits for (validation until when). */
export function TicketHeader({ ticket }: { ticket: TicketDetail }) {
  const where = ticketWhere(ticket);
  const recommendation = ticket.recommendation;
  const step = currentStep(ticket);
  const done = step ? doneAt(step, ticket.ends) : null;
  const returned = returnedAfter(ticket);
  const validation = validationSentence(ticket);
  const ifItFails = ifValidationFails(ticket);
  return (
    <section className="panel ticket-header" aria-label="Where and what to bring" data-testid="ticket-header">
      {done ? (
        <p className="ticket-header-todo" data-testid="ticket-header-done">
          <strong>Done: {done}</strong>
        </p>
      ) : null}
      {recommendation && where && !done ? (
        <>
          {returned ? (
            <p className="ticket-header-returned" data-testid="ticket-header-returned">
              {returned}
            </p>
          ) : null}
          <p className="ticket-header-todo" data-testid="ticket-header-todo">
            <strong>{stepInstruction(recommendation, ticket.ends, ticket.direction)}</strong>
          </p>
          <h2 className="ticket-header-title">What to bring</h2>
          <ul className="ticket-header-bring" data-testid="ticket-header-bring">
            {whatToBring(ticket, where).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : null}
      {where ? (
        <p data-testid="ticket-header-reseated">
          Last reseated (end {where.end.side.toUpperCase()}):{' '}
          {where.end.last_reseated_at ? formatTime(where.end.last_reseated_at) : 'never recorded'}
        </p>
      ) : null}
      {validation ? <p data-testid="ticket-header-validation">{validation}</p> : null}
      {ifItFails ? <p data-testid="ticket-header-if-it-fails">{ifItFails}</p> : null}
    </section>
  );
}
