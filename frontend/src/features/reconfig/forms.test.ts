import { describe, expect, it } from 'vitest';

import {
  buildCostsRequest,
  buildPlanParams,
  buildRunParams,
  buildSizeRequest,
  INITIAL_COST_FORM,
  INITIAL_PLAN_FORM,
  INITIAL_RUN_FORM,
  INITIAL_SIZE_FORM,
  parseRackSet,
  RACK_SET_PRESETS,
  rackSetText,
} from './forms';

describe('plan form', () => {
  it('sends a synthetic log by default', () => {
    expect(buildPlanParams(INITIAL_PLAN_FORM)).toEqual({
      value: {
        params: { k: 4, pods: 2, backups: 1, reconfig_ms: 0.5, events: { source: 'synthetic', length: 12, seed: 0 } },
        fabric: null,
      },
      errors: [],
    });
  });

  it('plans a stored fabric without k and pods: the server reads them from it', () => {
    expect(buildPlanParams({ ...INITIAL_PLAN_FORM, tree: 'fabric', fabric: '5', k: 'x' })).toEqual({
      value: {
        params: { backups: 1, reconfig_ms: 0.5, events: { source: 'synthetic', length: 12, seed: 0 } },
        fabric: 5,
      },
      errors: [],
    });
    expect(buildPlanParams({ ...INITIAL_PLAN_FORM, tree: 'fabric' }).errors).toEqual([
      'Choose the stored fabric to plan.',
    ]);
  });

  it('lists every problem at once', () => {
    expect(buildPlanParams({ ...INITIAL_PLAN_FORM, k: '5', pods: '0', backups: '9', length: '0' }).errors).toEqual([
      'k must be even.',
      'Pods must be a whole number from 1 to 5.',
      'Backups per group must be a whole number from 0 to 8.',
      'Events must be a whole number from 1 to 500.',
    ]);
  });

  it('sends an uploaded file as its text, after checking its events', () => {
    const text = JSON.stringify([{ type: 'switch_down', switch: 'agg.p0.m1' }]);
    expect(
      buildPlanParams({ ...INITIAL_PLAN_FORM, source: 'uploaded', upload: { name: 'e.json', text } }).value?.params
        .events,
    ).toEqual({
      source: 'uploaded',
      name: 'e.json',
      json: text,
    });
    expect(buildPlanParams({ ...INITIAL_PLAN_FORM, source: 'uploaded' }).errors).toEqual([
      'Choose an events file (JSON).',
    ]);
  });

  it('refuses a file that is not text in its one sentence, sending nothing', () => {
    const problem = 'events.png is a PNG image, not a text file: choose the CSV or JSON file.';
    const upload = { name: 'events.png', text: '', problem };
    const plan = buildPlanParams({ ...INITIAL_PLAN_FORM, source: 'uploaded', upload });
    expect([plan.value, plan.errors]).toEqual([null, [problem]]);
    const run = buildRunParams({ ...INITIAL_RUN_FORM, countersSource: 'uploaded', upload }, parseRackSet(''));
    expect(run.value).toBeNull();
    expect(run.errors).toContain(problem);
  });
});

describe('sizing form', () => {
  it('makes MTBF and MTTR optional only when a fabric’s tickets may supply them', () => {
    const blank = { ...INITIAL_SIZE_FORM, mtbfHours: '', mttrHours: '' };
    expect(buildSizeRequest(blank).errors).toEqual([
      'MTBF (hours) must be a number from 1 to 1000000000.',
      'MTTR (hours) must be a number from 0.01 to 1000000.',
    ]);
    expect(buildSizeRequest({ ...blank, fabric: '3' }).value).toMatchObject({
      fabric: 3,
      mtbf_hours: null,
      mttr_hours: null,
      monte_carlo: { seed: 0, horizon_hours: 1e7 },
    });
  });
});

describe('Larry forms', () => {
  it('reads the rack-set presets back', () => {
    for (const preset of RACK_SET_PRESETS) {
      expect(parseRackSet(rackSetText(preset.rackSet))).toEqual({ value: preset.rackSet, errors: [] });
    }
    expect(parseRackSet('{"cables": 3}').errors).toEqual([
      'cables must be a list of rows, one per rack, each with a count per circuit switch.',
      'static_uplinks must be a number.',
      'capacity_gbps must be a number.',
      'cs_uplinks must be a list, one count per circuit switch.',
    ]);
  });

  it('sends a counters file as CSV or JSON by its name', () => {
    const rackSet = parseRackSet(rackSetText(RACK_SET_PRESETS[0]!.rackSet));
    const csv = buildRunParams({ ...INITIAL_RUN_FORM, upload: { name: 'C.CSV', text: 'time_s' } }, rackSet);
    expect(csv.value?.params.counters).toEqual({ source: 'uploaded', name: 'C.CSV', csv: 'time_s' });
    expect(csv.value?.fabric).toBeNull();
    const json = buildRunParams(
      { ...INITIAL_RUN_FORM, upload: { name: 'c.json', text: '[]' }, periodS: '0.5' },
      rackSet,
    );
    expect(json.value?.params).toMatchObject({
      counters: { json: '[]' },
      period_s: 0.5,
      threshold: 0.85,
      policy: 'conservative',
    });
    expect(buildRunParams({ ...INITIAL_RUN_FORM, threshold: '1.2' }, rackSet).errors).toEqual([
      'Choose a counters file (CSV or JSON).',
      'Threshold must be in (0, 1].',
    ]);
  });

  it('reads counters from a fabric’s telemetry over a UTC window, with the fabric on the job', () => {
    const named = parseRackSet(JSON.stringify({ ...RACK_SET_PRESETS[0]!.rackSet, racks: ['t0', 't1', 't2', 't3'] }));
    const telemetry = { ...INITIAL_RUN_FORM, countersSource: 'telemetry' as const, fabric: '2' };
    expect(buildRunParams({ ...telemetry, from: '2026-11-22T00:00', to: '2026-11-22T06:00' }, named).value).toEqual({
      params: expect.objectContaining({
        counters: {
          source: 'telemetry',
          from: '2026-11-22T00:00:00Z',
          to: '2026-11-22T06:00:00Z',
          bytes_per_packet: 1500,
        },
      }),
      fabric: 2,
    });
    const unnamed = parseRackSet(rackSetText(RACK_SET_PRESETS[0]!.rackSet));
    expect(
      buildRunParams({ ...telemetry, fabric: '', from: '2026-11-22T06:00', to: '2026-11-22T00:00' }, unnamed).errors,
    ).toEqual([
      'Choose the fabric whose telemetry holds the counters.',
      'The rack set needs "racks": the names of the fabric’s ToRs, one per rack.',
      'To must be after From.',
    ]);
  });

  it('prices circuit-switch ports at 0.3 of a packet port by default', () => {
    expect(buildCostsRequest(INITIAL_COST_FORM).value).toEqual({
      racks: 4,
      servers: 16,
      static_uplinks: 4,
      larry_s: 2,
      larry_l: 4,
      larry_r: 2,
      k: 16,
      pods: 16,
      backups: 1,
      prices: { packet_port: 1, circuit_port: 0.3, active_cable: 0.5, passive_cable: 0.1 },
    });
    expect(buildCostsRequest({ ...INITIAL_COST_FORM, packetPort: '0', pods: '17' }).errors).toEqual([
      'Packet-switch port price must be a number above 0.',
      'Pods must be a whole number from 1 to 16.',
    ]);
  });
});
