/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { TodayVisit } from '../api/types';
import { testLinkFacts, testWorkOrder } from '../testWorkOrder';
import { TodayVisitCard } from './TodayVisitCard';

const VISIT: TodayVisit = {
  work_order: testWorkOrder({ footprint: [101, 102], footprint_size: 2 }),
  planned: true,
  start_at: '2026-11-27T08:00:00Z',
  end_at: '2026-11-27T09:00:00Z',
  start_s: 0,
  end_s: 3600,
  links_down: [],
  restored: [],
  done: false,
};

/** The network boundary: the footprint's links, their transceivers and their switches. */
function stubServer() {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://test').pathname;
      paths.push(path);
      const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });
      const link = /^\/api\/links\/(\d+)\/$/.exec(path);
      const body = link
        ? testLinkFacts(Number(link[1]))
        : path === '/api/transceivers/'
          ? page(
              [101, 102].map((id) => ({
                id,
                url: '',
                link: id,
                side: 'a',
                model: 1,
                model_name: '100G-SR4',
                serial: '',
                installed_at: null,
                last_reseated_at: null,
              })),
            )
          : path === '/api/switches/'
            ? page([
                { id: 38, name: 'p3-tor1', tier: 0, rack: 'p3-rack1' },
                { id: 45, name: 'p3-fab0', tier: 1, rack: 'fab-rack-0' },
                { id: 46, name: 'p3-fab1', tier: 1, rack: 'fab-rack-1' },
              ])
            : null;
      if (body === null) return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return paths;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TodayVisitCard', () => {
  it('says "What to bring" alone until the facts are in, then names the things, not the number of links', async () => {
    const paths = stubServer();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { container } = render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ul>
            <TodayVisitCard visit={VISIT} index={0} />
          </ul>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const summary = container.querySelector('summary')!;
    expect(summary.textContent).toBe('What to bring');
    expect(paths).toEqual([]);
    const details = container.querySelector('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    await waitFor(() =>
      expect(summary.textContent).toBe('What to bring: 2 transceivers 100G-SR4, 1 breakout cable 4.7 m MMF'),
    );
    expect(screen.getAllByTestId('bring-link')).toHaveLength(2);
  });
});
