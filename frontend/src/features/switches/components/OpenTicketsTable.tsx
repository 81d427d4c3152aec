import { Link } from 'react-router';

import { TicketStateBadge } from '@/features/tickets';
import { formatTime } from '@/lib/format';

import type { OpenTicket } from '../api/types';

export function OpenTicketsTable({ tickets }: { tickets: OpenTicket[] }) {
  if (tickets.length === 0) return <p className="muted">No open tickets.</p>;
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="open-tickets">
        <thead>
          <tr>
            <th scope="col">Ticket</th>
            <th scope="col">State</th>
            <th scope="col">Kind</th>
            <th scope="col">Link</th>
            <th scope="col">Assignee</th>
            <th scope="col">Opened</th>
          </tr>
        </thead>
        <tbody>
          {tickets.map((ticket) => (
            <tr key={ticket.id}>
              <td>
                <Link to={`/tickets/${ticket.id}`}>#{ticket.id}</Link>
              </td>
              <td>
                <TicketStateBadge state={ticket.state} />
              </td>
              <td>{ticket.kind}</td>
              <td>
                <Link to={`/links/${ticket.link}`}>{ticket.link_name}</Link>
              </td>
              <td>{ticket.assignee ?? 'unassigned'}</td>
              <td>{formatTime(ticket.created)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
