/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { FabricAtRiskCount } from './FabricAtRiskCount';

/** The network boundary: GET /api/link-forecasts/ counts `count` rows; the queries are kept. */
function stubCount(count: number) {
  const queries: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://test');
      queries.push(url.searchParams);
      const body = { count, next: null, previous: null, results: [] };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return queries;
}

function renderCount() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <FabricAtRiskCount fabricId={3} horizonDays={7} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FabricAtRiskCount', () => {
  it('counts the fabric’s links at risk and leads to them', async () => {
    const queries = stubCount(3);
    renderCount();
    const link = await screen.findByRole('link', { name: '3 links at risk within 7 days' });
    expect(link).toHaveAttribute('href', '/at-risk?fabric=3');
    expect(queries[0]?.get('fabric')).toBe('3');
    expect(queries[0]?.get('at_risk')).toBe('true');
  });

  it('says when no link is at risk', async () => {
    stubCount(0);
    renderCount();
    expect(await screen.findByRole('link', { name: 'No link at risk within 7 days' })).toBeVisible();
  });
});
