import { describe, expect, it } from 'vitest';

import { activeFilterCount, filtersFromSearchParams, searchParamsFromFilters, toggleHealth } from './linkFilters';

describe('link filters in the URL', () => {
  it('reads valid filters and ignores junk', () => {
    expect(
      filtersFromSearchParams(new URLSearchParams('fabric=3&admin_state=disabled&oper_state=sideways&switch=x')),
    ).toEqual({
      fabric: 3,
      admin_state: 'disabled',
      oper_state: undefined,
      switch: undefined,
      health: undefined,
      rx_low: undefined,
      flapping: undefined,
    });
  });

  it('round-trips and drops the page when it is the first', () => {
    const params = searchParamsFromFilters({ fabric: 3, oper_state: 'down' }, 1);
    expect(params.toString()).toBe('fabric=3&oper_state=down');
    expect(searchParamsFromFilters({ fabric: 3 }, 4).toString()).toBe('fabric=3&page=4');
    expect(filtersFromSearchParams(params)).toMatchObject({ fabric: 3, oper_state: 'down' });
  });

  it('reads a repeated health parameter as several values, dropping unknown words and repeats', () => {
    const filters = filtersFromSearchParams(
      new URLSearchParams('health=corrupting&health=bogus&health=lossy&health=corrupting'),
    );
    // Canonical order (least to most severe), whatever order the URL had.
    expect(filters.health).toEqual(['lossy', 'corrupting']);
    expect(filtersFromSearchParams(new URLSearchParams('health=bogus')).health).toBeUndefined();
  });

  it('keeps corrupting_in_service in the URL, so Health and the topology can link to the same list', () => {
    const params = searchParamsFromFilters({ fabric: 2, corrupting_in_service: true });
    expect(params.toString()).toBe('fabric=2&corrupting_in_service=true');
    expect(filtersFromSearchParams(params)).toMatchObject({ fabric: 2, corrupting_in_service: true });
    expect(
      filtersFromSearchParams(new URLSearchParams('corrupting_in_service=yes')).corrupting_in_service,
    ).toBeUndefined();
  });

  it('writes health as a repeated parameter and rx_low only when set', () => {
    const params = searchParamsFromFilters({ fabric: 2, health: ['lossy', 'corrupting'], rx_low: true });
    expect(params.toString()).toBe('fabric=2&health=lossy&health=corrupting&rx_low=true');
    expect(filtersFromSearchParams(params)).toMatchObject({ health: ['lossy', 'corrupting'], rx_low: true });
  });

  it('takes rx_low only as "true"', () => {
    expect(filtersFromSearchParams(new URLSearchParams('rx_low=true')).rx_low).toBe(true);
    expect(filtersFromSearchParams(new URLSearchParams('rx_low=false')).rx_low).toBeUndefined();
    expect(filtersFromSearchParams(new URLSearchParams('rx_low=1')).rx_low).toBeUndefined();
  });
});

describe('the flapping filter', () => {
  it('round-trips as flapping=true, which the API reads, and ignores anything else', () => {
    expect(searchParamsFromFilters({ fabric: 1, flapping: true }).toString()).toBe('fabric=1&flapping=true');
    expect(filtersFromSearchParams(new URLSearchParams('flapping=true')).flapping).toBe(true);
    expect(filtersFromSearchParams(new URLSearchParams('flapping=yes')).flapping).toBeUndefined();
  });
});

describe('toggleHealth', () => {
  it('adds and removes one health, keeping the canonical order, and empties to undefined', () => {
    expect(toggleHealth(undefined, 'corrupting', true)).toEqual(['corrupting']);
    expect(toggleHealth(['corrupting'], 'clean', true)).toEqual(['clean', 'corrupting']);
    expect(toggleHealth(['clean', 'corrupting'], 'clean', false)).toEqual(['corrupting']);
    expect(toggleHealth(['corrupting'], 'corrupting', false)).toBeUndefined();
  });
});

describe('activeFilterCount', () => {
  it('counts what the form sets, a health list as one, and not the switch shown on its own line', () => {
    expect(activeFilterCount(filtersFromSearchParams(new URLSearchParams('')))).toBe(0);
    expect(
      activeFilterCount(
        filtersFromSearchParams(new URLSearchParams('fabric=3&health=lossy&health=corrupting&rx_low=true&switch=9')),
      ),
    ).toBe(3);
  });
});
