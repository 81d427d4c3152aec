/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { JobRow } from '../api/types';
import type { JobLogEntry } from '../api/useJobLog';
import { JobsTable } from './JobsTable';

const baseJob: JobRow = {
  id: 1,
  url: '/api/jobs/1/',
  kind: 'fabric.capacity_report',
  kind_title: 'Fabric capacity report',
  state: 'running',
  progress: 0.4,
  message: 'Counting paths',
  error: '',
  fabric: 7,
  created_by: 'planner',
  created: '2025-01-01T10:00:00Z',
  started: '2025-01-01T10:00:01Z',
  finished: null,
  cancel_requested: false,
  attempts: 1,
  worker: 'worker-1:4242',
  heartbeat_at: '2025-01-01T10:00:30Z',
};

const jobs: JobRow[] = [
  baseJob,
  { ...baseJob, id: 2, state: 'succeeded', progress: 1, message: 'done', finished: '2025-01-01T10:01:00Z' },
  { ...baseJob, id: 3, state: 'failed', progress: 0.25, error: 'fabric vanished' },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('JobsTable', () => {
  it('shows a progress bar per job and the error of failed ones', () => {
    render(
      <JobsTable
        jobs={jobs}
        fabricNames={new Map([[7, 'demo-fb']])}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
      { wrapper: MemoryRouter },
    );
    expect(screen.getAllByTestId('job-progress').map((bar) => bar.getAttribute('aria-valuenow'))).toEqual([
      '40',
      '100',
      '25',
    ]);
    expect(screen.getByText('fabric vanished')).toBeInTheDocument();
    expect(screen.getAllByText('demo-fb')).toHaveLength(3);
  });

  it('offers Cancel only where the user may cancel and only for active jobs', () => {
    const { rerender } = render(
      <JobsTable
        jobs={jobs}
        fabricNames={new Map()}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
      { wrapper: MemoryRouter },
    );
    expect(screen.queryByRole('button', { name: /Cancel job/ })).toBeNull();
    rerender(
      <JobsTable
        jobs={jobs}
        fabricNames={new Map()}
        canCancel={() => true}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
    );
    expect(
      screen.getAllByRole('button', { name: /Cancel job/ }).map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Cancel job 1']);
  });

  it("links each job to the page that shows its kind's result", () => {
    const kinds: JobRow[] = [
      { ...baseJob, id: 4, kind: 'corruption.simulate' },
      { ...baseJob, id: 5, kind: 'rail.plan' },
      { ...baseJob, id: 6, kind: 'rail.classes' },
      { ...baseJob, id: 7, kind: 'circuits.schedule' },
      { ...baseJob, id: 8, kind: 'sharebackup.plan' },
      { ...baseJob, id: 9, kind: 'larry.run' },
      { ...baseJob, id: 10, kind: 'fabric.import', fabric: 7 },
      { ...baseJob, id: 11, kind: 'fabric.capacity_report', fabric: null },
    ];
    render(
      <JobsTable
        jobs={kinds}
        fabricNames={new Map()}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
      { wrapper: MemoryRouter },
    );
    expect(screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['#4', '/simulations/4'],
      ['#5', '/planning/plans/5'],
      ['#6', '/planning/classes/6'],
      ['#7', '/circuits/schedules/7'],
      ['#8', '/sharebackup/8'],
      ['#9', '/larry/9'],
      // An import has no page of its own: its number leads to its fabric's, where its links show.
      ['#10', '/fabrics/7'],
    ]);
    // A job with neither a page nor a fabric: its number is plain text.
    expect(screen.getByRole('rowheader', { name: '#11' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '#11' })).toBeNull();
  });

  it("opens any job's log below its row, a kind without a page too", async () => {
    const lines: JobLogEntry[] = [
      { id: 21, created_at: '2026-11-27T00:00:00Z', level: 'info', message: 'started on worker w1:42 (attempt 1)' },
      { id: 22, created_at: '2026-11-27T00:00:03Z', level: 'error', message: 'failed: ImportError: rack r9 unknown' },
    ];
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        return new Response(JSON.stringify(lines), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    );
    render(
      <JobsTable
        jobs={[{ ...baseJob, id: 10, kind: 'fabric.import', state: 'failed', error: 'rack r9 unknown' }, jobs[1]!]}
        fabricNames={new Map()}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
      { wrapper },
    );
    const button = screen.getByRole('button', { name: 'Log of job 10' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Log of job 10' })).toBeNull();
    expect(asked).toEqual([]);

    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const region = screen.getByRole('region', { name: 'Log of job 10' });
    expect(button).toHaveAttribute('aria-controls', region.closest('tr')!.id);
    expect(await within(region).findByText('failed: ImportError: rack r9 unknown')).toBeInTheDocument();
    expect(within(region).getAllByText('2026-11-27 00:00 UTC')).toHaveLength(2);
    expect(asked).toEqual(['/api/jobs/10/log/?after=0']);
    // Only the job asked for: the other row's log stays closed and unread.
    expect(screen.getByRole('button', { name: 'Log of job 2' })).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Log of job 10' })).toBeNull();
  });

  it('keeps each time on one line, in a <time> element with its instant', () => {
    render(
      <JobsTable
        jobs={[jobs[1]!]}
        fabricNames={new Map()}
        canCancel={() => false}
        cancellingJobId={null}
        onCancel={() => {}}
      />,
      { wrapper: MemoryRouter },
    );
    const finished = screen.getByText('2025-01-01 10:01 UTC');
    expect(finished.tagName).toBe('TIME');
    expect(finished).toHaveAttribute('dateTime', '2025-01-01T10:01:00Z');
    expect(finished).toHaveClass('time');
  });
});
