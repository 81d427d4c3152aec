import { describe, expect, it } from 'vitest';

import { readoutAt, readoutTimes, type ReadoutSeries } from './readout';

const T0 = Date.parse('2026-11-27T13:00:00Z');
const MIN = 60_000;
const dbm = (value: number) => `${value.toFixed(1)} dBm`;

const series: ReadoutSeries[] = [
  {
    key: 'a-rx',
    label: 'A Rx',
    colour: 'red',
    format: dbm,
    points: [
      { t: T0, v: -7.9 },
      { t: T0 + 5 * MIN, v: null },
      { t: T0 + 10 * MIN, v: -8.4 },
    ],
  },
  { key: 'z-rx', label: 'Z Rx', colour: 'blue', format: dbm, points: [{ t: T0 + 11 * MIN, v: -2.6 }] },
];

describe('the hover readout', () => {
  it("reads the nearest reading's time and every line's value near it", () => {
    const readout = readoutAt(series, T0 + 9 * MIN, 2 * MIN);
    expect(readout?.time).toBe('2026-11-27 13:10 UTC');
    expect(readout?.rows.map((row) => `${row.label} ${row.text}`)).toEqual(['A Rx -8.4 dBm', 'Z Rx -2.6 dBm']);
  });

  it('skips gaps and lines with nothing near', () => {
    const readout = readoutAt(series, T0 + 4 * MIN, 2 * MIN);
    expect(readout?.time).toBe('2026-11-27 13:00 UTC');
    expect(readout?.rows.map((row) => row.key)).toEqual(['a-rx']);
    expect(readoutAt([{ ...series[1]!, points: [] }], T0, MIN)).toBeNull();
  });

  it('steps through every time with a reading', () => {
    expect(readoutTimes(series)).toEqual([T0, T0 + 10 * MIN, T0 + 11 * MIN]);
  });
});
