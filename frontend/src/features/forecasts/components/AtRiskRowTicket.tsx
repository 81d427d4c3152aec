import { useOpenPreventiveTicket } from '../api/useOpenPreventiveTicket';
import { PreventiveTicketButton } from './PreventiveTicketButton';

/** A row's preventive ticket: one mutation per link, so each row says its own answer. */
export function AtRiskRowTicket({ linkId }: { linkId: number }) {
  const open = useOpenPreventiveTicket();
  return (
    <PreventiveTicketButton
      onOpen={() => open.mutate({ link: linkId })}
      pending={open.isPending}
      opened={open.data}
      error={open.error}
    />
  );
}
