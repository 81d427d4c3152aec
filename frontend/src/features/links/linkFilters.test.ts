import { describe, expect, it } from 'vitest';

import { filtersFromSearchParams, searchParamsFromFilters } from './linkFilters';

describe('link filters in the URL', () => {
  it('reads valid filters and ignores junk', () => {
    expect(
      filtersFromSearchParams(new URLSearchParams('fabric=3&admin_state=disabled&oper_state=sideways&switch=x')),
    ).toEqual({
      fabric: 3,
      admin_state: 'disabled',
      oper_state: undefined,
      switch: undefined,
    });
  });

  it('round-trips and drops the page when it is the first', () => {
    const params = searchParamsFromFilters({ fabric: 3, oper_state: 'down' }, 1);
    expect(params.toString()).toBe('fabric=3&oper_state=down');
    expect(searchParamsFromFilters({ fabric: 3 }, 4).toString()).toBe('fabric=3&page=4');
    expect(filtersFromSearchParams(params)).toMatchObject({ fabric: 3, oper_state: 'down' });
  });
});
