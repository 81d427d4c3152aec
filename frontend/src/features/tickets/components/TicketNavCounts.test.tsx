/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { TicketNavCounts } from './TicketNavCounts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TicketNavCounts', () => {
  it('says in words what the two numbers count, on screen and not only in the tooltip', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        expect(url).toContain('/api/tickets/counts/');
        return new Response(JSON.stringify({ unresolved: 5, assigned_to_me: 0 }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <TicketNavCounts />
      </QueryClientProvider>,
    );
    const counts = await screen.findByTestId('nav-ticket-counts');
    expect(counts).toHaveTextContent(/^5 unresolved · 0 mine$/);
    expect(counts).toHaveAttribute('title', expect.stringContaining('0 assigned to you'));
  });
});
