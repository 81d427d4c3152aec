/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { ScheduleJob, ScheduleResult } from '../api/types';
import { PARALLEL_GLOBAL, REPLAY } from '../testSchedule';
import { ScheduleDetailPage } from './ScheduleDetailPage';

function job(result: ScheduleResult | null, state: ScheduleJob['state'] = 'succeeded'): ScheduleJob {
  return {
    id: 5,
    url: '/api/jobs/5/',
    kind: 'circuits.schedule',
    kind_title: 'Circuit schedule',
    state,
    progress: state === 'succeeded' ? 1 : 0.4,
    message: state === 'succeeded' ? 'done' : 'exact: planning 4 periods (run 1 of 3)',
    result,
    error: '',
    fabric: 1,
    created_by: 'planner',
    created: '2026-11-22T23:00:00Z',
    started: '2026-11-22T23:00:01Z',
    finished: state === 'succeeded' ? '2026-11-22T23:00:02Z' : null,
    cancel_requested: false,
    attempts: 1,
    worker: 'worker-1:4242',
    heartbeat_at: '2026-11-22T23:00:02Z',
  };
}

function renderPage(answer: ScheduleJob, matrixStatus = 200) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      if (url.startsWith('/api/demands/') && matrixStatus !== 200) {
        const body = JSON.stringify({ detail: 'No Demand matches the given query.' });
        return new Response(body, { status: matrixStatus, headers: { 'Content-Type': 'application/json' } });
      }
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/circuits/schedules/5']}>
        <Routes>
          <Route path="/circuits/schedules/:jobId" element={<ScheduleDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return urls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ScheduleDetailPage', () => {
  it('given a job of another kind, says what it is instead of rendering its result as a schedule', async () => {
    // A what-if simulation's job: its result has no slots or metrics.
    renderPage({ ...job(null), kind: 'corruption.simulate', result: { runs: [] } as unknown as ScheduleResult });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the schedule.Job 5 is a corruption.simulate job, not circuits.schedule.',
    );
    expect(screen.queryByTestId('demand-heatmap')).toBeNull();
  });

  it('shows a running job with its progress and no charts yet', async () => {
    renderPage(job(null, 'running'));
    const bar = await screen.findByTestId('schedule-progress');
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByTestId('schedule-status').textContent).toContain('exact: planning 4 periods');
    expect(screen.queryByTestId('demand-heatmap')).toBeNull();
  });

  it('draws the heat map with the slot outlined, follows the slider, and lists the timeline and comparison', async () => {
    const urls = renderPage(job(REPLAY));
    const heatMap = await screen.findByTestId('demand-heatmap');
    expect(urls).toEqual(['/api/jobs/5/']);
    expect(within(heatMap).getAllByTestId('heatmap-cell')).toHaveLength(6);
    // Slot 1: p0-tor0–p1-tor1, p0-tor1–p0-tor2, p0-tor3–p1-tor0, each outlined both ways.
    const pairs = () =>
      within(heatMap)
        .getAllByTestId('heatmap-outline')
        .map((o) => o.getAttribute('data-pair'));
    expect(pairs()).toHaveLength(6);
    expect(pairs()).toContain('p1-tor1→p0-tor0');
    expect(screen.getByTestId('slot-summary').textContent).toContain('3 circuits, 6 ports dark at the start');

    fireEvent.change(screen.getByRole('slider', { name: 'Slot' }), { target: { value: '2' } });
    expect(pairs()).toHaveLength(8);
    expect(pairs()).toContain('p0-tor3→p0-tor1');
    expect(heatMap.textContent).toContain('demand window 2 of 5');

    const timeline = screen.getByTestId('circuit-timeline');
    expect(
      within(timeline)
        .getAllByTestId('timeline-row')
        .map((row) => row.textContent),
    ).toEqual(REPLAY.racks.map((rack) => rack.name));
    expect(within(timeline).getAllByTestId('timeline-dark')).toHaveLength(
      REPLAY.slots.reduce((sum, slot) => sum + slot.changed_ports.length, 0),
    );

    const rows = screen.getAllByTestId('comparison-row');
    expect(rows.map((row) => row.getAttribute('data-algorithm'))).toEqual(['exact', 'greedy', 'round_robin']);
    expect(screen.getByTestId('metric-optical-ratio').textContent).toContain('18.0%');
    expect(screen.getByRole('link', { name: 'Circuits per slot (CSV)' }).getAttribute('href')).toBe(
      '/api/jobs/5/result/?format=csv&table=slots',
    );

    // The visit-delay histogram: a bar per algorithm and bin; only round-robin leaves pairs waiting 2-3 slots.
    const histogram = screen.getByTestId('visit-delay-histogram');
    const waitedLong = within(histogram)
      .getAllByTestId('visit-delay-bar')
      .filter((bar) => bar.getAttribute('data-slots') === '2–3')
      .map((bar) => [bar.getAttribute('data-algorithm'), Number(bar.getAttribute('data-pairs')) > 0]);
    expect(waitedLong).toEqual([
      ['exact', false],
      ['greedy', false],
      ['round_robin', true],
    ]);
    expect(histogram.textContent).toContain('Pairs with demand');
    expect(histogram.textContent).toContain('Longest wait for a circuit (slots; seconds below)');
    expect(histogram.textContent).toContain('Circuit visit delay per pair (1 slot = 1 s)');
    expect(histogram.textContent).toContain('Round-robin');
  });

  it('says the demand was deleted when a result without a demand echo has no matrix to fall back on', async () => {
    const urls = renderPage(job({ ...REPLAY, input: { ...REPLAY.input, windows: null } }), 404);
    const notice = await screen.findByTestId('heatmap-demand-deleted');
    expect(notice.textContent).toContain('The demand “hot pairs” was deleted');
    expect(urls.some((url) => url.startsWith(`/api/demands/${REPLAY.demand.id}/matrix/`))).toBe(true);
    expect(screen.queryByText('Could not load the demand matrix.')).toBeNull();
    expect(screen.getByTestId('circuit-timeline')).toBeTruthy();
  });

  it('says when a result predates the visit-delay histogram', async () => {
    const metrics = { ...PARALLEL_GLOBAL.metrics };
    delete metrics.visit_delay_histogram;
    renderPage(job({ ...PARALLEL_GLOBAL, metrics }));
    expect((await screen.findByTestId('visit-delay-histogram-missing')).textContent).toContain(
      'run the schedule again',
    );
  });

  it('names each port of a rack with several and says when nothing was compared', async () => {
    renderPage(job(PARALLEL_GLOBAL));
    const timeline = await screen.findByTestId('circuit-timeline');
    expect(within(timeline).getAllByTestId('timeline-row')[1]!.textContent).toBe('p0-tor0 · port 2');
    expect(screen.getByText(/No comparison was asked for/)).toBeTruthy();
    const bars = within(screen.getByTestId('visit-delay-histogram')).getAllByTestId('visit-delay-bar');
    expect(new Set(bars.map((bar) => bar.getAttribute('data-algorithm')))).toEqual(new Set(['exact']));
    expect(screen.getByTestId('demand-heatmap').textContent).toContain('all 4 demand windows summed (drain mode)');
  });
});
