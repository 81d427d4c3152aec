/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { LinkForecastRow } from '../api/types';
import { PAGE_SIZE } from '../atRisk';
import { atRiskRow, inDays } from '../testForecast';
import { AtRiskPage } from './AtRiskPage';

const VIEWER = { username: 'viewer', roles: ['viewer'], is_admin: false };
const FABRIC = { id: 3, name: 'demo-fb', forecast_horizon_days: 7 };

/** The network boundary: who is asking, the fabric, and the server's page of GET /api/link-forecasts/. */
function stubServer(total: number, page: readonly LinkForecastRow[]) {
  const requests: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://test');
      requests.push(url);
      const bodies: Record<string, unknown> = {
        '/api/auth/me/': VIEWER,
        '/api/fabrics/': { count: 1, next: null, previous: null, results: [{ id: FABRIC.id, name: FABRIC.name }] },
        [`/api/fabrics/${FABRIC.id}/`]: FABRIC,
        '/api/link-forecasts/': { count: total, next: null, previous: null, results: page },
      };
      const body = bodies[url.pathname];
      if (body === undefined) return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

function renderPage(search: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/at-risk?${search}`]}>
        <Routes>
          <Route path="/at-risk" element={<AtRiskPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AtRiskPage', () => {
  it('reads a page of links at risk in one request, filtered, ordered and paged by the server', async () => {
    // Page 2 of 27: the server's two rows, in its order (the page does not sort them again).
    const later = atRiskRow('p0-tor4 p0-fab1', { crossing_at: inDays(6), cause: 'contamination' });
    const sooner = atRiskRow('p0-tor3 p0-fab1', { crossing_at: inDays(0.5), cause: 'contamination' });
    const requests = stubServer(PAGE_SIZE + 2, [later, sooner]);
    renderPage(`fabric=${FABRIC.id}&cause=contamination&horizon=3&page=2`);

    const rows = await screen.findAllByTestId('at-risk-row');
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'p0-tor4 eth1 ↔ p0-fab1 eth2',
      'p0-tor3 eth1 ↔ p0-fab1 eth2',
    ]);
    expect(screen.getByTestId('at-risk-count')).toHaveTextContent(
      `${PAGE_SIZE + 2} links are forecast to cross a limit within 3 days, soonest first.`,
    );
    expect(within(rows[0]!).getByTestId('at-risk-racks')).toHaveTextContent('A r01 Z r90');
    expect(within(rows[0]!).getByTestId('at-risk-action')).toHaveTextContent('Clean the connectors');
    expect(screen.getByRole('navigation', { name: 'Pages of links at risk' })).toBeInTheDocument();

    const lists = requests.filter((url) => url.pathname === '/api/link-forecasts/');
    expect(lists).toHaveLength(1);
    const params = lists[0]!.searchParams;
    expect(Object.fromEntries(params)).toEqual({
      fabric: String(FABRIC.id),
      at_risk: 'true',
      cause: 'contamination',
      crossing_within_days: '3',
      ordering: 'crossing_at',
      limit: String(PAGE_SIZE),
      offset: String(PAGE_SIZE),
    });
    // Nothing per row: no forecast, link or switch requests.
    expect(
      requests.filter((url) => url.pathname.startsWith('/api/links/') || url.pathname.startsWith('/api/switches/')),
    ).toEqual([]);
  });

  it('says no link is at risk when the server lists none', async () => {
    stubServer(0, []);
    renderPage(`fabric=${FABRIC.id}`);
    expect(await screen.findByTestId('at-risk-empty')).toHaveTextContent(
      'No link is forecast to cross its limit within 7 days.',
    );
  });
});
