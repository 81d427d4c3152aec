import { describe, expect, it } from 'vitest';

import { RUN_RESULT } from './fixtures/larry';
import { buildUplinkChart, timeUnit } from './uplinkChart';

describe('uplink chart', () => {
  const chart = buildUplinkChart(RUN_RESULT, 800, 1);

  it('draws one row per rack and one bar per step on a shared time axis', () => {
    expect(chart.rows.map((row) => row.name)).toEqual(['rack 0', 'rack 1', 'rack 2', 'rack 3']);
    expect(chart.rows.every((row) => row.bars.length === RUN_RESULT.series.time_s.length)).toBe(true);
    expect(chart.rows[0]!.bars[0]!.x).toBe(chart.left);
    const last = chart.rows[0]!.bars.at(-1)!;
    expect(last.x + last.width).toBeCloseTo(chart.right - 1, 5);
    expect(chart.xTitle).toBe('Time since the counters start (s)');
  });

  it('marks only the racks whose circuits moved at a step', () => {
    const changed = chart.rows.map((row) => row.bars.filter((bar) => bar.changed).map((bar) => bar.index));
    // Step 1: racks 1-3 each give a circuit to rack 0; step 3: rack 0 gives three to rack 2.
    expect(changed).toEqual([[1, 3], [1], [1, 3], [1]]);
  });

  it('scales bars to uplinks, with taller bars for more uplinks, and puts the cursor on the chosen step', () => {
    const hot = chart.rows[0]!;
    expect(hot.bars[1]!.uplinks).toBe(6);
    expect(hot.bars[1]!.height).toBeGreaterThan(hot.bars[0]!.height);
    expect(hot.staticY).toBeLessThan(hot.bottom);
    expect(chart.cursorX).toBeCloseTo(hot.bars[1]!.x + (hot.bars[2]!.x - hot.bars[1]!.x) / 2, 5);
  });

  it('zooms to a range of steps on the whole run’s value scale, and maps pixels back to steps', () => {
    const zoomed = buildUplinkChart(RUN_RESULT, 800, 0, [1, 3]);
    const hot = zoomed.rows[0]!;
    expect(hot.bars.map((bar) => bar.index)).toEqual([1, 2, 3]);
    expect(hot.bars[0]!.x).toBe(zoomed.left);
    expect(hot.yTicks).toEqual(chart.rows[0]!.yTicks);
    // Step 0 is outside the zoom: no cursor.
    expect(zoomed.cursorX).toBeNull();
    expect(zoomed.indexAtX(hot.bars[1]!.x + 1)).toBe(2);
    expect(zoomed.indexAtX(zoomed.left - 50)).toBe(1);
    expect(zoomed.indexAtX(zoomed.right + 50)).toBe(3);
  });

  it('picks a time unit that keeps labels short', () => {
    expect(timeUnit(30).label).toBe('s');
    expect(timeUnit(3600).label).toBe('min');
    expect(timeUnit(86400).label).toBe('h');
  });
});
