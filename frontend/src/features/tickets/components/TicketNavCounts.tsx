import { useTicketCounts } from '../api/useTicketCounts';
import '../tickets.css';

/** Beside the nav's Tickets link: how many are unresolved and how many of them are the user's. */
export function TicketNavCounts() {
  const counts = useTicketCounts().data;
  if (!counts) return null;
  return (
    <span
      className="nav-counts"
      data-testid="nav-ticket-counts"
      title={`${counts.unresolved} unresolved, ${counts.assigned_to_me} assigned to you`}
    >
      {counts.unresolved} · {counts.assigned_to_me} mine
    </span>
  );
}
