/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { TodayAnswer, TodayVisit } from '../api/types';
import { testWorkOrder } from '../testWorkOrder';
import { WorkOrderActions } from './WorkOrderActions';

function withClient(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>
  );
}

/** The network boundary: every POST answers `status`/`body` and is recorded; GETs answer an empty page. */
function stubServer(status: number, body: unknown) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const answer = method === 'GET' ? { count: 0, next: null, previous: null, results: [] } : body;
      if (method !== 'GET') calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(answer), {
        status: method === 'GET' ? 200 : status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

const STARTED = testWorkOrder({
  state: 'in_progress',
  started_at: '2026-11-27T02:30:00Z',
  started_by: 'technician',
  restored_links: [{ id: 40, name: 'p1-tor3:eth2/1 - p1-fab0:eth1/4' }],
});

beforeEach(() => {
  document.cookie = 'csrftoken=test-token';
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WorkOrderActions', () => {
  it('offers Start on an open order and no Finish', () => {
    render(withClient(<WorkOrderActions order={testWorkOrder()} canOverride={false} />));
    expect(screen.getByRole('button', { name: 'Start work' })).toBeEnabled();
    expect(screen.queryByRole('form', { name: 'Finish the work order' })).toBeNull();
  });

  it('finishes an order in progress with its outcome and notes, and shows what became of the links', async () => {
    const calls = stubServer(200, {
      ...testWorkOrder({ state: 'done', outcome: 'repaired', finished_at: '2026-11-27T04:00:00Z' }),
      detail: 'Repaired: the tickets are watched for clean polls; the footprint is back and link 40 is disabled again.',
    });
    render(withClient(<WorkOrderActions order={STARTED} canOverride={false} />));
    expect(screen.getByTestId('started-note')).toHaveTextContent(
      'Started 2026-11-27 02:30 UTC by technician: the footprint is out of service, and 1 link is restored for the repair.',
    );
    expect(screen.queryByRole('button', { name: 'Start work' })).toBeNull();
    const form = screen.getByRole('form', { name: 'Finish the work order' });
    expect(within(form).getByRole('button', { name: 'Finish' })).toBeDisabled();
    fireEvent.click(within(form).getByRole('radio', { name: 'Repaired' }));
    fireEvent.change(within(form).getByLabelText(/Notes/), { target: { value: 'new MPO breakout cable' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(screen.getByTestId('finish-message')).toHaveTextContent('link 40 is disabled again'));
    expect(calls).toEqual([
      { url: '/api/work-orders/3/finish/', body: { outcome: 'repaired', notes: 'new MPO breakout cable' } },
    ]);
  });

  it('lists the server’s problems with a finish', async () => {
    stubServer(409, { detail: 'work order 3 is open' });
    render(withClient(<WorkOrderActions order={STARTED} canOverride={false} />));
    const form = screen.getByRole('form', { name: 'Finish the work order' });
    fireEvent.click(within(form).getByRole('radio', { name: 'Not repaired' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Finish' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not finish the work order.');
    expect(alert).toHaveTextContent('work order 3 is open');
  });

  it('says when a done order was finished and how', () => {
    render(
      withClient(
        <WorkOrderActions
          order={testWorkOrder({ state: 'done', outcome: 'not_repaired', finished_at: '2026-11-27T04:00:00Z' })}
          canOverride={false}
        />,
      ),
    );
    expect(screen.getByTestId('ended-note')).toHaveTextContent('Finished 2026-11-27 04:00 UTC: not repaired.');
  });

  describe('after a finish', () => {
    const FINISHED = {
      ...testWorkOrder({ state: 'done', outcome: 'repaired', finished_at: '2026-11-27T04:00:00Z' }),
      detail: 'Repaired: the tickets are watched for clean polls.',
    };

    function todayVisit(id: number, done: boolean, start = '2026-11-27T09:10:00Z'): TodayVisit {
      return {
        work_order: testWorkOrder({ id, state: done ? 'done' : 'open', component_name: `p0-tor${id}` }),
        planned: true,
        start_at: start,
        end_at: '2026-11-27T09:40:00Z',
        start_s: 0,
        end_s: 1800,
        links_down: [],
        restored: [],
        done,
      };
    }

    /** The network boundary: the finish answers FINISHED; the user's day answers `visits`. */
    function stubDay(visits: TodayVisit[]) {
      const gets: string[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init: RequestInit = {}) => {
          const json = (body: unknown) =>
            new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
          if ((init.method ?? 'GET') !== 'GET') return json(FINISHED);
          gets.push(new URL(url, 'http://test').pathname);
          if (url.startsWith('/api/work-orders/today/')) {
            const day: TodayAnswer = { user: 'technician', plan: null, visits, detail: '' };
            return json(day);
          }
          return json({ count: 0, next: null, previous: null, results: [] });
        }),
      );
      return gets;
    }

    function finish(hasToday: boolean) {
      render(withClient(<WorkOrderActions order={STARTED} canOverride={false} hasToday={hasToday} />));
      const form = screen.getByRole('form', { name: 'Finish the work order' });
      fireEvent.click(within(form).getByRole('radio', { name: 'Repaired' }));
      fireEvent.click(within(form).getByRole('button', { name: 'Finish' }));
    }

    it('offers the next visit of the day (skipping the done ones and this one) and Back to Today', async () => {
      stubDay([todayVisit(2, true), todayVisit(3, false), todayVisit(5, false), todayVisit(6, false)]);
      finish(true);
      const next = await screen.findByRole('link', { name: /Next visit/ });
      expect(next).toHaveAttribute('href', '/work-orders/5');
      expect(next).toHaveTextContent(
        'Next visit: work order #5, Replace the shared component (breakout cable, line card or switch): p0-tor5 ' +
          '(2026-11-27 09:10–09:40 UTC)',
      );
      expect(screen.getByRole('link', { name: 'Back to Today' })).toHaveAttribute('href', '/today');
    });

    it('offers Back to Today alone when the day has nothing left', async () => {
      stubDay([todayVisit(3, true)]);
      finish(true);
      expect(await screen.findByRole('link', { name: 'Back to Today' })).toHaveAttribute('href', '/today');
      await waitFor(() => expect(screen.getByTestId('after-finish')).toHaveAttribute('data-day-loaded', 'true'));
      expect(screen.queryByRole('link', { name: /Next visit/ })).toBeNull();
    });

    it('offers neither to a role without a day, and does not ask for one', async () => {
      const gets = stubDay([todayVisit(5, false)]);
      finish(false);
      await screen.findByTestId('finish-message');
      expect(screen.queryByRole('link', { name: 'Back to Today' })).toBeNull();
      expect(screen.queryByRole('link', { name: /Next visit/ })).toBeNull();
      expect(gets).not.toContain('/api/work-orders/today/');
    });
  });
});
