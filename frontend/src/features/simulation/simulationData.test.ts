import { describe, expect, it } from 'vitest';

import {
  buildSimulationParams,
  changeText,
  corroptByAccuracy,
  downloadLinks,
  findRun,
  formatNumber,
  INITIAL_FORM,
  parseFractionList,
  ratioLines,
  stepPoints,
  timeUnit,
} from './simulationData';
import { testSimulationResult } from './testSimulation';

describe('parseFractionList', () => {
  it('reads commas and spaces and reports every bad entry', () => {
    expect(parseFractionList('0.5, 0.75 1', 'Constraints', { allowZero: false, limit: 8 })).toEqual({
      values: [0.5, 0.75, 1],
      errors: [],
    });
    const bad = parseFractionList('0, 1.5, x, 0.5, 0.5', 'Constraints', { allowZero: false, limit: 8 });
    expect(bad.values).toEqual([0.5]);
    expect(bad.errors).toEqual([
      'Constraints: “0” is not a fraction in (0, 1].',
      'Constraints: “1.5” is not a fraction in (0, 1].',
      'Constraints: “x” is not a fraction in (0, 1].',
      'Constraints: 0.5 is listed twice.',
    ]);
  });

  it('accepts 0 where allowed and limits the count', () => {
    expect(parseFractionList('0', 'Repair accuracies', { allowZero: true, limit: 4 }).values).toEqual([0]);
    expect(parseFractionList('', 'Repair accuracies', { allowZero: true, limit: 4 }).errors).toHaveLength(1);
    expect(parseFractionList('0.1 0.2 0.3', 'Repair accuracies', { allowZero: true, limit: 2 }).errors).toEqual([
      'Repair accuracies: at most 2 values.',
    ]);
  });
});

describe('buildSimulationParams', () => {
  it('builds the job params of a generated trace', () => {
    const built = buildSimulationParams({ ...INITIAL_FORM, fabric: '4', seed: '7' });
    expect(built.errors).toEqual([]);
    expect(built.fabric).toBe(4);
    expect(built.params).toEqual({
      constraints: [0.5, 0.75],
      accuracies: [0.5, 0.8],
      policies: ['corropt', 'fast-checker', 'switch-local'],
      penalty: 'linear',
      repair_delay_hours: 48,
      seed: 7,
      trace: { source: 'generated', hours: 720, mttf_hours: 2000, seed: 7 },
    });
  });

  it('sends an uploaded file as its text and keeps the policies in a stable order', () => {
    const built = buildSimulationParams({
      ...INITIAL_FORM,
      fabric: '1',
      policies: ['switch-local', 'corropt'],
      traceSource: 'uploaded',
      upload: { name: 't.csv', text: 'time_s,link,loss_rate\n0,7,1e-3\n' },
    });
    expect(built.params?.policies).toEqual(['corropt', 'switch-local']);
    expect(built.params?.trace).toEqual({
      source: 'uploaded',
      name: 't.csv',
      csv: 'time_s,link,loss_rate\n0,7,1e-3\n',
    });
  });

  it('lists every problem and builds nothing', () => {
    const built = buildSimulationParams({
      ...INITIAL_FORM,
      constraints: '2',
      policies: [],
      repairDelayHours: '0',
      seed: '-1',
      traceSource: 'uploaded',
    });
    expect(built.params).toBeNull();
    expect(built.errors).toEqual([
      'Choose a fabric.',
      'Constraints: “2” is not a fraction in (0, 1].',
      'Choose at least one policy.',
      'Repair delay must be a number above 0.',
      'Seed must be a whole number ≥ 0.',
      'Choose a trace file (CSV with header time_s,link,loss_rate).',
    ]);
  });
});

describe('result shaping', () => {
  const result = testSimulationResult();

  it('finds a run by constraint and accuracy', () => {
    expect(findRun(result, 0.75, 0.5)?.corropt_penalty_seconds).toBe(2);
    expect(findRun(result, 0.6, 0.5)).toBeUndefined();
  });

  it('closes a step series at the horizon in the chosen unit', () => {
    expect(timeUnit(36000)).toEqual({ seconds: 3600, label: 'hours' });
    expect(timeUnit(30 * 86400)).toEqual({ seconds: 86400, label: 'days' });
    expect(stepPoints([0, 3600], [0, 0.001], 36000, 3600)).toEqual([
      { t: 0, value: 0 },
      { t: 1, value: 0.001 },
      { t: 10, value: 0.001 },
    ]);
    expect(stepPoints([], [], 36000, 3600)).toEqual([]);
  });

  it('gives one ratio line per baseline and accuracy, marking infinite ratios', () => {
    const lines = ratioLines(result);
    expect(lines.map((line) => line.key)).toEqual([
      'fast-checker@0.5',
      'fast-checker@0.8',
      'switch-local@0.5',
      'switch-local@0.8',
    ]);
    const local = lines[2];
    expect(local?.points).toEqual([
      { constraint: 0.5, ratio: null, kind: 'infinite' },
      { constraint: 0.75, ratio: 100, kind: 'finite' },
    ]);
    expect(lines[0]?.dash).toBe('');
    expect(lines[1]?.dash).not.toBe('');
  });

  it("compares CorrOpt's penalty across repair accuracies per constraint", () => {
    expect(corroptByAccuracy(result)).toEqual([
      { constraint: 0.5, penalties: [0, 0] },
      { constraint: 0.75, penalties: [2, 2] },
    ]);
  });

  it('formats numbers and download links', () => {
    expect(formatNumber(null)).toBe('∞');
    expect(formatNumber(36)).toBe('36');
    expect(formatNumber(3.5e-7)).toBe('3.50e-7');
    expect(downloadLinks(9).map((link) => link.href)).toEqual([
      '/api/jobs/9/result/?format=json',
      '/api/jobs/9/result/?format=csv&table=summary',
      '/api/jobs/9/result/?format=csv&table=series',
    ]);
  });
});

describe('repair accuracy change', () => {
  it('words the change against the first accuracy', () => {
    expect(changeText(100, 70)).toBe('−30%');
    expect(changeText(100, 100)).toBe('±0%');
    expect(changeText(0, 5)).toBe('—');
    expect(changeText(null, 5)).toBe('—');
  });
});
