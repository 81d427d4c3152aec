/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { TodayAnswer, TodayVisit } from '../api/types';
import { testWorkOrder } from '../testWorkOrder';
import { TodayPage } from './TodayPage';

const TECHNICIAN = { username: 'technician', roles: ['technician'], is_admin: false };

function visit(id: number, start: string, end: string, done: boolean): TodayVisit {
  // The detail answer is a work order and more: its list fields are what the day carries.
  const order = testWorkOrder({ id, state: done ? 'done' : 'open' });
  return {
    work_order: order,
    planned: true,
    start_at: start,
    end_at: end,
    start_s: 0,
    end_s: 3600,
    links_down: [],
    restored: [],
    done,
  };
}

const PLAN = {
  job: 7,
  fabric: { id: 1, name: 'demo-fb' },
  planned_at: '2026-11-27T07:15:00Z',
  shift_start: '2026-11-27T08:00:00Z',
  shift_end: '2026-11-27T16:00:00Z',
  stale: false,
  stale_reasons: [],
};

/** The network boundary: who is asking and their day. */
function stubServer(day: TodayAnswer) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://test').pathname;
      const body = path === '/api/auth/me/' ? TECHNICIAN : path === '/api/work-orders/today/' ? day : null;
      if (body === null) return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/today']}>
        <Routes>
          <Route path="/today" element={<TodayPage />} />
          <Route path="/tickets" element={<h1>Tickets</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TodayPage', () => {
  it('lists the visits in order, the place first, a done one marked, and the order’s page a tap away', async () => {
    stubServer({
      user: 'technician',
      plan: PLAN,
      visits: [
        visit(3, '2026-11-27T08:00:00Z', '2026-11-27T09:00:00Z', true),
        visit(5, '2026-11-27T09:10:00Z', '2026-11-27T09:40:00Z', false),
      ],
      detail: '2 visits, the first at 08:00 UTC in rack p3-rack1.',
    });
    renderPage();
    const cards = await screen.findAllByTestId('today-visit');
    expect(cards.map((card) => card.dataset.workOrder)).toEqual(['3', '5']);
    const [done, next] = cards as [HTMLElement, HTMLElement];
    expect(within(done).getByTestId('today-time')).toHaveTextContent('2026-11-27 08:00–09:00 UTC');
    // The row first: where the technician walks to, then the rack.
    expect(within(done).getByTestId('today-place')).toHaveTextContent(/^Rowpod 3Rackp3-rack1/);
    expect(within(done).getByTestId('today-rack')).toHaveTextContent('p3-rack1');
    expect(within(done).getByTestId('today-switch')).toHaveTextContent('p3-tor1 eth2/1');
    expect(within(done).getByTestId('today-far')).toHaveTextContent('fab-rack-0, p3-fab0 eth1/2');
    expect(within(done).getByTestId('today-state')).toHaveTextContent('✓ done');
    expect(done).toHaveClass('today-visit-done');
    expect(within(next).getByTestId('today-state')).toHaveTextContent('open');
    expect(next).not.toHaveClass('today-visit-done');
    expect(within(next).getByTestId('today-what')).toHaveTextContent('breakout cable p3-tor1 eth2/1-4');
    expect(within(next).getByRole('link', { name: /Work order #5/ })).toHaveAttribute('href', '/work-orders/5');
    expect(screen.getByTestId('today-plan')).toHaveTextContent('1 of 2 done');
    expect(screen.queryByTestId('today-stale')).toBeNull();
  });

  it('warns over a stale plan with the server’s reasons', async () => {
    stubServer({
      user: 'technician',
      plan: { ...PLAN, stale: true, stale_reasons: ['Work order 12 opened after this plan.'] },
      visits: [visit(5, '2026-11-27T09:10:00Z', '2026-11-27T09:40:00Z', false)],
      detail: '1 visit, the first at 09:10 UTC in rack p3-rack1.',
    });
    renderPage();
    const stale = await screen.findByTestId('today-stale');
    expect(stale).toHaveTextContent('out of date');
    expect(stale).toHaveTextContent('Work order 12 opened after this plan.');
  });

  it('sends a technician no plan names to the ticket queue (issue #20: technicians land on their queue)', async () => {
    const detail = 'No maintenance plan names you yet: an operator plans the day on Work orders > Plan.';
    stubServer({ user: 'technician', plan: null, visits: [], detail });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeInTheDocument();
    expect(screen.queryByTestId('today-empty')).toBeNull();
  });
});
