/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { MetricsHistoryBucket, TicketMetricsHistory } from '@/features/tickets';

import { RepairHistory } from './RepairHistory';

function bucket(start: string, end: string, fields: Partial<MetricsHistoryBucket> = {}): MetricsHistoryBucket {
  const none = { attempts: 0, fixed: 0, rate: null };
  return {
    start,
    end,
    tickets_opened: 0,
    tickets_resolved: 0,
    open_tickets: 0,
    first_attempt: { all: none, followed: none, not_followed: none },
    mean_time_to_repair_hours: null,
    repaired_tickets: 0,
    links_disabled: 0,
    repair_actions: 0,
    preventive_first_attempt: none,
    ...fields,
  };
}

function answer(kind: 'day' | 'week'): TicketMetricsHistory {
  const fixed = { attempts: 1, fixed: 1, rate: 1 };
  const buckets = [
    bucket('2026-11-02T00:00:00+00:00', '2026-11-03T00:00:00+00:00', {
      tickets_opened: 2,
      open_tickets: 1,
      first_attempt: { all: fixed, followed: fixed, not_followed: { attempts: 0, fixed: 0, rate: null } },
    }),
    bucket('2026-11-03T00:00:00+00:00', '2026-11-04T00:00:00+00:00', { tickets_resolved: 1 }),
  ];
  return { fabric: 1, bucket: kind, from: buckets[0]!.start, to: buckets[1]!.end, buckets };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RepairHistory', () => {
  it('charts success rates and tickets with axes and legends, and asks again per week', async () => {
    const urls: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const parsed = new URL(url, 'http://test');
        urls.push(parsed);
        const body = answer(parsed.searchParams.get('bucket') === 'week' ? 'week' : 'day');
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <RepairHistory fabricId={7} />
      </QueryClientProvider>,
    );

    const rates = await screen.findByTestId('repair-history-rates');
    expect(within(rates).getByText('First-attempt success (%)')).toBeInTheDocument();
    expect(within(rates).getByText('Date (UTC, per day)')).toBeInTheDocument();
    const rateLegend = screen.getByRole('list', { name: 'First-attempt success rate over time legend' });
    expect(
      within(rateLegend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['All first attempts', 'Recommendation followed', 'Not followed']);
    const tickets = screen.getByTestId('repair-history-tickets');
    expect(within(tickets).getByText('Tickets')).toBeInTheDocument();
    expect(within(tickets).getAllByTestId('repair-history-tickets-line')).toHaveLength(3);
    expect(urls[0]!.pathname).toBe('/api/tickets/metrics/history/');
    expect(urls[0]!.searchParams.get('fabric')).toBe('7');
    expect(urls[0]!.searchParams.get('bucket')).toBe('day');

    fireEvent.change(screen.getByLabelText('Per'), { target: { value: 'week' } });
    expect(await screen.findAllByText('Date (UTC, per ISO week)')).toHaveLength(2);
    expect(urls.at(-1)!.searchParams.get('bucket')).toBe('week');
  });

  it("reads the Tickets chart's values on hover or with the arrow keys, per day then per week", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const body = answer(new URL(url, 'http://test').searchParams.get('bucket') === 'week' ? 'week' : 'day');
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <RepairHistory fabricId={7} />
      </QueryClientProvider>,
    );

    const chart = await screen.findByTestId('repair-history-tickets');
    const readout = screen.getByTestId('repair-history-tickets-readout');
    expect(readout).toHaveTextContent('Point at the chart, or focus it and use ← →, to read its values.');
    fireEvent.keyDown(chart, { key: 'ArrowRight' });
    expect(readout).toHaveTextContent('2026-11-02');
    expect(readout).toHaveTextContent('Opened: 2 tickets');
    expect(readout).toHaveTextContent('Resolved: 0 tickets');
    expect(readout).toHaveTextContent('Unresolved at the end: 1 ticket');
    expect(screen.getByTestId('repair-history-tickets-readout-line')).toBeInTheDocument();
    fireEvent.keyDown(chart, { key: 'ArrowRight' });
    expect(readout).toHaveTextContent('2026-11-03');
    expect(readout).toHaveTextContent('Resolved: 1 ticket');
    fireEvent.keyDown(chart, { key: 'Escape' });
    expect(readout).toHaveTextContent('Point at the chart');
    expect(screen.queryByTestId('repair-history-tickets-readout-line')).toBeNull();

    fireEvent.change(screen.getByLabelText('Per'), { target: { value: 'week' } });
    await screen.findAllByText('Date (UTC, per ISO week)');
    fireEvent.keyDown(screen.getByTestId('repair-history-tickets'), { key: 'ArrowRight' });
    expect(screen.getByTestId('repair-history-tickets-readout')).toHaveTextContent('Week of 2026-11-02');
  });
});
