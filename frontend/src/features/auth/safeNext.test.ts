import { describe, expect, it } from 'vitest';

import { safeNext } from './safeNext';

describe('safeNext', () => {
  it('keeps same-site paths', () => {
    expect(safeNext('/links?fabric=2')).toBe('/links?fabric=2');
  });

  it('refuses other sites, the login page itself and nothing', () => {
    expect(safeNext('https://evil.example/')).toBe('/fabrics');
    expect(safeNext('//evil.example/')).toBe('/fabrics');
    expect(safeNext('/\\evil.example/')).toBe('/fabrics');
    expect(safeNext('/login?next=/x')).toBe('/fabrics');
    expect(safeNext(null)).toBe('/fabrics');
  });
});
