import { describe, expect, it } from 'vitest';

import { labelStride } from './labelStride';

describe('labelStride', () => {
  it('labels every span when there is room', () => {
    expect(labelStride(200, 6)).toBe(1);
  });

  it('skips spans when labels would overlap', () => {
    // "pod 12" is about 47px with padding; 15px spans fit one label in four.
    expect(labelStride(15, 6)).toBe(4);
  });

  it('labels nothing when spans have no width', () => {
    expect(labelStride(0, 6)).toBe(Number.POSITIVE_INFINITY);
  });
});
