import { describe, expect, it } from 'vitest';

import type { MetricsHistoryBucket, SuccessRate, TicketMetricsHistory } from '@/features/tickets';

import { buildSuccessRateChart, buildTicketCountChart } from './repairHistoryChart';

const SIZE = { width: 600, height: 240 };

function rate(attempts: number, fixed: number): SuccessRate {
  return { attempts, fixed, rate: attempts ? fixed / attempts : null };
}

function day(date: string, fields: Partial<MetricsHistoryBucket> = {}): MetricsHistoryBucket {
  const start = new Date(`${date}T00:00:00Z`);
  return {
    start: start.toISOString(),
    end: new Date(start.getTime() + 86_400_000).toISOString(),
    tickets_opened: 0,
    tickets_resolved: 0,
    open_tickets: 0,
    first_attempt: { all: rate(0, 0), followed: rate(0, 0), not_followed: rate(0, 0) },
    mean_time_to_repair_hours: null,
    repaired_tickets: 0,
    links_disabled: 0,
    repair_actions: 0,
    preventive_first_attempt: rate(0, 0),
    ...fields,
  };
}

function history(buckets: MetricsHistoryBucket[], bucket: 'day' | 'week' = 'day'): TicketMetricsHistory {
  return { fabric: 1, bucket, from: buckets[0]!.start, to: buckets.at(-1)!.end, buckets };
}

/** Three days: attempts on the 2nd (one followed and fixed, one not and not fixed) and the 4th; none on the 3rd. */
const THREE_DAYS = history([
  day('2026-11-02', {
    tickets_opened: 2,
    open_tickets: 2,
    first_attempt: { all: rate(2, 1), followed: rate(1, 1), not_followed: rate(1, 0) },
  }),
  day('2026-11-03', { tickets_resolved: 1, open_tickets: 1 }),
  day('2026-11-04', {
    tickets_opened: 3,
    open_tickets: 4,
    first_attempt: { all: rate(1, 1), followed: rate(1, 1), not_followed: rate(0, 0) },
  }),
]);

describe('buildSuccessRateChart', () => {
  const chart = buildSuccessRateChart(THREE_DAYS, SIZE);
  const line = (key: string) => chart.lines.find((l) => l.key === key)!;

  it('draws all, followed and not followed as separate lines on a 0–100 % axis', () => {
    expect(chart.lines.map((l) => l.key)).toEqual(['all', 'followed', 'not_followed']);
    expect(chart.yTitle).toBe('First-attempt success (%)');
    expect(chart.yTicks.map((t) => t.label)).toEqual(['0%', '20%', '40%', '60%', '80%', '100%']);
    expect(line('followed').points.map((p) => p.y)).toEqual([chart.area.top, chart.area.top]);
    expect(line('not_followed').points.map((p) => p.y)).toEqual([chart.area.bottom]);
    expect(line('all').points.map((p) => p.y)).toEqual([(chart.area.top + chart.area.bottom) / 2, chart.area.top]);
  });

  it('breaks a line over a day without attempts instead of drawing it at 0 %', () => {
    // Two days with values around a gap: two separate segments (two moves), no point on the 3rd.
    expect(line('all').path.match(/M/g)).toHaveLength(2);
    expect(line('all').points.map((p) => p.start.slice(0, 10))).toEqual(['2026-11-02', '2026-11-04']);
    expect(chart.hasData).toBe(true);
  });

  it('places each value at the middle of its day, on an axis from the first start to the last end', () => {
    const width = chart.area.right - chart.area.left;
    expect(line('all').points[0]!.x).toBeCloseTo(chart.area.left + width / 6);
    expect(line('all').points[1]!.x).toBeCloseTo(chart.area.left + (5 * width) / 6);
    expect(chart.xTitle).toBe('Date (UTC, per day)');
    expect(chart.xTicks[0]!.label).toBe('Nov 2');
  });

  it('has nothing to draw when no first attempt has an outcome', () => {
    const empty = buildSuccessRateChart(history([day('2026-11-02'), day('2026-11-03')], 'week'), SIZE);
    expect(empty.hasData).toBe(false);
    expect(empty.xTitle).toBe('Date (UTC, per ISO week)');
  });
});

describe('buildTicketCountChart', () => {
  const chart = buildTicketCountChart(THREE_DAYS, SIZE);

  it('draws opened, resolved and unresolved tickets with whole-number ticks up to the largest count', () => {
    expect(chart.lines.map((l) => [l.key, l.points.map((p) => p.value)])).toEqual([
      ['opened', [2, 0, 3]],
      ['resolved', [0, 1, 0]],
      ['open', [2, 1, 4]],
    ]);
    expect(chart.yTitle).toBe('Tickets');
    expect(chart.yTicks.every((t) => Number.isInteger(t.value))).toBe(true);
    expect(chart.yTicks.at(-1)?.value).toBe(4);
    // Empty days are drawn at 0: the line is continuous.
    expect(chart.lines[1]!.path.match(/M/g)).toHaveLength(1);
  });

  it('keeps a usable axis when there is no ticket at all', () => {
    const quiet = buildTicketCountChart(history([day('2026-11-02')]), SIZE);
    expect(quiet.yTicks.map((t) => t.label)).toEqual(['0', '1']);
    expect(quiet.lines[0]!.points[0]!.y).toBe(quiet.area.bottom);
  });
});
