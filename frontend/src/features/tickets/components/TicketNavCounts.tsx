import { useTicketCounts } from '../api/useTicketCounts';
import '../tickets.css';

/** Beside the nav's Tickets link, in words readable without the tooltip (a phone has none):
 * "5 unresolved · 0 mine", the Tickets page's word for every ticket not yet resolved (open, in
 * progress, awaiting validation, reopened: "open" there is one of these states, trial 29); "mine"
 * those of them assigned to the user. */
export function TicketNavCounts() {
  const counts = useTicketCounts().data;
  if (!counts) return null;
  return (
    <span
      className="nav-counts"
      data-testid="nav-ticket-counts"
      title={`${counts.unresolved} unresolved (open, in progress or awaiting validation), ${counts.assigned_to_me} assigned to you`}
    >
      {counts.unresolved} unresolved · {counts.assigned_to_me} mine
    </span>
  );
}
