/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ClassesDetailPage } from './ClassesDetailPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Reliability classes page', () => {
  it('given a job of another kind, says what it is instead of rendering its result as classes', async () => {
    // A RAIL plan's job: its result has no classes to draw.
    const job = {
      id: 7,
      url: '/api/jobs/7/',
      kind: 'rail.plan',
      state: 'succeeded',
      progress: 1,
      message: 'done',
      result: { savings: 0.02 },
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
        expect(url).toBe('/api/jobs/7/');
        return new Response(JSON.stringify(job), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const router = createMemoryRouter([{ path: '/planning/classes/:jobId', element: <ClassesDetailPage /> }], {
      initialEntries: ['/planning/classes/7'],
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the classes.Job 7 is a rail.plan job, not rail.classes.',
    );
    expect(screen.getByRole('heading', { name: 'Reliability classes #7' })).toBeInTheDocument();
  });
});
