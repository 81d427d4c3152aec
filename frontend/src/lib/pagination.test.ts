import { describe, expect, it } from 'vitest';

import { clampPage, pageCount, pageOffset, parsePageParam, rangeLabel } from './pagination';

describe('pagination', () => {
  it('counts pages, at least one', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });

  it('turns 1-based pages into offsets', () => {
    expect(pageOffset(1, 50)).toBe(0);
    expect(pageOffset(3, 50)).toBe(100);
    expect(pageOffset(0, 50)).toBe(0);
  });

  it('clamps pages from the URL', () => {
    expect(clampPage(9, 120, 50)).toBe(3);
    expect(clampPage(-2, 120, 50)).toBe(1);
    expect(clampPage(Number.NaN, 120, 50)).toBe(1);
    expect(parsePageParam('abc')).toBe(1);
    expect(parsePageParam('4')).toBe(4);
    expect(parsePageParam(null)).toBe(1);
  });

  it('labels the visible range', () => {
    expect(rangeLabel(1234, 50, 50)).toBe('51–100 of 1,234');
    expect(rangeLabel(0, 0, 0)).toBe('No rows');
  });
});
