import { describe, expect, it } from 'vitest';

import {
  formatAge,
  formatCount,
  formatDbm,
  formatGbit,
  formatGbps,
  formatHours,
  formatPercent,
  formatSeconds,
  formatClock,
  formatTime,
  formatTimeRange,
  formatTimeWithAge,
  formatReason,
  parseTimeInput,
  TIME_INPUT_EXAMPLE,
  TIME_INPUT_PATTERN,
  timeInputValue,
} from '.';

describe('formatTime', () => {
  it('shows a UTC instant to the minute with the zone spelled out', () => {
    expect(formatTime('2026-11-26T16:22:41Z')).toBe('2026-11-26 16:22 UTC');
  });

  it('converts an offset to UTC whatever the browser zone is', () => {
    expect(formatTime('2026-11-26T18:22:00+02:00')).toBe('2026-11-26 16:22 UTC');
    expect(formatTime('2026-12-31T23:30:00-01:00')).toBe('2027-01-01 00:30 UTC');
  });

  it('shows a dash for no time and an unreadable value as it came', () => {
    expect(formatTime(null)).toBe('—');
    expect(formatTime(undefined)).toBe('—');
    expect(formatTime('')).toBe('—');
    expect(formatTime('yesterday')).toBe('yesterday');
  });
});

describe('number formats', () => {
  it('groups thousands in counts', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('shows fractions as percents', () => {
    expect(formatPercent(0.1234)).toBe('12.3%');
    expect(formatPercent(0.5, 0)).toBe('50%');
    expect(formatPercent(0.00123, 2)).toBe('0.12%');
    expect(formatPercent(Number.NaN)).toBe('—');
  });

  it('shows optical power in dBm with one decimal and a true minus sign', () => {
    expect(formatDbm(-13.64)).toBe('−13.6 dBm');
    expect(formatDbm(-0.04)).toBe('0.0 dBm'); // no "−0.0"
    expect(formatDbm(2)).toBe('2.0 dBm');
    expect(formatDbm(null)).toBe('—');
  });

  it('shows link speeds in Gb/s', () => {
    expect(formatGbps(100)).toBe('100 Gb/s');
    expect(formatGbps(1600)).toBe('1,600 Gb/s');
    expect(formatGbps(null)).toBe('—');
  });

  it('shows durations in the unit that reads best', () => {
    expect(formatSeconds(0.0125)).toBe('12.5 ms');
    expect(formatSeconds(90)).toBe('90 s');
    expect(formatSeconds(600)).toBe('10 min');
    expect(formatSeconds(Number.POSITIVE_INFINITY)).toBe('—');
    expect(formatHours(1.25)).toBe('1.3 h');
    expect(formatHours(null)).toBe('—');
  });

  it('shows ages coarsely', () => {
    const now = new Date('2026-11-26T16:00:00Z');
    expect(formatAge('2026-11-26T15:15:00Z', now)).toBe('45 min');
    expect(formatAge('2026-11-26T11:00:00Z', now)).toBe('5 h');
    expect(formatAge('2026-11-23T16:00:00Z', now)).toBe('3 d');
    expect(formatAge(null, now)).toBe('—');
  });
});

describe('formatTimeRange', () => {
  it('names the day once when a window stays within it', () => {
    expect(formatTimeRange('2026-11-27T08:00:00Z', '2026-11-27T09:30:00Z')).toBe('2026-11-27 08:00–09:30 UTC');
  });

  it('names both days when a window crosses midnight UTC', () => {
    expect(formatTimeRange('2026-11-27T23:00:00Z', '2026-11-28T01:15:00+00:00')).toBe(
      '2026-11-27 23:00 – 2026-11-28 01:15 UTC',
    );
  });

  it('shows a dash when an end is missing or unreadable', () => {
    expect(formatTimeRange(null, '2026-11-27T09:30:00Z')).toBe('—');
    expect(formatTimeRange('2026-11-27T08:00:00Z', 'later')).toBe('—');
  });
});

describe('formatClock', () => {
  it('shows the UTC clock time of an instant', () => {
    expect(formatClock('2026-11-27T10:05:00+02:00')).toBe('08:05');
    expect(formatClock(new Date(Date.UTC(2026, 10, 27, 16, 0)))).toBe('16:00');
  });
});

describe('formatGbit', () => {
  it('reads big volumes with a prefix instead of an exponent', () => {
    expect(formatGbit(5.42e6)).toBe('5.42 Pbit');
    expect(formatGbit(3683.100000000002)).toBe('3.68 Tbit');
    expect(formatGbit(512)).toBe('512 Gbit');
    expect(formatGbit(12.345)).toBe('12.3 Gbit');
    expect(formatGbit(0)).toBe('0 Gbit');
    expect(formatGbit(2.5e12)).toBe('2,500 Ebit');
    expect(formatGbit(null)).toBe('—');
  });
});

describe('times typed and read with their age', () => {
  const now = new Date('2026-11-26T19:30:00Z');

  it('puts how long ago (or how soon) beside the one time format', () => {
    expect(formatTimeWithAge('2026-11-26T16:22:37Z', now)).toBe('2026-11-26 16:22 UTC (3 h ago)');
    expect(formatTimeWithAge('2026-11-26T21:30:00Z', now)).toBe('2026-11-26 21:30 UTC (in 2 h)');
    expect(formatTimeWithAge(null, now)).toBe('—');
  });

  it('reads a typed time as UTC in the format it is shown in, and refuses what is not a time', () => {
    expect(parseTimeInput('2026-11-26 16:22')).toBe('2026-11-26T16:22:00Z');
    expect(parseTimeInput(' 2026-11-26 16:22 UTC ')).toBe('2026-11-26T16:22:00Z');
    expect(parseTimeInput('2026-11-26')).toBe('2026-11-26T00:00:00Z');
    expect(parseTimeInput('2026-02-30 10:00')).toBeUndefined();
    expect(parseTimeInput('11/26/2026, 4:28 PM')).toBeUndefined();
    expect(parseTimeInput('')).toBeUndefined();
    expect(timeInputValue('2026-11-26T16:22:00Z')).toBe('2026-11-26 16:22');
    expect(timeInputValue(undefined)).toBe('');
    expect(new RegExp(`^${TIME_INPUT_PATTERN}$`).test(TIME_INPUT_EXAMPLE)).toBe(true);
  });
});

describe('formatReason', () => {
  it('puts the codes of a reason in words and leaves the rest as typed', () => {
    expect(formatReason('repair: reseat_transceiver')).toBe('repair: reseat transceiver');
    expect(formatReason('corruption')).toBe('corruption');
    expect(formatReason('Bent fiber at rack R12, ticket 7')).toBe('Bent fiber at rack R12, ticket 7');
  });
});
