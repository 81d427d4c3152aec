import { describe, expect, it } from 'vitest';

import { buildPowerChart, formatDbm, lowerLimits, POWER_SERIES, powerDomain } from './powerChart';
import { catalogThresholds, forecastAnswer, hourlyTelemetry, rawTelemetry } from './testTelemetry';

const SIDE_NAMES = { a: 'p0-tor0 eth2/1', z: 'p0-fab0 eth1/1' };
const segments = (path: string) => (path.match(/M/g) ?? []).length;

describe('buildPowerChart at raw resolution', () => {
  const chart = buildPowerChart(rawTelemetry(), { width: 800, plotHeight: 240, sideNames: SIDE_NAMES });
  const byKey = new Map(chart.lines.map((line) => [line.key, line]));

  it('draws four distinct, labelled lines: Rx and Tx of each side, each the average of its lanes', () => {
    expect(chart.lines.map((line) => line.label)).toEqual([
      'A Rx, average of lanes (p0-tor0 eth2/1)',
      'A Tx, average of lanes (p0-tor0 eth2/1)',
      'Z Rx, average of lanes (p0-fab0 eth1/1)',
      'Z Tx, average of lanes (p0-fab0 eth1/1)',
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

describe('buildPowerChart with a forecast', () => {
  const HOUR_MS = 60 * 60 * 1000;
  const made = Date.parse('2026-11-22T02:00:00Z');
  /** The points of an "M x,y L x,y" path. */
  const points = (path: string): [number, number][] =>
    [...path.matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
  const options = { width: 800, plotHeight: 240, sideNames: SIDE_NAMES };

  it('stretches the time axis past the range to the crossing when it falls within the horizon', () => {
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer() });
    const [, end] = chart.x.domain();
    const crossing = made + 36 * HOUR_MS;
    // Just past the crossing (4% of the span), so its mark sits off the frame's edge.
    expect(end!.getTime()).toBeCloseTo(crossing + 0.04 * (crossing - Date.parse('2026-11-22T00:00:00Z')), -3);
    expect(chart.forecast?.extended).toBe(true);
    expect(chart.x(crossing)).toBeLessThan(chart.area.right);
    // Ticks now run into the days ahead.
    expect(chart.xTicks.some((tick) => tick.label === 'Nov 23')).toBe(true);
  });

  it('draws the trend from the level when the forecast was made to the limit at the crossing, in the crossing line’s colour', () => {
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer() });
    const marks = chart.forecast!;
    expect(marks.series).toBe('z-rx');
    expect(marks.colour).toBe(POWER_SERIES.find((series) => series.key === 'z-rx')!.colour);
    expect(marks.label).toBe('Forecast: Z Rx lane 2 to its limit');
    const [start, end] = points(marks.trend);
    expect(start![0]).toBeCloseTo(chart.x(made));
    expect(end![0]).toBeCloseTo(chart.x(made + 36 * HOUR_MS));
    const rxLimit = chart.thresholds.find((threshold) => threshold.kind === 'rx')!;
    expect(end![1]).toBeCloseTo(rxLimit.y);
    expect(marks.crossing.x).toBeCloseTo(end![0]);
    expect(marks.crossing.y).toBeCloseTo(end![1]);
    // The level (-8 dBm) sits above the limit on screen: the trend falls to the right.
    expect(start![1]).toBeLessThan(end![1]);
  });

  it('bands the crossing’s interval from its earliest to its latest time, to the plot’s edge when the latest is off it', () => {
    const inside = buildPowerChart(rawTelemetry(), {
      ...options,
      forecast: forecastAnswer({ latest_at: new Date(made + 37 * HOUR_MS).toISOString() }),
    }).forecast!;
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer() });
    expect(inside.band.x1).toBeCloseTo(chart.x(made + 37 * HOUR_MS));
    expect(chart.forecast!.band.x0).toBeCloseTo(chart.x(made + 24 * HOUR_MS));
    expect(chart.forecast!.band).toMatchObject({ x1: chart.area.right, openEnded: false });
    const never = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer({ latest_at: null }) });
    expect(never.forecast!.band).toMatchObject({ x1: never.area.right, openEnded: true });
  });

  it('keeps the range when the crossing is beyond the horizon, the trend running off the plot', () => {
    const far = forecastAnswer({
      crossing_at: new Date(made + 20 * 24 * HOUR_MS).toISOString(),
      earliest_at: new Date(made + 12 * 24 * HOUR_MS).toISOString(),
      latest_at: null,
      at_risk: false,
    });
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: far });
    expect(chart.x.domain()[1]!.toISOString()).toBe('2026-11-22T02:00:00.000Z');
    expect(chart.forecast?.extended).toBe(false);
    expect(chart.forecast!.crossing.x).toBeGreaterThan(chart.area.right);
  });

  it('draws no forecast over a range that ends before the forecast was made', () => {
    const early = { ...rawTelemetry(), to: '2026-11-22T01:00:00Z' };
    const chart = buildPowerChart(early, { ...options, forecast: forecastAnswer() });
    expect(chart.forecast).toBeNull();
    expect(chart.x.domain()[1]!.toISOString()).toBe('2026-11-22T01:00:00.000Z');
  });

  it('draws the limit the forecast crosses when the range’s thresholds do not have it', () => {
    const tx = forecastAnswer({ side: 'a', quantity: 'tx', limit_dbm: -9, limit_provenance: 'manual', level_dbm: -7 });
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: tx });
    expect(chart.thresholds.map((threshold) => threshold.text)).toEqual([
      'Rx low A, Z: −10.3 dBm',
      'Tx low A, Z: −8.4 dBm',
      'Tx low A: −9.0 dBm',
    ]);
    expect(chart.forecast!.series).toBe('a-tx');
    expect(chart.forecast!.crossing.y).toBeCloseTo(chart.thresholds[2]!.y);
  });

  it('starts the trend at a dot of the forecast lane’s level, which may sit below its end’s average line', () => {
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer({ level_dbm: -9.6 }) });
    const marks = chart.forecast!;
    const [start] = points(marks.trend);
    expect(marks.lane.x).toBeCloseTo(start![0]);
    expect(marks.lane.y).toBeCloseTo(start![1]);
    expect(marks.lane.text).toBe('Z Rx lane 2 when forecast: −9.6 dBm');
  });

  it('on a phone gives the days ahead at most 40% of the axis and says at the edge when the crossing is further', () => {
    const now = new Date(made);
    const phone = buildPowerChart(rawTelemetry(), { ...options, width: 390, forecast: forecastAnswer(), now });
    const [from, to] = phone.x.domain().map((date) => date.getTime()) as [number, number];
    const rangeEnd = Date.parse(rawTelemetry().to);
    expect((to - rangeEnd) / (to - from)).toBeCloseTo(0.4);
    expect(phone.forecast!.crossing.x).toBeGreaterThan(phone.area.right);
    expect(phone.forecast!.offPlot).toBe('crossing in 1.5 d →');
    // The same chart on a desktop runs to the crossing and needs no such note.
    const desktop = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer(), now });
    expect(desktop.forecast!.crossing.x).toBeLessThan(desktop.area.right);
    expect(desktop.forecast!.offPlot).toBeNull();
  });

  it('says "crossing in N d" at the edge for a crossing beyond the horizon too', () => {
    const far = forecastAnswer({
      crossing_at: new Date(made + 20 * 24 * HOUR_MS).toISOString(),
      earliest_at: new Date(made + 12 * 24 * HOUR_MS).toISOString(),
      latest_at: null,
      at_risk: false,
    });
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: far, now: new Date(made) });
    expect(chart.forecast!.offPlot).toBe('crossing in 20.0 d →');
  });

  it('draws the limits the forecast does not cross faint, so its trend through them is not read as the crossing', () => {
    const chart = buildPowerChart(rawTelemetry(), { ...options, forecast: forecastAnswer() });
    expect(chart.thresholds.map((threshold) => [threshold.text, threshold.muted])).toEqual([
      ['Rx low A, Z: −10.3 dBm', false],
      ['Tx low A, Z: −8.4 dBm', true],
    ]);
    const plain = buildPowerChart(rawTelemetry(), options);
    expect(plain.thresholds.every((threshold) => !threshold.muted)).toBe(true);
  });

  it('draws nothing more for a link without a forecast', () => {
    const none = buildPowerChart(rawTelemetry(), { ...options, forecast: { ...forecastAnswer(), forecast: null } });
    const plain = buildPowerChart(rawTelemetry(), options);
    expect(none.forecast).toBeNull();
    expect(none.x.domain()).toEqual(plain.x.domain());
    expect(none.thresholds).toEqual(plain.thresholds);
  });
});
