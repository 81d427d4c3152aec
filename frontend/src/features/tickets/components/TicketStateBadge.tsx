import type { TicketState } from '../api/types';
import { TICKET_STATE_LABELS } from '../ticketQueue';

export function TicketStateBadge({ state }: { state: TicketState }) {
  return (
    <span className={`badge badge-ticket-${state}`} data-testid="ticket-state" data-state={state}>
      {TICKET_STATE_LABELS[state] ?? state}
    </span>
  );
}
