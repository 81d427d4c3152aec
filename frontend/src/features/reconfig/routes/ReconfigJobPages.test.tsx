/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { LarryResult, ShareBackupPlan, ShareBackupResult } from '../api/types';
import { RUN_RESULT } from '../fixtures/larry';
import { EVENTS, PLAN } from '../fixtures/sharebackupPlan';
import { LarryJobPage } from './LarryJobPage';
import { ShareBackupJobPage } from './ShareBackupJobPage';

function job(id: number, kind: string, result: unknown) {
  return {
    id,
    url: `/api/jobs/${id}/`,
    kind,
    state: 'succeeded',
    progress: 1,
    message: 'done',
    result,
    error: '',
    fabric: null,
    created_by: 'planner',
    created: '2026-11-22T23:00:00Z',
    started: '2026-11-22T23:00:01Z',
    finished: '2026-11-22T23:00:02Z',
  };
}

function serve(path: string, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      expect(url).toBe(path);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function renderAt(path: string, route: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// The page reads the engine's plan, its inputs and verdict (it derives groups and matchings itself).
const PLAN_RESULT: ShareBackupPlan & Pick<ShareBackupResult, 'inputs' | 'verdict'> = {
  ...PLAN,
  inputs: { k: 4, pods: 2, backups: 1, reconfig_ms: 0.5, events: { source: 'inline', count: EVENTS.length } },
  verdict: { sound: true, violations: 0, checked_events: EVENTS.length },
};

describe('ShareBackup plan page', () => {
  it('shows the groups, and for a clicked event its replace() calls and matchings before and after', async () => {
    serve('/api/jobs/7/', job(7, 'sharebackup.plan', PLAN_RESULT));
    renderAt('/sharebackup/7', '/sharebackup/:jobId', <ShareBackupJobPage />);

    expect(await screen.findByTestId('plan-verdict')).toHaveTextContent(/^sound/);
    expect(screen.getByTestId('plan-facts')).toHaveTextContent(
      '12 active switches, 6 backups in 6 failure groups, 8 hosts',
    );
    const timeline = screen.getAllByTestId('timeline-event');
    expect(timeline).toHaveLength(7);
    // The first event is selected: a spare goes down, nothing to replace.
    expect(screen.getByTestId('replace-calls-none')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('timeline-start'));
    expect(screen.queryByTestId('event-detail')).toBeNull();
    expect(screen.getAllByTestId('group-member').filter((box) => box.dataset.state === 'spare')).toHaveLength(6);

    fireEvent.click(timeline[1]!);
    expect(timeline[1]).toHaveAttribute('aria-pressed', 'true');
    const edgeP1 = screen.getAllByTestId('failure-group').find((cell) => cell.dataset.group === 'edge.p1')!;
    expect(edgeP1).toHaveAttribute('data-degraded', 'true');
    expect(within(edgeP1).getByText('DEGRADED')).toBeInTheDocument();
    expect(screen.getByTestId('fallback-table')).toHaveTextContent('edge.p1.s0');

    fireEvent.click(timeline[4]!); // link agg.p0.m0 – core.c0.m0 goes down
    expect(screen.getAllByTestId('replace-call')).toHaveLength(6);
    expect(screen.getAllByTestId('replace-call')[0]).toHaveTextContent(
      'replace(ea.p0.j0, high port 0 → 2): agg.p0.m2 takes over from agg.p0.m0',
    );
    const matchings = screen.getAllByTestId('matching');
    expect(matchings.map((section) => section.dataset.circuitSwitch)).toEqual([
      'ea.p0.j0',
      'ea.p0.j1',
      'ac.p0.c0',
      'ac.p0.c1',
      'ac.p1.c0',
    ]);
    const ac = matchings[2]!;
    const removed = within(within(ac).getByTestId('matching-before')).getAllByTestId('circuit');
    expect(removed.filter((line) => line.dataset.mark === 'removed')).toHaveLength(1);
    const added = within(within(ac).getByTestId('matching-after')).getAllByTestId('circuit');
    expect(added.filter((line) => line.dataset.mark === 'added')).toHaveLength(1);
    const member = screen.getAllByTestId('group-member').find((box) => box.dataset.member === 'agg.p0.m0')!;
    expect(member).toHaveAttribute('data-state', 'suspect');
  });
});

describe('Larry run page', () => {
  it('draws uplink bars per rack, lists the baselines and the circuits that moved at the chosen step', async () => {
    serve('/api/jobs/9/', job(9, 'larry.run', RUN_RESULT satisfies LarryResult));
    renderAt('/larry/9', '/larry/:jobId', <LarryJobPage />);

    const chart = await screen.findByTestId('uplink-chart');
    expect(within(chart).getAllByTestId('uplink-row')).toHaveLength(4);
    expect(within(chart).getAllByTestId('uplink-bar')).toHaveLength(4 * 6);
    expect(screen.getAllByTestId('metrics-row').map((row) => row.dataset.policy)).toEqual([
      'conservative',
      'one_big_switch',
      'proportional',
      'static',
    ]);
    // Numbers read at a glance: separators and a unit prefix, never "3.60e+3" or "2.500e+2".
    const rows: Record<string, HTMLElement> = Object.fromEntries(
      screen.getAllByTestId('metrics-row').map((row) => [row.dataset.policy, row]),
    );
    expect(
      within(rows.proportional!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['3', '3,600', '67%', '75%', '0 Gbit']);
    expect(rows.static).toHaveTextContent('250 Gbit');
    for (const row of Object.values(rows)) expect(row.textContent).not.toMatch(/e\+\d/);

    // The page opens at the first step that moved circuits.
    expect(screen.getAllByTestId('moved-circuit')[0]).toHaveTextContent(
      'CS 1 uplink 0: rack 1 (cable port 1) → rack 0 (cable port 0)',
    );
    fireEvent.change(screen.getByLabelText('Step'), { target: { value: '2' } });
    expect(screen.getByTestId('no-moves')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next move →' }));
    expect(screen.getByTestId('step-detail')).toHaveTextContent('Step 3 at 2 s');
    expect(screen.getAllByTestId('moved-circuit')).toHaveLength(3);
    expect(screen.getAllByTestId('moved-circuit')[0]).toHaveTextContent(
      'rack 0 (cable port 0) → rack 2 (cable port 2)',
    );
  });
});

describe('a job page given a job of another kind', () => {
  it('says what the job is instead of rendering its result as a run', async () => {
    serve('/api/jobs/12/', job(12, 'sharebackup.plan', PLAN_RESULT));
    renderAt('/larry/12', '/larry/:jobId', <LarryJobPage />);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the run.Job 12 is a sharebackup.plan job, not larry.run.',
    );
    expect(screen.getByRole('heading', { name: 'Uplink run #12' })).toBeInTheDocument();
    expect(screen.queryByTestId('run-facts')).toBeNull();
  });

  it('says what the job is instead of rendering its result as a failover plan', async () => {
    serve('/api/jobs/13/', job(13, 'larry.run', RUN_RESULT));
    renderAt('/sharebackup/13', '/sharebackup/:jobId', <ShareBackupJobPage />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Job 13 is a larry.run job, not sharebackup.plan.');
    expect(screen.queryByTestId('plan-facts')).toBeNull();
  });
});
