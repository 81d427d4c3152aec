import { Link } from 'react-router';

import { formatAge, formatTime } from '@/lib/format';

import type { Ticket } from '../api/types';
import { formatRate } from '../evidence';
import { TICKET_KIND_LABELS } from '../ticketQueue';
import { nextStepText } from '../ticketProgress';
import { TicketStateBadge } from './TicketStateBadge';

interface TicketQueueProps {
  tickets: Ticket[];
  fabricNames: Map<number, string>;
  now?: Date;
}

/**
 * The queue as a table; below 640 px each row becomes a card (tickets.css), label beside value,
 * so the main facts never need horizontal scrolling on a phone.
 */
export function TicketQueue({ tickets, fabricNames, now = new Date() }: TicketQueueProps) {
  return (
    <table className="data-table ticket-queue" data-testid="ticket-queue">
      <caption className="visually-hidden">Repair tickets</caption>
      <thead>
        <tr>
          <th scope="col">Ticket</th>
          <th scope="col">Link</th>
          <th scope="col">Kind</th>
          <th scope="col">State</th>
          <th scope="col">Recommended</th>
          <th scope="col" className="numeric">
            Penalty (loss rate)
          </th>
          <th scope="col">Fabric / pod</th>
          <th scope="col">Assignee</th>
          <th scope="col">Age</th>
        </tr>
      </thead>
      <tbody>
        {tickets.map((ticket) => (
          <tr key={ticket.id} data-ticket-id={ticket.id} data-state={ticket.state} data-testid="ticket-row">
            <th scope="row" data-label="Ticket">
              <Link to={`/tickets/${ticket.id}`} aria-label={`Ticket ${ticket.id}: ${ticket.link_name}`}>
                #{ticket.id}
              </Link>
              {ticket.kind === 'preventive' ? (
                <span
                  className="ticket-kind"
                  data-testid="ticket-kind"
                  title="Opened from an optics forecast; the link stays in service"
                >
                  {' '}
                  preventive
                </span>
              ) : null}
            </th>
            <td data-label="Link" className="ticket-link-name">
              {ticket.link_name}
            </td>
            <td data-label="Kind" data-testid="ticket-kind-cell">
              {TICKET_KIND_LABELS[ticket.kind]}
            </td>
            <td data-label="State">
              <TicketStateBadge state={ticket.state} />
            </td>
            <td data-label="Recommended">
              {nextStepText(ticket)}
              {ticket.step_count > 1 ? <span className="muted"> (step {ticket.step_count})</span> : null}
            </td>
            <td data-label="Penalty" className="numeric">
              {formatRate(ticket.penalty)}
            </td>
            <td data-label="Fabric / pod">
              {fabricNames.get(ticket.fabric) ?? `fabric ${ticket.fabric}`}
              {ticket.pod === null ? '' : ` · pod ${ticket.pod}`}
            </td>
            <td data-label="Assignee">{ticket.assignee ?? <span className="muted">nobody</span>}</td>
            <td data-label="Age" title={`Opened ${formatTime(ticket.created)}`}>
              {formatAge(ticket.created, now)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
