/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { JobLogEntry } from '../api/useJobLog';
import { JobLog } from './JobLog';

const STARTED: JobLogEntry = {
  id: 11,
  created_at: '2026-11-26T16:22:05Z',
  level: 'info',
  message: 'started on worker w1:42 (attempt 1)',
};
const FAILED: JobLogEntry = {
  id: 14,
  created_at: '2026-11-26T16:23:59Z',
  level: 'error',
  message: 'failed: RuntimeError: boom',
};

/** The server's log endpoint: answers the entries after `after`, and records what was asked. */
function serve(entries: JobLogEntry[]) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      const after = Number(new URL(url, 'http://x').searchParams.get('after') ?? 0);
      const body = entries.filter((entry) => entry.id > after);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return asked;
}

/** One query client per test, kept across re-renders as the app's is. */
function makeWrapper(staleTime = 0) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime } } });
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('JobLog', () => {
  it('shows each line with its UTC time, level and message', async () => {
    serve([STARTED, FAILED]);
    render(<JobLog jobId={7} active={false} defaultOpen testId="plan" />, { wrapper: makeWrapper() });
    const log = await screen.findByTestId('plan-log');
    await waitFor(() => expect(within(log).getAllByRole('row')).toHaveLength(3));
    const rows = within(log).getAllByRole('row');
    const [first, last] = [rows[1]!, rows[2]!];
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2026-11-26 16:22 UTC', 'info', 'started on worker w1:42 (attempt 1)']);
    expect(last).toHaveAttribute('data-level', 'error');
    expect(within(log).getByText('Log (2 lines)')).toBeInTheDocument();
  });

  it('asks only for the lines after the last one it holds, and reads once more when the job ends', async () => {
    const entries = [STARTED];
    const asked = serve(entries);
    const { rerender } = render(<JobLog jobId={7} active defaultOpen testId="plan" />, { wrapper: makeWrapper() });
    await screen.findByText('started on worker w1:42 (attempt 1)');
    expect(asked[0]).toBe('/api/jobs/7/log/?after=0');
    entries.push(FAILED);
    rerender(<JobLog jobId={7} active={false} defaultOpen testId="plan" />);
    await screen.findByText('failed: RuntimeError: boom');
    expect(asked.at(-1)).toBe('/api/jobs/7/log/?after=11');
    expect(screen.getAllByText('started on worker w1:42 (attempt 1)')).toHaveLength(1);
  });

  it('shows how a job ended when its log, closed as the job succeeded, is opened again soon after', async () => {
    // The app's client keeps answers fresh for 5 s: the lines read while the job ran must not be
    // taken for the whole log once it has ended (the planning e2e met it on a loaded machine).
    const entries = [STARTED];
    serve(entries);
    const { rerender } = render(<JobLog jobId={7} active defaultOpen testId="plan" />, {
      wrapper: makeWrapper(5_000),
    });
    await screen.findByText('started on worker w1:42 (attempt 1)');
    entries.push({ id: 12, created_at: '2026-11-26T16:22:09Z', level: 'info', message: 'succeeded in 4.1 s' });
    rerender(<JobLog jobId={7} active={false} defaultOpen={false} testId="plan" />);
    const log = screen.getByTestId('plan-log');
    fireEvent.click(within(log).getByText(/^Log/));
    await screen.findByText('succeeded in 4.1 s');
  });

  it("reads a succeeded job's log only when the user opens it", async () => {
    const asked = serve([STARTED]);
    render(<JobLog jobId={7} active={false} defaultOpen={false} testId="plan" />, { wrapper: makeWrapper() });
    const log = screen.getByTestId('plan-log');
    expect(log).not.toHaveAttribute('open');
    expect(asked).toEqual([]);
    fireEvent.click(within(log).getByText('Log'));
    await screen.findByText('started on worker w1:42 (attempt 1)');
    expect(asked).toEqual(['/api/jobs/7/log/?after=0']);
  });

  it("closes with its line count when the job succeeds, as a succeeded job's log shows, unless the user chose", async () => {
    serve([STARTED]);
    const { rerender } = render(<JobLog jobId={7} active defaultOpen testId="plan" />, { wrapper: makeWrapper() });
    const log = screen.getByTestId('plan-log');
    await within(log).findByText('started on worker w1:42 (attempt 1)');
    expect(log).toHaveAttribute('open');
    rerender(<JobLog jobId={7} active={false} defaultOpen={false} testId="plan" />);
    await waitFor(() => expect(log).not.toHaveAttribute('open'));
    expect(within(log).getByText('Log (1 line)')).toBeInTheDocument();
    // Opened by the user, it stays open whatever the job does next.
    fireEvent.click(within(log).getByText('Log (1 line)'));
    await waitFor(() => expect(log).toHaveAttribute('open'));
    rerender(<JobLog jobId={7} active={false} defaultOpen={false} testId="plan" />);
    expect(log).toHaveAttribute('open');
  });
});
