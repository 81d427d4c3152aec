import { describe, expect, it } from 'vitest';

import { defaultFabric } from '@/components/defaultFabric';

import { buildPlanParams, INITIAL_PLAN_FORM, initialPlanForm, priceText, stretchText } from './planForm';

const CATALOG = [{ id: 1 }, { id: 2 }, { id: 3 }];

describe('buildPlanParams', () => {
  it('sends a generated fat tree with the seed’s prices and the whole catalog', () => {
    const built = buildPlanParams({ ...INITIAL_PLAN_FORM, k: '4', name: ' low ' }, CATALOG);
    expect(built.errors).toEqual([]);
    expect(built.fabric).toBeNull();
    expect(built.params).toEqual({
      name: 'low',
      generate: { k: 4, min_length_m: 0, max_length_m: 500, lengths: 'sampled', seed: 0, speed_gbps: 10 },
      catalog: null,
      nrb: 0.99,
      costs: { mmf_usd_per_m: 0.44, smf_usd_per_m: 0.21, port_usd: 90, switch_watts: 150, usd_per_kwh: 0.07, years: 3 },
      sweep: { max_length_m: 1000, step_m: 10 },
    });
  });

  it('sends a stored fabric, a catalog subset, no stretch and a hop count', () => {
    const built = buildPlanParams(
      { ...INITIAL_PLAN_FORM, source: 'fabric', fabric: '7', excluded: [2], stretch: 'none', maxHops: '6' },
      CATALOG,
    );
    expect(built.fabric).toBe(7);
    expect(built.params).toMatchObject({ catalog: [1, 3], nrb: null, max_hops: 6 });
    expect(built.params).not.toHaveProperty('generate');
  });

  it('lists every problem at once', () => {
    const built = buildPlanParams(
      {
        ...INITIAL_PLAN_FORM,
        k: '5',
        maxLengthM: '-1',
        excluded: [1, 2, 3],
        stretch: 'custom',
        customNrb: '1.5',
        costs: { ...INITIAL_PLAN_FORM.costs, port_usd: 'x', years: '0' },
        sweepStepM: '0.1',
      },
      CATALOG,
    );
    expect(built.params).toBeNull();
    expect(built.errors).toEqual([
      'Fat tree k must be an even whole number from 2 to 64.',
      'Longest link must not be shorter than the shortest.',
      'Keep at least one catalog part.',
      'NRB must be a fraction in (0, 1], e.g. 0.97.',
      'Switch port (USD) must be a number ≥ 0.',
      'Period must be more than 0 and at most 50 years.',
      'The curves would need more than 2,000 points: take a longer step.',
    ]);
  });
});

describe('catalog text', () => {
  it('shows stretched reaches, least stretch first, and labels demo prices', () => {
    expect(
      stretchText([
        { nrb: 0.95, reach_m: 580 },
        { nrb: 0.99, reach_m: 480 },
      ]),
    ).toBe('480 m at NRB 99%, 580 m at NRB 95%');
    expect(stretchText([{ nrb: 0.95, reach_m: 2000 }])).toBe('2 km at NRB 95%');
    expect(stretchText([])).toBe('not stretched');
    expect(priceText({ price_usd: '304.00', price_source: 'demo' })).toBe('$304.00 (demo price)');
    expect(priceText({ price_usd: '82.30', price_source: 'seed' })).toBe('$82.30 (seed)');
    expect(priceText({ price_usd: null, price_source: '' })).toBe('no price');
  });
});

describe('the fabric a new plan starts on', () => {
  const fabrics = [
    { id: 3, name: 'demo-fb' },
    { id: 9, name: 'lab' },
  ];

  it('is the stored fabric the URL names (by id or name), else the first, else the generated tree', () => {
    expect(defaultFabric(fabrics, '9')).toBe(9);
    expect(defaultFabric(fabrics, 'lab')).toBe(9);
    expect(defaultFabric(fabrics, null)).toBe(3);
    expect(defaultFabric(fabrics, 'gone')).toBe(3);
    expect(defaultFabric([], null)).toBeNull();
    expect(initialPlanForm(3)).toMatchObject({ source: 'fabric', fabric: '3' });
    expect(initialPlanForm(null)).toMatchObject({ source: 'generated', fabric: '' });
  });
});
