/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { LinkWorkOrders } from './LinkWorkOrders';

function renderFor(linkId: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <LinkWorkOrders linkId={linkId} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The server's work order list, as GET /api/work-orders/ answers it; records the URLs asked. */
function serve(results: object[]): string[] {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(String(url));
      return new Response(JSON.stringify({ count: results.length, next: null, previous: null, results }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LinkWorkOrders', () => {
  it('names the open or in-progress work order taking the link down, with its repair and a link to it', async () => {
    const asked = serve([
      {
        id: 7,
        state: 'in_progress',
        action: 'replace_cable',
        component_name: 'breakout cable p1-tor5:eth2',
        tickets: [3],
      },
    ]);
    renderFor(42);
    const order = await screen.findByTestId('link-work-order');
    expect(within(order).getByRole('link', { name: 'Work order #7' })).toHaveAttribute('href', '/work-orders/7');
    expect(order).toHaveTextContent('Replace the cable, breakout cable p1-tor5:eth2');
    expect(within(order).getByTestId('link-work-order-state')).toHaveTextContent('(in progress)');
    // Asked by the link, current orders only (an ended order takes nothing down).
    const query = new URL(asked[0] ?? '', 'http://ui').searchParams;
    expect(asked[0]).toMatch(/^\/api\/work-orders\/\?/);
    expect(query.getAll('link')).toEqual(['42']);
    expect(query.getAll('state')).toEqual(['open', 'in_progress']);
  });

  it('says none is open when no current order takes the link down', async () => {
    serve([]);
    renderFor(42);
    expect(await screen.findByText('none open')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
