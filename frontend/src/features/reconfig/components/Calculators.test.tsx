/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { SizeAnswer } from '../api/types';
import { COSTS, DEGRADED_RACK_SET, INFEASIBLE, SIZE_MONTE_CARLO, SIZE_SIZING } from '../fixtures/larry';
import { parseRackSet, rackSetText } from '../forms';
import { CostComparison } from './CostComparison';
import { FeasibilityCheck } from './FeasibilityCheck';
import { PoolSizing } from './PoolSizing';

/** Answers POST `path` with `answer(body)` and records the bodies sent. */
function servePost(path: string, answer: (body: Record<string, unknown>) => unknown) {
  const bodies: Record<string, unknown>[] = [];
  document.cookie = 'csrftoken=test-token';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe(path);
      expect(init.method).toBe('POST');
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      bodies.push(body);
      return new Response(JSON.stringify(answer(body)), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return bodies;
}

function renderWithClient(element: ReactNode) {
  render(<QueryClientProvider client={new QueryClient()}>{element}</QueryClientProvider>);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('feasibility check', () => {
  it('sends the rack set and the vector, and shows the min cut of an infeasible request', async () => {
    const bodies = servePost('/api/larry/check/', () => INFEASIBLE);
    renderWithClient(<FeasibilityCheck rackSet={parseRackSet(rackSetText(DEGRADED_RACK_SET))} />);

    fireEvent.change(screen.getByLabelText('Circuit uplinks per rack (beyond S)'), { target: { value: '3,3,2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Give one count per rack: the rack set has 4 racks, the vector 3 entries.',
    );

    fireEvent.change(screen.getByLabelText('Circuit uplinks per rack (beyond S)'), { target: { value: '3,3,2,0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByTestId('whole-request')).toHaveTextContent(
      'Whole request: 7 of 8 circuit uplinks reachable (max flow).',
    );
    expect(screen.getByTestId('bottleneck')).toHaveTextContent(
      'Bottleneck: rack 0, rack 1, rack 2 request 8 but their cables reach at most 7.',
    );
    expect(bodies).toEqual([{ rack_set: DEGRADED_RACK_SET, uplinks: [3, 3, 2, 0] }]);
    // The cut's crossing cable and its racks are marked on the cable matrix.
    const matrix = screen.getAllByTestId('cable-matrix').at(-1)!;
    expect(matrix.querySelectorAll('td.cut-cable')).toHaveLength(1);
    expect(within(matrix).getAllByText('0 of 1')).toHaveLength(2);
  });
});

describe('cost comparison', () => {
  it('sends the price sheet with the 0.3 circuit-port ratio and groups the designs', async () => {
    const bodies = servePost('/api/reconfig/costs/', (body) => ({ inputs: body, designs: COSTS }));
    renderWithClient(<CostComparison />);
    fireEvent.click(screen.getByRole('button', { name: 'Compare costs' }));

    const table = await screen.findByTestId('cost-table');
    expect(bodies[0]).toMatchObject({ prices: { packet_port: 1, circuit_port: 0.3 } });
    expect(
      within(table)
        .getAllByRole('table')
        .map((group) => group.querySelector('caption')?.textContent),
    ).toEqual([
      'Rack set: static oversubscription and Larry: cost relative to static u=16',
      'Fat tree: plain and ShareBackup: cost relative to fat tree k=16 P=16',
    ]);
    const larry = within(table).getAllByTestId('cost-row')[2]!;
    expect(larry).toHaveTextContent('larry S=2 L=4 R=2');
    expect(larry).toHaveTextContent('0.355');
  });
});

describe('backup-pool sizing', () => {
  it('shows the smallest n for the target and the Monte Carlo check per n', async () => {
    const bodies = servePost('/api/sharebackup/size/', (body): SizeAnswer => ({
      inputs: body as unknown as SizeAnswer['inputs'],
      reliability: {
        source: 'given',
        mtbf_hours: 50000,
        mttr_hours: 24,
        switches: 0,
        failures: 0,
        repairs: 0,
        window_days: 365,
        note: 'the given MTBF and MTTR',
      },
      sizing: SIZE_SIZING,
      monte_carlo: { seed: 0, horizon_hours: 1e7, horizon_capped: false, backups: 2, points: SIZE_MONTE_CARLO },
    }));
    renderWithClient(<PoolSizing fabrics={[]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Size the pools' }));

    expect(await screen.findByTestId('pool-size-n')).toHaveTextContent('n = 2 backups per group');
    expect(bodies[0]).toMatchObject({
      k: 16,
      pods: 16,
      target: 1e-6,
      fabric: null,
      mtbf_hours: 50000,
      mttr_hours: 24,
      monte_carlo: { seed: 0 },
    });
    const rows = within(screen.getByTestId('pool-size-curve')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '00.003830.1420.00375 ± 1.20e-4 (agrees)',
      '16.43e-62.57e-41.23e-5 ± 6.41e-6 (agrees)',
      '26.17e-92.47e-7never ran out in the horizon: too rare to check',
    ]);
  });
});
