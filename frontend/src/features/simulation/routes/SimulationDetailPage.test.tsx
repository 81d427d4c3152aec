/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SimulationDetailPage } from './SimulationDetailPage';

function serveJob(id: number, kind: string, result: unknown) {
  const body = {
    id,
    url: `/api/jobs/${id}/`,
    kind,
    state: 'succeeded',
    progress: 1,
    message: 'done',
    result,
    error: '',
    fabric: 1,
    created_by: 'planner',
    created: '2026-11-22T23:00:00Z',
    started: '2026-11-22T23:00:01Z',
    finished: '2026-11-22T23:00:02Z',
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      expect(url).toBe(`/api/jobs/${id}/`);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Simulation page', () => {
  it('given a job of another kind, says what it is instead of rendering its result as a simulation', async () => {
    // A circuit schedule's result: nothing like a simulation's settings and runs.
    serveJob(2, 'circuits.schedule', { slots: [], metrics: {} });
    const router = createMemoryRouter([{ path: '/simulations/:jobId', element: <SimulationDetailPage /> }], {
      initialEntries: ['/simulations/2'],
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the simulation.Job 2 is a circuits.schedule job, not corruption.simulate.',
    );
    expect(screen.getByRole('heading', { name: 'Simulation #2' })).toBeInTheDocument();
  });
});
