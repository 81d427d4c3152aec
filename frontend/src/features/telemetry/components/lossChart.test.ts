import { describe, expect, it } from 'vitest';

import { buildLossChart, clampRate, formatDecade, LOSS_FLOOR, lossDomain, lossPoints } from './lossChart';
import { buildPowerChart } from './powerChart';
import { forecastAnswer, HOUR, iso, rawTelemetry, T0 } from './testTelemetry';

const segments = (path: string) => (path.match(/M/g) ?? []).length;

describe('formatDecade', () => {
  it('writes an axis decade as a power of ten', () => {
    expect(formatDecade(-12)).toBe('10⁻¹²');
    expect(formatDecade(0)).toBe('1');
  });
});

describe('clampRate', () => {
  it('lifts zero (and anything below the floor) to the floor, leaves real rates alone', () => {
    expect(clampRate(0)).toEqual({ drawn: LOSS_FLOOR, clamped: true });
    expect(clampRate(1e-14)).toEqual({ drawn: LOSS_FLOOR, clamped: true });
    expect(clampRate(1e-6)).toEqual({ drawn: 1e-6, clamped: false });
  });
});

describe('lossPoints', () => {
  it('keeps a null rate as a gap, never a zero', () => {
    const points = lossPoints([iso(T0), iso(T0 + HOUR), iso(T0 + 2 * HOUR)], [1e-6, null, 0]);
    expect(points.map((point) => point.drawn)).toEqual([1e-6, null, LOSS_FLOOR]);
    expect(points.map((point) => point.rate)).toEqual([1e-6, null, 0]);
  });

  it('breaks at missing windows that the API did not mark', () => {
    const times = [0, 1, 2, 8, 9].map((step) => iso(T0 + step * 15 * 60_000));
    const points = lossPoints(times, [1e-6, 1e-6, 1e-6, 1e-6, 1e-6]);
    expect(points.filter((point) => point.drawn === null)).toHaveLength(1);
  });
});

describe('lossDomain', () => {
  it('spans whole decades around the rates and both thresholds', () => {
    expect(lossDomain([5e-5], [1e-6, 1e-8])).toEqual([1e-9, 1e-4]);
  });

  it('reaches down to the floor when a rate is zero, and never above 1', () => {
    expect(lossDomain([0, 2e-5], [1e-6, 1e-8])[0]).toBe(LOSS_FLOOR);
    expect(lossDomain([0.5], [1e-6, 1e-8])[1]).toBe(1);
  });
});

describe('buildLossChart', () => {
  const telemetry = rawTelemetry();
  const chart = buildLossChart(telemetry, { width: 800, plotHeight: 240 });
  const byKey = new Map(chart.lines.map((line) => [line.key, line]));

  it('draws corruption and congestion of both directions, each broken at the reported gap', () => {
    expect(chart.lines.map((line) => line.label)).toEqual([
      'A→Z corruption',
      'Z→A corruption',
      'A→Z congestion',
      'Z→A congestion',
    ]);
    for (const line of chart.lines) {
      expect(segments(line.path)).toBe(2);
      expect(line.gaps).toBe(1);
      expect(line.measured).toBe(4);
    }
  });

  it('puts zero rates on the floor, labelled 0, and says that some were clamped', () => {
    expect(chart.hasClampedZeros).toBe(true);
    const floor = chart.yTicks[0]!;
    expect(floor).toMatchObject({ value: LOSS_FLOOR, label: '0' });
    expect(floor.position).toBeCloseTo(chart.area.bottom);
    const zeros = byKey.get('z_to_a-corruption')!.dots;
    expect(zeros).toHaveLength(4);
    for (const dot of zeros) {
      expect(dot.clamped).toBe(true);
      expect(dot.y).toBeCloseTo(chart.area.bottom);
    }
    expect(byKey.get('a_to_z-corruption')!.dots.every((dot) => !dot.clamped)).toBe(true);
  });

  it('places the action threshold above the report threshold, and a corrupting rate above the action line', () => {
    const action = chart.thresholds.find((threshold) => threshold.key === 'action')!;
    const report = chart.thresholds.find((threshold) => threshold.key === 'report')!;
    expect(action.y).toBeLessThan(report.y);
    expect(action.text).toBe('action 1.0 × 10⁻⁶');
    for (const dot of byKey.get('a_to_z-corruption')!.dots) expect(dot.y).toBeLessThan(action.y);
  });

  it('labels every decade on a tall chart and thins them on a short one', () => {
    const decades = chart.yTicks.map((tick) => tick.label);
    expect(decades).toContain('10⁻⁶');
    expect(decades.length).toBeGreaterThan(8);
    const short = buildLossChart(telemetry, { width: 320, plotHeight: 120 });
    expect(short.yTicks.length).toBeLessThan(chart.yTicks.length);
    expect(short.yTicks[0]!.label).toBe('0');
  });

  it('has no clamped zeros and no floor label when every rate is positive', () => {
    const positive = rawTelemetry();
    positive.loss.z_to_a.corruption.rate = [1e-9, 1e-9, null, 1e-9, 1e-9];
    positive.loss.z_to_a.congestion.rate = [1e-7, 1e-7, null, 1e-7, 1e-7];
    const model = buildLossChart(positive, { width: 800, plotHeight: 240 });
    expect(model.hasClampedZeros).toBe(false);
    expect(model.yTicks.map((tick) => tick.label)).not.toContain('0');
    expect(model.yTicks[0]!.label).toBe('10⁻¹⁰');
  });
});

describe('buildLossChart under a power chart with a forecast', () => {
  it('shares the power chart’s time axis: both run to the crossing, on a desktop and on a phone', () => {
    for (const width of [800, 390]) {
      const options = { width, plotHeight: 240 };
      const loss = buildLossChart(rawTelemetry(), { ...options, forecast: forecastAnswer() });
      const power = buildPowerChart(rawTelemetry(), {
        ...options,
        sideNames: { a: 'A', z: 'Z' },
        forecast: forecastAnswer(),
      });
      expect(loss.x.domain()).toEqual(power.x.domain());
      expect(loss.x.domain()[1]!.getTime()).toBeGreaterThan(Date.parse(rawTelemetry().to));
    }
  });

  it('keeps the range without a forecast', () => {
    const loss = buildLossChart(rawTelemetry(), { width: 800, plotHeight: 240, forecast: null });
    expect(loss.x.domain()[1]!.toISOString()).toBe(new Date(rawTelemetry().to).toISOString());
  });
});
