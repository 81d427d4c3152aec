/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { OptimizerRunResult } from '../api/types';
import { OptimizerRunPage } from './OptimizerRunPage';

const RESULT: OptimizerRunResult = {
  fabric: 1,
  candidates: 3,
  disabled: [
    {
      decision: 91,
      link: 40,
      link_name: 'p0-tor1:eth2/1 ↔ p0-fab1:eth1/2',
      penalty: 2e-4,
      blocking_tor: null,
      blocking_tor_name: null,
    },
  ],
  kept: [
    {
      decision: 92,
      link: 57,
      link_name: 'p1-tor5:eth2/3 ↔ p1-fab2:eth1/6',
      penalty: 1e-4,
      blocking_tor: 21,
      blocking_tor_name: 'p1-tor5',
    },
  ],
  still_kept: 1,
  penalty_before: 3.5e-4,
  remaining_penalty: 1.5e-4,
  remaining_penalty_lower_bound: 1e-4,
  proven_optimal: false,
  time_budget_s: 30,
  worst_tor: { switch: 21, name: 'p1-tor5', fraction: 0.6875 },
  tors_below_threshold: ['p1-tor5'],
  engine_ms: 12.4,
  reasons: ['run by operator from the UI'],
};

/** A link kept by an earlier decision that this run left as it was. */
const KEPT_NOW = {
  id: 80,
  url: '/api/decisions/80/',
  fabric: 1,
  link: 101,
  link_name: 'p3-tor1:eth2/1 - p3-fab0:eth1/2',
  event: 6,
  kind: 'fast_checker',
  action: 'kept',
  loss_rate_a_to_z: 0,
  loss_rate_z_to_a: 4.3e-5,
  penalty: 4.3e-5,
  affected: [],
  blocking_tor: 38,
  blocking_tor_name: 'p3-tor1',
  blocking_tor_fraction: 0.75,
  blocking_tor_constraint: 0.75,
  engine_ms: 20,
  job: null,
  created: '2026-11-26T17:12:01Z',
};

function serve(job: Record<string, unknown>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body = url.startsWith('/api/decisions/')
        ? { count: 2, next: null, previous: null, results: [KEPT_NOW, { ...KEPT_NOW, id: 92, link: 57 }] }
        : url === '/api/jobs/7/'
          ? job
          : { id: 1, url: '/api/fabrics/1/', name: 'demo-fb', tiers: ['tor', 'fabric', 'spine'] };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function job(overrides: Record<string, unknown>) {
  return {
    id: 7,
    url: '/api/jobs/7/',
    kind: 'corruption.optimize',
    state: 'succeeded',
    progress: 1,
    message: 'done',
    params: { reasons: ['run by operator from the UI'] },
    result: RESULT,
    error: '',
    fabric: 1,
    created_by: 'operator',
    created: '2026-11-22T23:00:00Z',
    started: '2026-11-22T23:00:01Z',
    finished: '2026-11-22T23:00:02Z',
    ...overrides,
  };
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/optimizer/:jobId', element: <OptimizerRunPage /> }], {
    initialEntries: ['/optimizer/7'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Optimizer run page', () => {
  it('lists what the run did: links disabled, links kept with their blocking ToR, penalties and the gap', async () => {
    serve(job({}));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Optimizer run #7 on demo-fb' })).toBeInTheDocument();
    expect(screen.getByTestId('optimizer-reasons')).toHaveTextContent('run by operator from the UI');
    expect(screen.getByTestId('optimizer-candidates')).toHaveTextContent('3');
    expect(screen.getByTestId('optimizer-penalty-before')).toHaveTextContent('3.5 × 10⁻⁴');
    expect(screen.getByTestId('optimizer-penalty-after')).toHaveTextContent('1.5 × 10⁻⁴');
    expect(screen.getByTestId('optimizer-optimality')).toHaveTextContent(
      'Not proven optimal within its 30 s time budget: gap 5.0 × 10⁻⁵ (remaining 1.5 × 10⁻⁴ − lower bound 1.0 × 10⁻⁴).',
    );
    const disabled = screen.getByTestId('optimizer-disabled');
    expect(within(disabled).getByRole('link', { name: 'p0-tor1:eth2/1 ↔ p0-fab1:eth1/2' })).toHaveAttribute(
      'href',
      '/links/40',
    );
    const kept = screen.getByTestId('optimizer-kept');
    expect(within(kept).getByRole('row', { name: /p1-tor5:eth2\/3/ })).toHaveTextContent('1.0 × 10⁻⁴p1-tor5');
    expect(screen.getByTestId('optimizer-still-kept')).toHaveTextContent('1 more link stays kept for the same ToR');
    // The link kept from before is listed with its blocking ToR; the run's own kept link is not repeated.
    const keptNow = await screen.findAllByTestId('optimizer-kept-now-row');
    expect(keptNow).toHaveLength(1);
    expect(keptNow[0]).toHaveTextContent('p3-tor1:eth2/1 - p3-fab0:eth1/2');
    expect(keptNow[0]).toHaveTextContent('p3-tor1 (constraint now 0.75)');
    expect(keptNow[0]).toHaveTextContent('fast checker');
    expect(screen.getByTestId('optimizer-tors-below')).toHaveTextContent('p1-tor5');
  });

  it('shows a run still going as a progress bar with why it was queued', async () => {
    serve(
      job({ state: 'running', progress: 0.3, message: 'optimizing 3 corrupting links', result: null, finished: null }),
    );
    renderPage();
    expect(await screen.findByRole('progressbar', { name: 'Optimizer run progress' })).toHaveAttribute(
      'aria-valuenow',
      '30',
    );
    expect(screen.getByTestId('optimizer-reasons')).toHaveTextContent('run by operator from the UI');
    expect(screen.queryByTestId('optimizer-facts')).toBeNull();
  });
});
