/** @vitest-environment jsdom */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { CheckAnswer } from '../api/types';
import {
  buildFabricRackSet,
  buildRunParams,
  type FabricRackSetState,
  INITIAL_FABRIC_RACK_SET,
  INITIAL_RUN_FORM,
} from '../forms';
import { FabricRackSetChooser } from './FabricRackSet';
import { FeasibilityCheck } from './FeasibilityCheck';

const SWITCHES = [
  { id: 11, name: 'ocs0', port_count: 6, attachments: [{}, {}, {}, {}] },
  { id: 12, name: 'ocs1', port_count: 4, attachments: [{}, {}] },
];

/** The server's answer for r0's cable disabled by CorrOpt: larry_check of the built rack set, (1,1,0,0). */
function answerFor(body: Record<string, unknown>): CheckAnswer {
  return {
    feasible: false,
    requested: [1, 1, 0, 0],
    granted: [0, 1, 0, 0],
    total_requested: 2,
    total_granted: 1,
    assignment: [[0], [1], [0], [0]],
    circuits: [[[1, 0]]],
    min_cut: {
      racks: [0],
      circuit_switches: [],
      capacity: 1,
      cables: [],
      explanation: 'racks [0] request 1 circuit uplinks but reach at most 0 through CSs [] (their 0 uplinks)',
      racks_requested: 1,
      racks_reach: 0,
    },
    inputs: {
      uplinks: body.uplinks as number[],
      rack_set: {
        static_uplinks: 2,
        cables: [[1], [1], [1], [1]],
        cs_uplinks: [2],
        capacity_gbps: 100,
        excluded: [[0, 0]],
        racks: ['r0', 'r1', 'r2', 'r3'],
      },
      rack_set_source: {
        fabric: { id: 7, name: 'larry-racks' },
        circuit_switches: [{ id: 11, name: 'ocs0' }],
        static_uplinks_per_rack: [2, 2, 2, 2],
        excluded_cables: [
          {
            tor: 0,
            cs: 0,
            rack: 'r0',
            circuit_switch: 'ocs0',
            link: 3,
            reason: 'disabled_by_corropt',
            explanation: 'disabled by CorrOpt (corruption)',
          },
        ],
      },
    },
  } as CheckAnswer;
}

/** The circuit switches of fabric 7 on GET; the check's answer on POST (bodies recorded). */
function serve() {
  const bodies: Record<string, unknown>[] = [];
  document.cookie = 'csrftoken=test-token';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      let answer: unknown;
      if (init?.method === 'POST') {
        expect(url).toBe('/api/larry/check/');
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        bodies.push(body);
        answer = answerFor(body);
      } else {
        expect(url).toContain('/api/circuit-switches/?fabric=7');
        answer = { count: SWITCHES.length, next: null, previous: null, results: SWITCHES };
      }
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return bodies;
}

/** The Larry page's stored-fabric rack set: the chooser and the check it feeds. */
function Harness() {
  const [state, setState] = useState<FabricRackSetState>(INITIAL_FABRIC_RACK_SET);
  return (
    <QueryClientProvider client={new QueryClient()}>
      <FabricRackSetChooser
        state={state}
        fabrics={[{ id: 7, url: '/api/fabrics/7/', name: 'larry-racks' }]}
        onChange={setState}
      />
      <FeasibilityCheck rackSet={buildFabricRackSet(state)} />
    </QueryClientProvider>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('rack set from a stored fabric', () => {
  it('asks for a fabric, sends the chosen circuit switches and shows the excluded cables with their reasons', async () => {
    const bodies = serve();
    render(<Harness />);
    const uplinks = screen.getByLabelText('Circuit uplinks per rack (beyond S)');
    fireEvent.change(uplinks, { target: { value: '1,1,0,0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the fabric whose circuit switches make the rack set.');
    expect(bodies).toEqual([]);

    fireEvent.change(screen.getByLabelText('Fabric'), { target: { value: '7' } });
    fireEvent.click(await screen.findByLabelText('ocs0 (6 ports, 4 ToRs)'));
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));

    const excluded = await screen.findByTestId('excluded-cables');
    expect(bodies).toEqual([{ rack_set: { fabric: 7, circuit_switches: [11] }, uplinks: [1, 1, 0, 0] }]);
    const row = within(excluded).getByRole('row', { name: /r0/ });
    expect(row).toHaveTextContent('ocs0');
    expect(row).toHaveTextContent('disabled by CorrOpt (corruption)');
    expect(screen.getByTestId('built-from')).toHaveTextContent('Built from fabric larry-racks, circuit switches ocs0.');
    // the cut's capacity (1) is the whole request's max flow; its explanation's 1 and 0 are r0's alone
    expect(screen.getByTestId('whole-request')).toHaveTextContent(
      'Whole request: 1 of 2 circuit uplinks reachable (max flow).',
    );
    expect(screen.getByTestId('bottleneck')).toHaveTextContent(
      'Bottleneck: r0 requests 1 but its cables reach at most 0.',
    );
    // the excluded cable is marked on the cable matrix the server built
    const matrix = screen.getByTestId('cable-matrix');
    expect(within(matrix).getByText('0 of 1')).toBeInTheDocument();
    expect(within(matrix).getByText('r0')).toBeInTheDocument();
  });

  it('sends no circuit switches when none is ticked: the server takes all of the fabric’s', () => {
    expect(buildFabricRackSet({ fabric: '7', circuitSwitches: [] })).toEqual({ value: { fabric: 7 }, errors: [] });
  });

  it('runs on the telemetry of the fabric the rack set is built from, by default', () => {
    // (Changed by issue #20: the counters' fabric is no longer chosen apart from the rack set's, so
    // a mismatch cannot be entered; the counters follow a stored rack set to its telemetry.)
    const rackSet = buildFabricRackSet({ fabric: '7', circuitSwitches: [] });
    const form = { ...INITIAL_RUN_FORM, fabric: '8', from: '2026-11-22T00:00', to: '2026-11-22T06:00' };
    const built = buildRunParams(form, rackSet);
    expect(built.errors).toEqual([]);
    expect(built.value?.params.rack_set).toEqual({ fabric: 7 });
    expect(built.value?.fabric).toBe(7);
    expect(built.value?.params.counters).toEqual({
      source: 'telemetry',
      from: '2026-11-22T00:00:00Z',
      to: '2026-11-22T06:00:00Z',
      bytes_per_packet: 1500,
    });
  });

  it('leaves an empty From or To out, never sends it as an empty string', () => {
    const rackSet = buildFabricRackSet({ fabric: '7', circuitSwitches: [] });
    const empty = buildRunParams(INITIAL_RUN_FORM, rackSet);
    expect(empty.errors).toEqual([]);
    expect(empty.value?.params.counters).toEqual({ source: 'telemetry', bytes_per_packet: 1500 });
    const onlyTo = buildRunParams({ ...INITIAL_RUN_FORM, to: '2026-11-22T06:00' }, rackSet);
    expect(onlyTo.value?.params.counters).toEqual({
      source: 'telemetry',
      to: '2026-11-22T06:00:00Z',
      bytes_per_packet: 1500,
    });
    const bad = buildRunParams({ ...INITIAL_RUN_FORM, from: 'yesterday' }, rackSet);
    expect(bad.errors).toEqual(['From must be a date and time (UTC), or empty for the first counter sample.']);
  });
});
