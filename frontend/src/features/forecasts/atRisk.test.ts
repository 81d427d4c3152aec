import { describe, expect, it } from 'vitest';

import {
  atRiskQuery,
  effectiveHorizon,
  filtersFromSearchParams,
  linkName,
  PAGE_SIZE,
  pageWindow,
  searchParamsFromFilters,
} from './atRisk';
import { atRiskRow } from './testForecast';

describe('filters in the URL', () => {
  it('reads fabric, causes (in the rules’ order, unknown words dropped) and horizon', () => {
    const filters = filtersFromSearchParams(
      new URLSearchParams('fabric=3&cause=contamination&cause=bogus&cause=loose_transceiver&horizon=3'),
    );
    expect(filters).toEqual({ fabric: 3, causes: ['loose_transceiver', 'contamination'], horizonDays: 3 });
    expect(searchParamsFromFilters(filters, 2).toString()).toBe(
      'fabric=3&cause=loose_transceiver&cause=contamination&horizon=3&page=2',
    );
  });

  it('leaves out what is not a fabric id or a horizon', () => {
    expect(filtersFromSearchParams(new URLSearchParams('fabric=x&horizon=-2'))).toEqual({
      fabric: undefined,
      causes: [],
      horizonDays: undefined,
    });
  });
});

describe('atRiskQuery', () => {
  it('asks for the fabric’s links at risk, the causes ORed, and no horizon cut at the fabric’s own horizon', () => {
    expect(atRiskQuery(3, { causes: [] }, 7)).toEqual({ fabric: 3, at_risk: true });
    expect(atRiskQuery(3, { causes: ['bent_fiber', 'contamination'], horizonDays: 2 }, 7)).toEqual({
      fabric: 3,
      at_risk: true,
      cause: ['bent_fiber', 'contamination'],
      crossing_within_days: 2,
    });
  });

  it('never reaches past the fabric’s horizon: no link is at risk beyond it', () => {
    expect(effectiveHorizon({ causes: [], horizonDays: 30 }, 7)).toBe(7);
    expect(atRiskQuery(3, { causes: [], horizonDays: 30 }, 7)).toEqual({ fabric: 3, at_risk: true });
  });
});

describe('pages and names', () => {
  it('asks the server for the page’s window of rows', () => {
    expect(pageWindow(1)).toEqual({ limit: PAGE_SIZE, offset: 0 });
    expect(pageWindow(3)).toEqual({ limit: PAGE_SIZE, offset: 2 * PAGE_SIZE });
    expect(pageWindow(0)).toEqual({ limit: PAGE_SIZE, offset: 0 });
  });

  it('names a link by both ends’ switch and port', () => {
    expect(linkName(atRiskRow('p0-tor1 p0-fab0'))).toBe('p0-tor1 eth1 ↔ p0-fab0 eth2');
  });
});
