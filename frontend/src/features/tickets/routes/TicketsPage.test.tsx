/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lastQuery, page, renderListPage, toggleColumn } from '@/components/table/testListPage';

import { testTicket } from '../testTicket';
import { TicketsPage } from './TicketsPage';

const TICKET = testTicket({ penalty: 5.4e-4 });
const METRICS = { open_tickets_by_state: { open: 1 } };

function answer(url: URL) {
  return url.pathname === '/api/tickets/metrics/' ? METRICS : page([TICKET]);
}

describe('TicketsPage', () => {
  it('lists the costliest first until a header is chosen, penalties as a power of ten', async () => {
    const { asked } = renderListPage(<TicketsPage />, '/tickets', '/tickets', answer);
    const row = await screen.findByTestId('ticket-row');
    expect(lastQuery(asked, '/api/tickets/').get('ordering')).toBe('-penalty');
    expect(within(row).getByText('5.4 × 10⁻⁴')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain('ordering=-penalty');
    // One way to sort: the headers (the Sort field went).
    expect(screen.queryByRole('combobox', { name: 'Sort' })).toBeNull();
  });

  it('sorts by a header: the request, the URL and the CSV follow, and a filter keeps the ordering', async () => {
    const { asked, router } = renderListPage(<TicketsPage />, '/tickets', '/tickets?kind=repair', answer);
    await screen.findByTestId('ticket-row');
    fireEvent.click(screen.getByRole('button', { name: 'Opened' }));
    await waitFor(() => expect(lastQuery(asked, '/api/tickets/').get('ordering')).toBe('created'));
    const query = lastQuery(asked, '/api/tickets/');
    expect(query.get('kind')).toBe('repair');
    expect(query.getAll('state')).toEqual(['open', 'reopened', 'in_progress', 'awaiting_validation']);
    expect(screen.getByRole('columnheader', { name: /Opened/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(router.state.location.search).toBe('?kind=repair&ordering=created');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/tickets/?state=open&state=reopened&state=in_progress&state=awaiting_validation&kind=repair' +
        '&ordering=created&format=csv&columns=id%2Clink%2Ckind%2Cstate%2Crecommended%2Cpenalty%2Cfabric%2Cassignee%2Ccreated',
    );

    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'preventive' } });
    expect(router.state.location.search).toBe('?kind=preventive&ordering=created');
  });

  it('hides a column chosen off and keeps the ticket number', async () => {
    renderListPage(<TicketsPage />, '/tickets', '/tickets', answer);
    await screen.findByTestId('ticket-row');
    await toggleColumn('Assignee');
    expect(screen.queryByRole('columnheader', { name: /Assignee/ })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('lightpath.table.tickets')!)).toEqual(['assignee']);
    expect(screen.queryByRole('checkbox', { name: 'Ticket' })).toBeNull();
  });
});
