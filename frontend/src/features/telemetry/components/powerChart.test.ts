import { describe, expect, it } from 'vitest';

import { buildPowerChart, formatDbm, lowerLimits, POWER_SERIES, powerDomain } from './powerChart';
import { catalogThresholds, hourlyTelemetry, rawTelemetry } from './testTelemetry';

const SIDE_NAMES = { a: 'p0-tor0 eth2/1', z: 'p0-fab0 eth1/1' };
const segments = (path: string) => (path.match(/M/g) ?? []).length;

describe('buildPowerChart at raw resolution', () => {
  const chart = buildPowerChart(rawTelemetry(), { width: 800, plotHeight: 240, sideNames: SIDE_NAMES });
  const byKey = new Map(chart.lines.map((line) => [line.key, line]));

  it('draws four distinct, labelled lines: Rx and Tx of each side', () => {
    expect(chart.lines.map((line) => line.label)).toEqual([
      'A Rx (p0-tor0 eth2/1)',
      'A Tx (p0-tor0 eth2/1)',
      'Z Rx (p0-fab0 eth1/1)',
      'Z Tx (p0-fab0 eth1/1)',
    ]);
    expect(new Set(POWER_SERIES.map((series) => series.colour)).size).toBe(4);
    for (const line of chart.lines) expect(line.path).toMatch(/^M/);
    expect(chart.hasData).toBe(true);
  });

  it('breaks the Z Rx line where the receiver was dark and marks that sample', () => {
    expect(segments(byKey.get('z-rx')!.path)).toBe(2);
    expect(segments(byKey.get('a-rx')!.path)).toBe(1);
    expect(byKey.get('z-rx')!.measured).toBe(23);
    expect(chart.noLight).toHaveLength(1);
    expect(chart.noLight[0]).toMatchObject({ series: 'z-rx', time: '2026-11-22T00:50:00Z', samples: 1 });
    expect(chart.noLight[0]!.x).toBeCloseTo(chart.x(new Date('2026-11-22T00:50:00Z')));
  });

  it('has no bands at raw resolution', () => {
    expect(chart.lines.every((line) => line.band === null)).toBe(true);
  });

  it('draws one Rx and one Tx lower limit when both sides share the catalog value, inside the y range', () => {
    expect(chart.thresholds.map((threshold) => threshold.text)).toEqual([
      'Rx low A, Z: −10.3 dBm',
      'Tx low A, Z: −8.4 dBm',
    ]);
    for (const threshold of chart.thresholds) {
      expect(threshold.y).toBeGreaterThanOrEqual(chart.area.top);
      expect(threshold.y).toBeLessThanOrEqual(chart.area.bottom);
    }
    // The axis reaches the lowest reading (Z Rx at −11.8 dBm), which sits below the Rx limit on screen.
    expect(chart.yTicks[0]!.value).toBeLessThanOrEqual(-11.8);
    const rxLimit = chart.thresholds.find((threshold) => threshold.kind === 'rx')!;
    expect(rxLimit.y).toBeLessThan(chart.area.bottom);
  });

  it('labels the dBm axis with a true minus sign', () => {
    expect(chart.yTicks.some((tick) => tick.label.startsWith('−'))).toBe(true);
  });
});

describe('buildPowerChart at hour resolution', () => {
  const chart = buildPowerChart(hourlyTelemetry(), { width: 800, plotHeight: 240, sideNames: SIDE_NAMES });
  const aRx = chart.lines.find((line) => line.key === 'a-rx')!;

  it('draws the average with a min–max band, both broken across the missing hours', () => {
    expect(chart.resolution).toBe('hour');
    expect(segments(aRx.path)).toBe(2);
    expect(aRx.band).not.toBeNull();
    expect(segments(aRx.band!)).toBe(2);
  });

  it('marks hours with dark samples and counts them', () => {
    expect(chart.noLight).toHaveLength(1);
    expect(chart.noLight[0]).toMatchObject({ series: 'a-rx', samples: 3 });
    expect(chart.noLight[0]!.text).toMatch(/3 dark samples in the hour/);
  });

  it('leaves the side without data empty, and draws per-side limits when they differ', () => {
    expect(chart.lines.find((line) => line.key === 'z-rx')!.path).toBe('');
    expect(chart.thresholds.map((threshold) => threshold.text)).toContain('Rx low A: −10.3 dBm');
    expect(chart.thresholds.map((threshold) => threshold.text)).toContain('Rx low Z: −11.0 dBm');
  });
});

describe('helpers', () => {
  it('merges equal limits and skips missing ones', () => {
    const a = catalogThresholds();
    const z = { ...catalogThresholds(), output_power_lower_dbm: { value: null, provenance: null } };
    expect(lowerLimits({ a, z })).toEqual([
      { kind: 'rx', value: -10.3, sides: ['a', 'z'], provenance: ['catalog'] },
      { kind: 'tx', value: -8.4, sides: ['a'], provenance: ['catalog'] },
    ]);
  });

  it('pads the y domain and has a sensible default without data', () => {
    expect(powerDomain([-3, -3])).toEqual([-4, -2]);
    expect(powerDomain([])).toEqual([-15, 5]);
    expect(formatDbm(-3.14)).toBe('−3.1 dBm');
  });

  it('says so when nothing was measured', () => {
    const empty = rawTelemetry();
    for (const side of ['a', 'z'] as const) {
      empty.sides[side] = { time: [], input_power_dbm: [], output_power_dbm: [], rx_no_light: [], tx_no_light: [] };
    }
    expect(buildPowerChart(empty, { width: 400, plotHeight: 200, sideNames: SIDE_NAMES }).hasData).toBe(false);
  });
});
