/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { testPreventiveTicket, testTicket } from '../testTicket';
import { TicketActions } from './TicketActions';

function withClient(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>
  );
}

interface Call {
  url: string;
  method: string;
  body: unknown;
}

/** The network boundary: answers every request with the given status and body, and records the writes
 * (the GET of assignable users is not one of the actions under test). */
function stubServer(status: number, body: unknown): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      if (method !== 'GET') calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

beforeEach(() => {
  document.cookie = 'csrftoken=test-token';
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TicketActions', () => {
  it('offers to take an open ticket and nothing to record yet', () => {
    render(withClient(<TicketActions ticket={testTicket({ state: 'open' })} username="technician" />));
    expect(screen.getByRole('button', { name: 'Take this ticket' })).toBeEnabled();
    expect(screen.queryByRole('form', { name: 'Record the action taken' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Assign to me' })).toBeInTheDocument();
  });

  it('says taking the ticket takes no link down and points to the work order that does', async () => {
    const order = { id: 7, state: 'open', tickets: [3], component_name: 'breakout cable p1-tor5:eth2' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const results = String(url).startsWith('/api/work-orders/') ? [order] : [];
        return new Response(JSON.stringify({ count: results.length, next: null, previous: null, results }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    render(withClient(<TicketActions ticket={testTicket({ state: 'open' })} username="technician" />));
    // The work order's own button is the one that starts work; this one must not say so.
    expect(screen.queryByRole('button', { name: 'Start work' })).toBeNull();
    const note = screen.getByTestId('take-links-note');
    expect(note).toHaveTextContent('It takes no link out of service');
    const link = await within(note).findByRole('link', { name: 'work order #7' });
    expect(link).toHaveAttribute('href', '/work-orders/7');
  });

  it('records the chosen action with notes and shows what happened to the link', async () => {
    const answer = {
      ...testTicket({ state: 'awaiting_validation', validation_started_at: '2026-11-22T21:00:00Z' }),
      link_enabled: true,
      message: 'The link is enabled again; validation has started.',
    };
    const calls = stubServer(200, answer);
    const ticket = testTicket({ state: 'in_progress', assignee: 'technician' });
    const { rerender } = render(withClient(<TicketActions ticket={ticket} username="technician" />));

    const form = screen.getByRole('form', { name: 'Record the action taken' });
    // The recommendation is preselected and marked.
    expect(within(form).getByRole('radio', { name: /Replaced far-end transceiver/ })).toBeChecked();
    fireEvent.click(within(form).getByRole('radio', { name: 'Cleaned fiber' }));
    expect(within(form).getByRole('note')).toHaveTextContent('recorded as not followed');
    fireEvent.change(within(form).getByLabelText(/Notes/), { target: { value: 'both ends, scope showed dust' } });
    fireEvent.click(within(form).getByRole('button', { name: /Record action/ }));

    await waitFor(() => expect(screen.getByTestId('act-message')).toHaveTextContent('validation has started'));
    expect(calls).toEqual([
      {
        url: '/api/tickets/3/act/',
        method: 'POST',
        body: { action_taken: 'clean_fiber', notes: 'both ends, scope showed dust', new_serial: '' },
      },
    ]);
    rerender(withClient(<TicketActions ticket={answer} username="technician" />));
    expect(screen.getByTestId('validation-note')).toHaveTextContent('watched for clean polls since 2026-11-22 21:00');
  });

  it('shows the reason of a 409 from the server', async () => {
    stubServer(409, { detail: 'ticket 3 is in_progress; only an open or reopened ticket can start' });
    render(withClient(<TicketActions ticket={testTicket({ state: 'open' })} username="technician" />));
    fireEvent.click(screen.getByRole('button', { name: 'Take this ticket' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not take the ticket.');
    expect(alert).toHaveTextContent('only an open or reopened ticket can start');
  });

  it('lists every problem of a 400 when assigning', async () => {
    stubServer(400, { username: ['no user named ‘nobody’'] });
    render(withClient(<TicketActions ticket={testTicket({ state: 'open' })} username="technician" />));
    const form = screen.getByRole('form', { name: 'Assign to someone else' });
    fireEvent.change(within(form).getByLabelText('Assign to (username)'), { target: { value: 'nobody' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('username: no user named ‘nobody’');
  });

  it('suggests the technicians and operators it can be handed to, not the current assignee', async () => {
    stubServer(200, {
      count: 2,
      next: null,
      previous: null,
      results: [
        { username: 'tess', full_name: 'Tess Tech', roles: ['technician'] },
        { username: 'technician', full_name: '', roles: ['technician'] },
      ],
    });
    const ticket = testTicket({ state: 'in_progress', assignee: 'technician' });
    const { container } = render(withClient(<TicketActions ticket={ticket} username="operator" />));
    await waitFor(() => expect(container.querySelectorAll('datalist option')).toHaveLength(1));
    const option = container.querySelector('datalist option');
    expect(option).toHaveAttribute('value', 'tess');
    expect(option).toHaveTextContent('Tess Tech · technician');
    expect(String(vi.mocked(fetch).mock.calls[0]?.[0])).toContain('/api/users/?role=technician&role=operator');
  });

  it('offers no assignment on a resolved ticket', () => {
    render(
      withClient(
        <TicketActions
          ticket={testTicket({ state: 'resolved', resolved_at: '2026-11-23T10:00:00Z' })}
          username="technician"
        />,
      ),
    );
    expect(screen.getByText(/Resolved 2026-11-23 10:00 UTC/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign to me' })).toBeNull();
  });

  describe('a preventive ticket (its link in service until the work order starts)', () => {
    /** The network boundary: the link with the given admin state, and the ticket's work order. */
    function stubLinkAndOrder(link: { admin_state: string; admin_reason: string }, order: { state: string }) {
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) => {
          const body = String(url).startsWith('/api/work-orders/')
            ? {
                count: 1,
                next: null,
                previous: null,
                results: [{ id: 7, tickets: [3], component_name: 'fiber p0-tor0:eth2/1', ...order }],
              }
            : { id: 19, ...link };
          return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
        }),
      );
    }
    const preventive = () => testTicket({ kind: 'preventive', state: 'in_progress', assignee: 'technician' });

    it('leads to its work order’s start and records nothing before it', async () => {
      stubLinkAndOrder({ admin_state: 'enabled', admin_reason: '' }, { state: 'open' });
      render(withClient(<TicketActions ticket={preventive()} username="technician" />));
      const note = await screen.findByTestId('preventive-visit-note');
      expect(note).toHaveTextContent(
        'The link is in service and this repair takes it down. Start work order #7 first: starting takes the link ' +
          'down only if every ToR keeps its capacity.',
      );
      expect(within(note).getByRole('link', { name: 'work order #7' })).toHaveAttribute('href', '/work-orders/7');
      const button = screen.getByRole('button', { name: 'Record action' });
      expect(button).toBeDisabled();
      expect(screen.queryByRole('button', { name: /re-enable the link/ })).toBeNull();
    });

    it('records once the work order is in progress, without promising to re-enable the link', async () => {
      stubLinkAndOrder(
        { admin_state: 'disabled', admin_reason: 'maintenance: work order 7 (clean_fiber fiber p0-tor0:eth2/1)' },
        { state: 'in_progress' },
      );
      render(withClient(<TicketActions ticket={preventive()} username="technician" />));
      expect(await screen.findByTestId('preventive-visit-note')).toHaveTextContent(
        'Work order #7 is in progress: the link is out of service for the repair, and finishing work order #7 brings it back.',
      );
      await waitFor(() => expect(screen.getByRole('button', { name: 'Record action' })).toBeEnabled());
    });

    it('says it re-enables the link when corruption took it out of service', async () => {
      stubLinkAndOrder({ admin_state: 'disabled', admin_reason: 'corruption' }, { state: 'open' });
      render(withClient(<TicketActions ticket={preventive()} username="technician" />));
      expect(await screen.findByRole('button', { name: 'Record action and re-enable the link' })).toBeEnabled();
      expect(screen.queryByTestId('preventive-visit-note')).toBeNull();
    });
  });

  it('says when a repaired preventive ticket resolves: forecast cleared, else the window’s end', () => {
    const awaiting = (validation_ends_at: string | null) =>
      testPreventiveTicket({ state: 'awaiting_validation', assignee: 'technician', validation_ends_at });
    const { unmount } = render(
      withClient(<TicketActions ticket={awaiting('2026-11-28T10:30:00Z')} username="technician" />),
    );
    expect(screen.getByTestId('validation-note')).toHaveTextContent(
      'The ticket resolves by itself as soon as the link has had no corruption since the repair and its forecast is ' +
        'no longer at risk; otherwise once it stays clean through the validation window, which ends 2026-11-28 10:30 UTC.',
    );
    unmount();
    render(withClient(<TicketActions ticket={awaiting(null)} username="technician" />));
    expect(screen.getByTestId('validation-note')).toHaveTextContent('which starts when the link is back in service');
  });
});
