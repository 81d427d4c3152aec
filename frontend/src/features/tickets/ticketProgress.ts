/**
 * Where a ticket stands after its advice: what was done and what it waits for ("Reseated
 * transceiver, validating until 2026-11-28 13:11 UTC"), else what to do next. One function for the
 * queue's Recommended cell (TicketQueue) and the ticket page, so neither keeps advising a repair
 * already done.
 */
import { formatTime } from '@/lib/format';

import type { Ticket } from './api/types';
import { actionDone, actionTodo } from './repairActions';

export type TicketProgress = Pick<Ticket, 'state' | 'recommended_action' | 'action_taken' | 'validation_ends_at'>;

/** The current step in a few words: the advice while nothing is done, else what was done and what follows. */
export function nextStepText(ticket: TicketProgress): string {
  const done = ticket.action_taken ? actionDone(ticket.action_taken) : null;
  if (ticket.state === 'resolved') return done ? `${done}: fixed` : 'Resolved';
  if (done && ticket.state === 'awaiting_validation') {
    return ticket.validation_ends_at
      ? `${done}, validating until ${formatTime(ticket.validation_ends_at)}`
      : `${done}; validation starts when the link is back in service`;
  }
  return actionTodo(ticket.recommended_action);
}
