import { DataTable, type TableState } from '@/components/table';
import '@/components/card.css';

import type { Ticket } from '../api/types';
import { ticketColumns } from './ticketColumns';

interface TicketQueueProps {
  tickets: Ticket[];
  fabricNames: Map<number, string>;
  now?: Date;
  /** The Tickets page's sorting and chosen columns. */
  table?: TableState;
  busy?: boolean;
}

/**
 * The queue as a table; below 640 px each row becomes a card (components/card.css, tickets.css),
 * label beside value, so the main facts never need horizontal scrolling on a phone.
 */
export function TicketQueue({ tickets, fabricNames, now, table, busy }: TicketQueueProps) {
  // Built on every render: the ages move on with each refresh of the queue.
  const columns = ticketColumns(fabricNames, now ?? new Date());
  return (
    <DataTable
      caption="Repair and preventive tickets"
      className="ticket-queue phone-cards phone-cards-grid"
      testId="ticket-queue"
      columns={columns}
      rows={tickets}
      rowKey={(ticket) => ticket.id}
      table={table}
      busy={busy}
      rowProps={(ticket) => ({ 'data-testid': 'ticket-row', 'data-ticket-id': ticket.id, 'data-state': ticket.state })}
    />
  );
}
