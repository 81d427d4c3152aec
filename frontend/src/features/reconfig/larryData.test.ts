import { describe, expect, it } from 'vitest';

import { COSTS, DEGRADED_RACK_SET, FEASIBLE, INFEASIBLE, RUN_RESULT } from './fixtures/larry';
import {
  certificateText,
  changeIndices,
  changesAt,
  costGroups,
  describeMove,
  metricsRows,
  parseUplinkVector,
  pointAt,
  uplinkDeltas,
  uplinkSeries,
  usableCables,
} from './larryData';

describe('uplink series', () => {
  const series = uplinkSeries(RUN_RESULT);

  it('gives each rack one bar per step, holding until the next step', () => {
    expect(series.map((rack) => rack.name)).toEqual(['rack 0', 'rack 1', 'rack 2', 'rack 3']);
    const hot = series[0]!;
    expect(hot.bars.map((bar) => [bar.t0, bar.t1, bar.uplinks])).toEqual([
      [0.5, 1, 3],
      [1, 1.5, 6],
      [1.5, 2, 6],
      [2, 2.5, 3],
      [2.5, 3, 3],
      [3, 3.5, 3],
    ]);
  });

  it('expresses demand in links of capacity C, beside the uplinks it caused', () => {
    // Rack 0 sends 450 Gbit/s over 100 Gbit/s links: 4.5 links' worth, and gets 6 uplinks.
    expect(series[0]!.bars[1]).toMatchObject({ demandLinks: 4.5, uplinks: 6 });
    // Its donors keep their S = 2 static uplinks.
    expect(series.slice(1).map((rack) => rack.bars[1]!.uplinks)).toEqual([2, 2, 2]);
  });
});

describe('circuits that moved', () => {
  it('finds the steps with moved circuits and the moves of each', () => {
    expect(changeIndices(RUN_RESULT)).toEqual([1, 3]);
    expect(changesAt(RUN_RESULT, 0)).toEqual([]);
    const [change] = changesAt(RUN_RESULT, 1);
    expect(change!.diff.map((move) => describeMove(move, RUN_RESULT.racks))).toEqual([
      'CS 1 uplink 0: rack 1 (cable port 1) → rack 0 (cable port 0)',
      'CS 2 uplink 0: rack 2 (cable port 2) → rack 0 (cable port 0)',
      'CS 3 uplink 0: rack 3 (cable port 3) → rack 0 (cable port 0)',
    ]);
    expect(uplinkDeltas(change!.diff, 4)).toEqual([3, -1, -1, -1]);
  });

  it('matches changes to bins when the series is binned', () => {
    const binned = {
      series: { ...RUN_RESULT.series, binned: true, time_s: [0.5, 1.5, 2.5] },
      changes: RUN_RESULT.changes,
    };
    expect(changesAt(binned, 0).map((change) => change.step)).toEqual([1]);
    expect(changesAt(binned, 1).map((change) => change.step)).toEqual([3]);
    expect(changesAt(binned, 2)).toEqual([]);
  });

  it('finds the bar that holds a change', () => {
    expect(pointAt({ time_s: [0.5, 1.5, 2.5] }, 2)).toBe(1);
    expect(pointAt({ time_s: [0.5, 1.5, 2.5] }, 2.5)).toBe(2);
    expect(pointAt({ time_s: [0.5, 1.5, 2.5] }, 0.1)).toBe(0);
  });

  it('puts the run policy first, then the baselines', () => {
    const rows = metricsRows(RUN_RESULT);
    expect(rows.map((row) => [row.policy, row.run])).toEqual([
      ['conservative', true],
      ['one_big_switch', false],
      ['proportional', false],
      ['static', false],
    ]);
    expect(rows[0]!.metrics.mean_fraction_changed).toBe(0.75);
    expect(rows[3]!.metrics.reconfigurations).toBe(0);
  });
});

describe('feasibility certificate', () => {
  it('spells out the min cut of the degraded-cabling example (3,3,2,0)', () => {
    expect(certificateText(INFEASIBLE)).toEqual({
      headline: 'Infeasible: the request does not fit the cables in service.',
      wholeRequest: 'Whole request: 7 of 8 circuit uplinks reachable (max flow).',
      bottleneck: 'Bottleneck: rack 0, rack 1, rack 2 request 8 but their cables reach at most 7.',
      details: [
        'Every uplink of circuit switches 1, 2, 3 is used by these racks.',
        'Crossing the cut: 1 cable in service from rack 2 to circuit switch 0.',
        'Granted instead: 3, 3, 1, 0.',
      ],
    });
  });

  it('tells the whole request’s max flow from the bottleneck rack’s numbers when they differ', () => {
    // p0-tor1 has one cable in service and asks for two; the others fit: the cut holds p0-tor1 alone,
    // its capacity (7) counts the racks outside it too (the server's answer on the demo's ocs-larry)
    const racks = ['p0-tor0', 'p0-tor1', 'p0-tor2', 'p0-tor3', 'p0-tor4', 'p0-tor5', 'p0-tor6', 'p0-tor7'];
    const certificate = certificateText({
      inputs: {
        rack_set: { static_uplinks: 2, cables: racks.map(() => [2]), cs_uplinks: [8], capacity_gbps: 100, racks },
        uplinks: [2, 2, 1, 1, 1, 1, 0, 0],
        rack_set_source: {
          fabric: { id: 1, name: 'demo-fb' },
          circuit_switches: [{ id: 2, name: 'ocs-larry' }],
          static_uplinks_per_rack: racks.map(() => 2),
          excluded_cables: [],
        },
      },
      feasible: false,
      requested: [2, 2, 1, 1, 1, 1, 0, 0],
      granted: [2, 1, 1, 1, 1, 1, 0, 0],
      total_requested: 8,
      total_granted: 7,
      assignment: [[2], [1], [1], [1], [1], [1], [0], [0]],
      circuits: [[]],
      min_cut: {
        racks: [1],
        circuit_switches: [],
        capacity: 7,
        cables: [[1, 0, 1]],
        explanation:
          'racks [1] request 2 circuit uplinks but reach at most 1 through CSs [] (their 0 uplinks) and 1 cables to other CSs',
        racks_requested: 2,
        racks_reach: 1,
      },
    });
    expect(certificate).toEqual({
      headline: 'Infeasible: the request does not fit the cables in service.',
      wholeRequest: 'Whole request: 7 of 8 circuit uplinks reachable (max flow).',
      bottleneck: 'Bottleneck: p0-tor1 requests 2 but its cables reach at most 1.',
      details: [
        'No circuit switch has its uplinks all used by this rack: its cables are the limit.',
        'Crossing the cut: 1 cable in service from p0-tor1 to circuit switch ocs-larry.',
        'Granted instead: 2, 1, 1, 1, 1, 1, 0, 0.',
      ],
    });
  });

  it('has nothing to certify for a feasible request (3,3,1,1)', () => {
    expect(certificateText(FEASIBLE)).toBeNull();
  });

  it('counts the cables in service', () => {
    expect(usableCables(DEGRADED_RACK_SET)).toEqual([
      [0, 1, 1, 1],
      [0, 1, 1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1],
    ]);
  });

  it('reads an uplink vector, listing every problem', () => {
    expect(parseUplinkVector('3, 3 2,0', 4)).toEqual({ values: [3, 3, 2, 0], errors: [] });
    expect(parseUplinkVector('3,-1,x', 4).errors).toEqual([
      '“-1” is not a whole number of uplinks.',
      '“x” is not a whole number of uplinks.',
      'Give one count per rack: the rack set has 4 racks, the vector 3 entries.',
    ]);
  });
});

describe('cost comparison', () => {
  it('groups designs by what they are normalised to', () => {
    const groups = costGroups(COSTS);
    expect(groups.map((group) => [group.baseline, group.rows.map((row) => row.design)])).toEqual([
      ['static u=16', ['static u=16', 'static u=4', 'larry S=2 L=4 R=2']],
      ['fat tree k=16 P=16', ['fat tree k=16 P=16', 'sharebackup n=1']],
    ]);
  });
});
