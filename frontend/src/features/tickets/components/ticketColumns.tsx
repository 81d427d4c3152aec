import { Link } from 'react-router';

import { penaltyColumn, type TableColumn } from '@/components/table';
import { formatAge, formatTime } from '@/lib/format';

import type { Ticket } from '../api/types';
import { nextStepText } from '../ticketProgress';
import { TICKET_KIND_LABELS } from '../ticketQueue';
import { TicketStateBadge } from './TicketStateBadge';

/** The queue's order until a header is chosen: the costliest corruption first. */
export const TICKETS_DEFAULT_ORDERING = '-penalty';

/** The ticket queue's columns; `now` dates the ages ("3 h ago"). */
export function ticketColumns(fabricNames: Map<number, string>, now: Date): TableColumn<Ticket>[] {
  return [
    {
      key: 'id',
      label: 'Ticket',
      sortField: 'id',
      required: true,
      rowHeader: true,
      cell: (ticket) => (
        <>
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
        </>
      ),
    },
    { key: 'link', label: 'Link', className: 'ticket-link-name', cell: (ticket) => ticket.link_name },
    {
      key: 'kind',
      label: 'Kind',
      sortField: 'kind',
      cell: (ticket) => <span data-testid="ticket-kind-cell">{TICKET_KIND_LABELS[ticket.kind]}</span>,
    },
    { key: 'state', label: 'State', sortField: 'state', cell: (ticket) => <TicketStateBadge state={ticket.state} /> },
    {
      key: 'recommended',
      label: 'Recommended',
      cell: (ticket) => (
        <>
          {nextStepText(ticket)}
          {ticket.step_count > 1 ? <span className="muted"> (step {ticket.step_count})</span> : null}
        </>
      ),
    },
    penaltyColumn(),
    {
      key: 'fabric',
      label: 'Fabric / pod',
      cell: (ticket) =>
        `${fabricNames.get(ticket.fabric) ?? `fabric ${ticket.fabric}`}${ticket.pod === null ? '' : ` · pod ${ticket.pod}`}`,
    },
    {
      key: 'assignee',
      label: 'Assignee',
      sortField: 'assignee__username',
      cell: (ticket) => ticket.assignee ?? <span className="muted">nobody</span>,
    },
    {
      // Sorted by when it was opened: ascending is the oldest first, as the ages read.
      key: 'created',
      label: 'Opened',
      sortField: 'created',
      cell: (ticket) => <span title={formatTime(ticket.created)}>{formatAge(ticket.created, now)} ago</span>,
    },
  ];
}

export const TICKET_COLUMNS = ticketColumns(new Map(), new Date(0));
export const TICKET_COLUMN_KEYS = TICKET_COLUMNS.map((column) => column.key);
export const TICKET_SORT_FIELDS = TICKET_COLUMNS.flatMap((column) => column.sortField ?? []);
