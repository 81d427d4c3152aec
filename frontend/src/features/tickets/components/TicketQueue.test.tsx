/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { testPreventiveTicket, testTicket } from '../testTicket';
import { TicketQueue } from './TicketQueue';

describe('TicketQueue', () => {
  it('marks a preventive ticket, so the queue tells forecast work from repairs (trial 27)', () => {
    render(
      <MemoryRouter>
        <TicketQueue tickets={[testTicket(), testPreventiveTicket()]} fabricNames={new Map([[1, 'demo-fb']])} />
      </MemoryRouter>,
    );
    const rows = screen.getAllByTestId('ticket-row');
    expect(rows).toHaveLength(2);
    const [repair, preventive] = rows as [HTMLElement, HTMLElement];
    expect(within(repair).queryByTestId('ticket-kind')).toBeNull();
    expect(within(preventive).getByTestId('ticket-kind').textContent?.trim()).toBe('preventive');
    expect(
      within(preventive)
        .getByRole('link', { name: /Ticket 6/ })
        .getAttribute('href'),
    ).toBe('/tickets/6');
    // Its name holds both kinds (trial 30: "Repair tickets" above preventive ones too).
    expect(screen.getByRole('table', { name: 'Repair and preventive tickets' })).toBeInTheDocument();
  });
});
