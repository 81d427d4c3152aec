import { describe, expect, it } from 'vitest';

import { formatTime } from '@/lib/format';

import { HOUR, MINUTE, T0 } from './testTelemetry';
import {
  breakAtGaps,
  formatTimeTick,
  labelBaselines,
  plotArea,
  timeScale,
  timeTicks,
  toPoints,
  typicalStepMs,
} from './timeSeries';

describe('toPoints', () => {
  it('zips times and values, a missing value becoming null', () => {
    expect(toPoints(['2026-11-22T00:00:00Z', '2026-11-22T00:05:00Z'], [-3.1])).toEqual([
      { t: T0, v: -3.1 },
      { t: T0 + 5 * MINUTE, v: null },
    ]);
  });
});

describe('typicalStepMs', () => {
  it('is the median spacing, robust to one long hole', () => {
    expect(typicalStepMs([0, 5, 10, 15, 100, 105])).toBe(5);
    expect(typicalStepMs([42])).toBeNull();
    expect(typicalStepMs([42, 42])).toBeNull();
  });
});

describe('breakAtGaps', () => {
  it('inserts a null between samples much further apart than the usual step', () => {
    const points = [0, 5, 10, 40, 45].map((minute) => ({ t: T0 + minute * MINUTE, v: -3 }));
    const broken = breakAtGaps(points);
    expect(broken).toHaveLength(6);
    expect(broken[3]).toEqual({ t: T0 + 25 * MINUTE, v: null });
  });

  it('leaves evenly spaced samples and single samples alone', () => {
    const even = [0, 5, 10, 15].map((minute) => ({ t: T0 + minute * MINUTE, v: -3 }));
    expect(breakAtGaps(even)).toEqual(even);
    expect(breakAtGaps([{ t: T0, v: 1 }])).toEqual([{ t: T0, v: 1 }]);
  });
});

describe('time axis', () => {
  it('maps the range onto the plot and labels ticks in UTC, fewer on a narrow chart', () => {
    const from = '2026-11-22T00:00:00Z';
    const to = '2026-11-22T06:00:00Z';
    const wide = plotArea(1000, 200);
    const x = timeScale(from, to, wide);
    expect(x(new Date(from))).toBe(wide.left);
    expect(x(new Date(to))).toBe(wide.right);
    const ticks = timeTicks(x);
    expect(ticks.some((tick) => tick.label === '02:00')).toBe(true);
    const narrow = timeTicks(timeScale(from, to, plotArea(320, 200)));
    expect(narrow.length).toBeLessThan(ticks.length);
    expect(narrow.length).toBeGreaterThanOrEqual(2);
    // Round times only: every tick on a whole half hour of a six-hour range.
    for (const tick of ticks) expect(tick.value % (HOUR / 2)).toBe(0);
  });

  it('formats times as UTC minutes', () => {
    expect(formatTime('2026-11-22T17:30:45Z')).toBe('2026-11-22 17:30 UTC');
    expect(formatTime(null)).toBe('—');
  });
});

describe('formatTimeTick', () => {
  it('shows the date at midnight and a 24-hour clock otherwise', () => {
    expect(formatTimeTick(new Date('2026-11-22T00:00:00Z'))).toBe('Nov 22');
    expect(formatTimeTick(new Date('2026-11-22T14:30:00Z'))).toBe('14:30');
  });
});

describe('labelBaselines', () => {
  const area = plotArea(600, 200);

  it('puts labels just above their lines when there is room', () => {
    expect(labelBaselines([60, 150], area)).toEqual([56, 146]);
  });

  it('moves a label below its line when it would overlap the one above', () => {
    const [upper, lower] = labelBaselines([60, 66], area);
    expect(upper).toBe(56);
    expect(lower).toBe(78);
  });
});
