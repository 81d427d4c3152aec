import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';

import type { PreventiveTicket } from '../api/types';

interface PreventiveTicketButtonProps {
  onOpen: () => void;
  pending: boolean;
  /** The ticket opened, once the server has answered 201. */
  opened: PreventiveTicket | undefined;
  error: unknown;
}

/** "Open preventive ticket" for an at-risk link, then a link to the ticket, or the server's reasons it cannot. */
export function PreventiveTicketButton({ onOpen, pending, opened, error }: PreventiveTicketButtonProps) {
  if (opened) {
    return (
      <p className="preventive-opened" data-testid="preventive-opened">
        <Link to={`/tickets/${opened.id}`}>Preventive ticket #{opened.id}</Link> opened; the link stays in service.
      </p>
    );
  }
  return (
    <div className="preventive-ticket">
      <button type="button" onClick={onOpen} disabled={pending}>
        {pending ? 'Opening…' : 'Open preventive ticket'}
      </button>
      <ErrorList error={error} title="Could not open a preventive ticket." />
    </div>
  );
}
