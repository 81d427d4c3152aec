import { describe, expect, it } from 'vitest';

import {
  activePresetKey,
  brushedRange,
  MAX_RANGE_MS,
  MIN_RANGE_MS,
  presetRange,
  rangeFromSearchParams,
  searchParamsWithRange,
  telemetryQuery,
  zoomedOutRange,
} from './timeRange';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-22T12:00:20Z');

describe('range in the URL', () => {
  it('reads a valid from/to pair', () => {
    const range = rangeFromSearchParams(new URLSearchParams('from=2026-11-22T06:00:00Z&to=2026-11-22T12:00:00Z'));
    expect(range).toEqual({ from: new Date('2026-11-22T06:00:00Z'), to: new Date('2026-11-22T12:00:00Z') });
    expect(telemetryQuery(range)).toEqual({ from: '2026-11-22T06:00:00Z', to: '2026-11-22T12:00:00Z' });
  });

  it('falls back to the default for half, reversed, zoneless or junk ranges', () => {
    for (const query of [
      'from=2026-11-22T06:00:00Z',
      'from=2026-11-22T12:00:00Z&to=2026-11-22T06:00:00Z',
      'from=2026-11-22T06:00:00&to=2026-11-22T12:00:00',
      'from=yesterday&to=now',
      'from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      expect(rangeFromSearchParams(new URLSearchParams(query)), query).toBeNull();
    }
    expect(telemetryQuery(null)).toEqual({});
  });

  it('keeps other parameters when the range changes, and drops from/to for the default', () => {
    const params = new URLSearchParams('tab=events&from=2026-11-22T06:00:00Z&to=2026-11-22T12:00:00Z');
    const zoomed = searchParamsWithRange(params, {
      from: new Date('2026-11-22T07:00:00.400Z'),
      to: new Date('2026-11-22T08:00:00Z'),
    });
    expect(zoomed.toString()).toBe('tab=events&from=2026-11-22T07%3A00%3A00Z&to=2026-11-22T08%3A00%3A00Z');
    expect(searchParamsWithRange(zoomed, null).toString()).toBe('tab=events');
  });
});

describe('presets', () => {
  it('ends on the next whole minute after now', () => {
    const range = presetRange(6 * HOUR, NOW);
    expect(range.to.toISOString()).toBe('2026-11-22T12:01:00.000Z');
    expect(range.to.getTime() - range.from.getTime()).toBe(6 * HOUR);
  });

  it('marks the preset with the same span, and 24 h for the default', () => {
    expect(activePresetKey(null)).toBe('24h');
    expect(activePresetKey(presetRange(7 * 24 * HOUR, NOW))).toBe('7d');
    expect(activePresetKey({ from: new Date('2026-11-22T06:00:00Z'), to: new Date('2026-11-22T08:30:00Z') })).toBe(
      undefined,
    );
  });
});

describe('brushedRange', () => {
  it('orders the ends and rounds them to the second', () => {
    const range = brushedRange(new Date('2026-11-22T10:00:00.700Z'), new Date('2026-11-22T08:00:00.200Z'));
    expect(range).toEqual({ from: new Date('2026-11-22T08:00:00Z'), to: new Date('2026-11-22T10:00:01Z') });
  });

  it('widens a sliver to the minimum span around its middle', () => {
    const range = brushedRange(new Date('2026-11-22T10:00:00Z'), new Date('2026-11-22T10:02:00Z'));
    expect(range.to.getTime() - range.from.getTime()).toBe(MIN_RANGE_MS);
    expect((range.to.getTime() + range.from.getTime()) / 2).toBe(new Date('2026-11-22T10:01:00Z').getTime());
  });
});

describe('zoomedOutRange', () => {
  it('doubles the span around the middle', () => {
    const range = zoomedOutRange({ from: new Date('2026-11-20T10:00:00Z'), to: new Date('2026-11-20T12:00:00Z') }, NOW);
    expect(range).toEqual({ from: new Date('2026-11-20T09:00:00Z'), to: new Date('2026-11-20T13:00:00Z') });
  });

  it('does not reach into the future and stops at the longest range', () => {
    const recent = zoomedOutRange(
      { from: new Date('2026-11-22T10:00:00Z'), to: new Date('2026-11-22T12:00:00Z') },
      NOW,
    );
    expect(recent.to.getTime()).toBe(new Date('2026-11-22T12:00:20Z').getTime());
    expect(recent.to.getTime() - recent.from.getTime()).toBe(4 * HOUR);
    const huge = zoomedOutRange({ from: new Date(NOW.getTime() - MAX_RANGE_MS), to: NOW }, NOW);
    expect(huge.to.getTime() - huge.from.getTime()).toBe(MAX_RANGE_MS);
  });
});
