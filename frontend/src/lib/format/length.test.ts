import { describe, expect, it } from 'vitest';

import { lengthHint } from './length';

describe('lengthHint', () => {
  it('says the limit, counts near it and names the excess past it', () => {
    expect(lengthHint(10, 100)).toEqual({ text: 'Up to 100 characters.', over: false });
    expect(lengthHint(85, 100)).toEqual({ text: 'Up to 100 characters (85 now).', over: false });
    expect(lengthHint(100, 100)).toEqual({ text: 'Up to 100 characters (100 now).', over: false });
    expect(lengthHint(120, 100)).toEqual({ text: '120 characters: up to 100, 20 too many.', over: true });
  });
});
