import { describe, expect, it } from 'vitest';

import { formatLossRate, formatMeters } from './number';

describe('formatLossRate', () => {
  it('writes small rates as a power of ten, never as 5.4e-4', () => {
    expect(formatLossRate(5.4e-4)).toBe('5.4 × 10⁻⁴');
    expect(formatLossRate(0.000456)).toBe('4.6 × 10⁻⁴');
    expect(formatLossRate(1e-6)).toBe('1.0 × 10⁻⁶');
    expect(formatLossRate(8.523e-12)).toBe('8.5 × 10⁻¹²');
  });

  it('carries a mantissa that rounds up into the next power', () => {
    expect(formatLossRate(9.96e-5)).toBe('1.0 × 10⁻⁴');
  });

  it('writes rates from 1 % up as plain decimals, none as 0, unknown as a dash', () => {
    expect(formatLossRate(0.0123)).toBe('0.012');
    expect(formatLossRate(0.5)).toBe('0.5');
    expect(formatLossRate(0)).toBe('0');
    expect(formatLossRate(null)).toBe('—');
    expect(formatLossRate(undefined)).toBe('—');
    expect(formatLossRate(Number.NaN)).toBe('—');
  });
});

describe('formatMeters', () => {
  it('writes every length one way: the unit, one decimal at most, separators', () => {
    expect(formatMeters(390)).toBe('390 m');
    expect(formatMeters(390.7)).toBe('390.7 m');
    expect(formatMeters(7.84)).toBe('7.8 m');
    expect(formatMeters(1250.04)).toBe('1,250 m');
    expect(formatMeters(null)).toBe('—');
  });
});
