import { describe, expect, it } from 'vitest';

import {
  atRiskQuery,
  byTimeToCrossing,
  effectiveHorizon,
  filtersFromSearchParams,
  linkName,
  PAGE_SIZE,
  pageOfLinks,
  searchParamsFromFilters,
  switchNames,
} from './atRisk';
import { atRiskLink } from './testForecast';

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
      risk_cause: ['bent_fiber', 'contamination'],
      crossing_within_days: 2,
    });
  });

  it('never reaches past the fabric’s horizon: no link is at risk beyond it', () => {
    expect(effectiveHorizon({ causes: [], horizonDays: 30 }, 7)).toBe(7);
    expect(atRiskQuery(3, { causes: [], horizonDays: 30 }, 7)).toEqual({ fabric: 3, at_risk: true });
  });
});

describe('byTimeToCrossing', () => {
  it('puts the soonest crossing first, the surer forecast first at the same time, then by name', () => {
    const later = atRiskLink('p0-tor1 p0-fab0', 5);
    const soon = atRiskLink('p0-tor2 p0-fab1', 0.5);
    const sameSure = atRiskLink('p0-tor3 p0-fab1', 2, { confidence: 0.95 });
    const sameUnsure = atRiskLink('p0-tor0 p0-fab1', 2, { confidence: 0.81 });
    const sorted = byTimeToCrossing([later, sameUnsure, soon, sameSure]);
    expect(sorted.map(linkName)).toEqual([
      'p0-tor2 eth1 ↔ p0-fab1 eth2',
      'p0-tor3 eth1 ↔ p0-fab1 eth2',
      'p0-tor0 eth1 ↔ p0-fab1 eth2',
      'p0-tor1 eth1 ↔ p0-fab0 eth2',
    ]);
  });

  it('sorts every link before cutting a page, so page 2 holds the later crossings', () => {
    const links = Array.from({ length: PAGE_SIZE + 3 }, (_, index) => atRiskLink(`t${index} f0`, 30 - index));
    const second = pageOfLinks(links, 2);
    expect(second).toHaveLength(3);
    expect(second.map((link) => link.a_switch_name)).toEqual(['t2', 't1', 't0']);
    expect(pageOfLinks(links, 1)[0]!.a_switch_name).toBe(`t${PAGE_SIZE + 2}`);
  });
});

describe('switchNames', () => {
  it('lists each end’s switch once, sorted, for one rack request', () => {
    expect(switchNames([atRiskLink('p0-tor1 p0-fab0', 1), atRiskLink('p0-tor0 p0-fab0', 2)])).toEqual([
      'p0-fab0',
      'p0-tor0',
      'p0-tor1',
    ]);
  });
});
