import { describe, expect, it } from 'vitest';

import { buildDemandUpload, EMPTY_DEMAND_FORM } from './demandUpload';
import { buildScheduleRequest, INITIAL_SCHEDULE_FORM } from './scheduleForm';
import { buildSwitchInput, EMPTY_SWITCH_FORM } from './switchForm';

const TORS = [
  { id: 12, name: 'p0-tor0' },
  { id: 13, name: 'p0-tor1' },
  { id: 14, name: 'p0-tor2' },
];

describe('buildScheduleRequest', () => {
  it('sends what was typed and leaves blank fields to the server', () => {
    const { request, errors } = buildScheduleRequest({
      ...INITIAL_SCHEDULE_FORM,
      demand: '7',
      target: 'switch:1',
      darkTimeMs: '20',
      minDemandMb: '2.5',
    });
    expect(errors).toEqual([]);
    expect(request).toEqual({
      demand: 7,
      circuit_switch: 1,
      params: {
        algorithm: 'exact',
        compare: ['greedy', 'round_robin'],
        reconfig: 'per_port',
        dark_time_s: 0.02,
        min_demand_bytes: 2_500_000,
        burst_active: 1,
        burst_reset: 1,
        hysteresis: 0,
        seed: 0,
        time_budget_s: null,
      },
    });
  });

  it('plans a zone and never compares an algorithm with itself', () => {
    const { request } = buildScheduleRequest({
      ...INITIAL_SCHEDULE_FORM,
      demand: '7',
      target: 'zone:zone-a',
      algorithm: 'greedy',
      compare: ['exact', 'greedy'],
      mode: 'drain',
      periodS: '0.5',
    });
    expect(request?.zone).toBe('zone-a');
    expect(request?.circuit_switch).toBeUndefined();
    expect(request?.params).toMatchObject({ algorithm: 'greedy', compare: ['exact'], mode: 'drain', period_s: 0.5 });
  });

  it('lists every problem at once', () => {
    const { request, errors, byField } = buildScheduleRequest({
      ...INITIAL_SCHEDULE_FORM,
      periodS: '0.01',
      darkTimeMs: '10',
      burstActive: '0',
      hysteresis: 'much',
      seed: '-1',
    });
    expect(request).toBeNull();
    expect(errors).toEqual([
      'Choose a demand (upload one first if the list is empty).',
      'Choose a circuit switch or a zone.',
      'The dark time (10 ms) must be shorter than the period (0.01 s).',
      'Burst: active windows must be a whole number from 1 to 1000 (got “0”).',
      'The hysteresis must be from 0 to 10 (got “much”).',
      'The seed must be a whole number ≥ 0 (got “-1”).',
    ]);
    // Each said at its field.
    expect(byField).toEqual({
      demand: 'Choose a demand (upload one first if the list is empty).',
      target: 'Choose a circuit switch or a zone.',
      dark_time_s: 'The dark time (10 ms) must be shorter than the period (0.01 s).',
      burst_active: 'Burst: active windows must be a whole number from 1 to 1000 (got “0”).',
      hysteresis: 'The hysteresis must be from 0 to 10 (got “much”).',
      seed: 'The seed must be a whole number ≥ 0 (got “-1”).',
    });
  });
});

describe('buildSwitchInput', () => {
  it('attaches every ToR through the server on create', () => {
    const { body } = buildSwitchInput({ ...EMPTY_SWITCH_FORM, name: ' ocs-2 ' }, 3, TORS, true);
    expect(body).toEqual({
      fabric: 3,
      name: 'ocs-2',
      zone: '',
      port_count: 3,
      dark_time_s: 0.01,
      capacity_gbps: 10,
      description: '',
      attach_all_tors: true,
    });
  });

  it('sends the ToRs given ports, with their links', () => {
    const { body } = buildSwitchInput(
      {
        ...EMPTY_SWITCH_FORM,
        name: 'ocs',
        attachAll: false,
        portCount: '8',
        ports: { 12: '1', 13: '', 14: '2' },
        links: { 14: '40, 41' },
      },
      3,
      TORS,
      true,
    );
    expect(body?.attachments).toEqual([
      { tor: 12, optical_ports: 1, links: [] },
      { tor: 14, optical_ports: 2, links: [40, 41] },
    ]);
    expect(body?.attach_all_tors).toBeUndefined();
  });

  it('lists every problem at once', () => {
    const { body, errors } = buildSwitchInput(
      {
        ...EMPTY_SWITCH_FORM,
        darkTimeMs: '-1',
        attachAll: false,
        portCount: '2',
        ports: { 12: '2', 13: 'x', 14: '1' },
        links: { 14: 'a' },
      },
      3,
      TORS,
      false,
    );
    expect(body).toBeNull();
    expect(errors).toEqual([
      'Give the circuit switch a name.',
      'The dark time must be a number of ms from 0 to 10,000.',
      'p0-tor1: optical ports must be a whole number ≥ 1 (or empty when not attached).',
      'p0-tor2: links must be link ids separated by commas.',
      // Only p0-tor0's two ports count: the others were refused.
    ]);
    const tooFew = buildSwitchInput(
      { ...EMPTY_SWITCH_FORM, name: 'x', attachAll: false, portCount: '1', ports: { 12: '2' } },
      3,
      TORS,
      false,
    );
    expect(tooFew.errors).toEqual(['The switch has 1 ports but the attachments need 2.']);
  });

  it("refuses a capacity past the server's bound, as the server does", () => {
    const build = (capacityGbps: string) =>
      buildSwitchInput({ ...EMPTY_SWITCH_FORM, name: 'x', capacityGbps }, 3, TORS, true).errors;
    expect(build('2e9')).toEqual(['The circuit capacity must be a number of Gb/s above 0 and up to 100,000.']);
    expect(build('100000')).toEqual([]);
    expect(build('0')).toHaveLength(1);
  });

  it("checks the server's name, zone and dark-time bounds and says each problem at its field", () => {
    const long = 'n'.repeat(120);
    const { body, byField } = buildSwitchInput(
      { ...EMPTY_SWITCH_FORM, name: long, zone: 'z'.repeat(101), darkTimeMs: '10001', capacityGbps: '2e9' },
      3,
      TORS,
      true,
    );
    expect(body).toBeNull();
    expect(byField).toEqual({
      name: 'Name: 120 characters: up to 100, 20 too many.',
      zone: 'Zone: 101 characters: up to 100, 1 too many.',
      dark_time_s: 'The dark time must be a number of ms from 0 to 10,000.',
      capacity_gbps: 'The circuit capacity must be a number of Gb/s above 0 and up to 100,000.',
    });
    // The server takes exactly 100 characters and 10 s of dark time.
    expect(
      buildSwitchInput({ ...EMPTY_SWITCH_FORM, name: 'n'.repeat(100), darkTimeMs: '10000' }, 3, TORS, true).errors,
    ).toEqual([]);
  });
});

describe('buildDemandUpload', () => {
  const csv = 'src,dst,bytes,window_start\np0-tor0,p0-tor1,500000000,0\n';

  it('sends CSV as text and JSON as rows', () => {
    expect(
      buildDemandUpload({ ...EMPTY_DEMAND_FORM, name: 'hot', file: { name: 'd.csv', text: csv } }, 3).body,
    ).toEqual({
      fabric: 3,
      name: 'hot',
      description: '',
      csv,
    });
    const rows = [{ src: 'p0-tor0', dst: 'p0-tor1', bytes: 5, window_start: 0 }];
    const json = buildDemandUpload(
      {
        ...EMPTY_DEMAND_FORM,
        name: 'hot',
        windowS: '10',
        file: { name: 'd.json', text: JSON.stringify({ demand: rows }) },
      },
      3,
    );
    expect(json.body).toMatchObject({ rows, window_s: 10 });
  });

  it('lists every problem at once', () => {
    expect(buildDemandUpload({ ...EMPTY_DEMAND_FORM, windowS: '0' }, 3).errors).toEqual([
      'Give the demand a name.',
      'The window length must be a number of seconds above 0 and up to 86,400 (a day).',
      'Choose a file: CSV with header src,dst,bytes,window_start, or JSON rows.',
    ]);
    expect(
      buildDemandUpload({ ...EMPTY_DEMAND_FORM, name: 'x', file: { name: 'd.json', text: '{"rows": 3}' } }, 3).errors,
    ).toEqual(['d.json: expected a list of {src, dst, bytes, window_start} or {"demand": [...]}.']);
  });

  it("checks the server's name and window bounds, each at its field, all at once", () => {
    const { body, byField } = buildDemandUpload(
      {
        ...EMPTY_DEMAND_FORM,
        name: 'd'.repeat(120),
        windowS: '2e9',
        file: {
          name: 'photo.png',
          text: '',
          problem: 'photo.png is a PNG image, not a text file: choose the CSV or JSON file.',
        },
      },
      3,
    );
    expect(body).toBeNull();
    expect(byField).toEqual({
      name: 'Name: 120 characters: up to 100, 20 too many.',
      window_s: 'The window length must be a number of seconds above 0 and up to 86,400 (a day).',
      file: 'photo.png is a PNG image, not a text file: choose the CSV or JSON file.',
    });
    const oneDay = buildDemandUpload(
      { ...EMPTY_DEMAND_FORM, name: 'd'.repeat(100), windowS: '86400', file: { name: 'd.csv', text: csv } },
      3,
    );
    expect(oneDay.errors).toEqual([]);
  });
});

describe('edge groups', () => {
  it('reads one group a line into the params', () => {
    const { request } = buildScheduleRequest({
      ...INITIAL_SCHEDULE_FORM,
      demand: '7',
      target: 'switch:1',
      edgeGroups: 'shuffle 500000000 p0-tor0:p2-tor0 p1-tor3:p3-tor5\n\n  backup 0 p0-tor1:p0-tor2',
    });
    expect(request?.params.edge_groups).toEqual([
      {
        name: 'shuffle',
        bonus_bytes: 500_000_000,
        pairs: [
          ['p0-tor0', 'p2-tor0'],
          ['p1-tor3', 'p3-tor5'],
        ],
      },
      { name: 'backup', bonus_bytes: 0, pairs: [['p0-tor1', 'p0-tor2']] },
    ]);
  });

  it('names the line of every bad group', () => {
    const { errors } = buildScheduleRequest({
      ...INITIAL_SCHEDULE_FORM,
      demand: '7',
      target: 'switch:1',
      edgeGroups: 'ok 1 a:b\nbad lots a:a c\nlonely 5',
    });
    expect(errors).toEqual([
      'Edge groups line 2: the bonus “lots” is not whole bytes ≥ 0; “a:a” is not SRC:DST of two ToRs; “c” is not SRC:DST of two ToRs.',
      'Edge groups line 3: give 1 to 16 pairs SRC:DST.',
    ]);
  });
});
