/** The planner form's state and the `rail.plan` params it makes (contract 2a; the server checks again). */
import { type FormCheck, formCheck } from '@/lib/formCheck';

import type { CostParams, PlanParams, StretchReach, TransceiverModel } from './api/types';
import { formatNrb } from './planData';

export type StretchLevel = 'none' | 'low' | 'high' | 'custom';

export const STRETCH_NRB: Record<Exclude<StretchLevel, 'none' | 'custom'>, number> = { low: 0.99, high: 0.95 };

export const COST_FIELDS: readonly { key: keyof CostParams; label: string; unit: string }[] = [
  { key: 'mmf_usd_per_m', label: 'Multi-mode fiber', unit: 'USD/m' },
  { key: 'smf_usd_per_m', label: 'Single-mode fiber', unit: 'USD/m' },
  { key: 'port_usd', label: 'Switch port', unit: 'USD' },
  { key: 'switch_watts', label: 'Switch power', unit: 'W' },
  { key: 'usd_per_kwh', label: 'Energy price', unit: 'USD/kWh' },
  { key: 'years', label: 'Period', unit: 'years' },
];

/** The seed's 10G values (§4.6.1), the server's defaults. */
export const DEFAULT_COSTS: Record<keyof CostParams, string> = {
  mmf_usd_per_m: '0.44',
  smf_usd_per_m: '0.21',
  port_usd: '90',
  switch_watts: '150',
  usd_per_kwh: '0.07',
  years: '3',
};

export interface PlanFormState {
  name: string;
  source: 'generated' | 'fabric';
  fabric: string;
  k: string;
  minLengthM: string;
  maxLengthM: string;
  lengths: 'expected' | 'sampled';
  seed: string;
  speedGbps: string;
  /** Catalog model ids left out of the plan (all others take part). */
  excluded: number[];
  stretch: StretchLevel;
  customNrb: string;
  maxHops: string;
  costs: Record<keyof CostParams, string>;
  sweepMaxLengthM: string;
  sweepStepM: string;
}

export const INITIAL_PLAN_FORM: PlanFormState = {
  name: '',
  source: 'generated',
  fabric: '',
  k: '8',
  minLengthM: '0',
  maxLengthM: '500',
  lengths: 'sampled',
  seed: '0',
  speedGbps: '10',
  excluded: [],
  stretch: 'low',
  customNrb: '0.97',
  maxHops: '',
  costs: DEFAULT_COSTS,
  sweepMaxLengthM: '1000',
  sweepStepM: '10',
};

/** The server's limit of a plan's name (planning's params check). */
export const PLAN_NAME_MAX = 100;

/** The plan form's first state: a stored fabric when there is one, the generated fat tree otherwise. */
export function initialPlanForm(fabric: number | null): PlanFormState {
  return fabric === null ? INITIAL_PLAN_FORM : { ...INITIAL_PLAN_FORM, source: 'fabric', fabric: String(fabric) };
}

function number(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** The fields a problem is said at (a price by its key: `costs.years`). */
export type PlanField =
  | 'name'
  | 'fabric'
  | 'k'
  | 'min_length_m'
  | 'max_length_m'
  | 'seed'
  | 'nrb'
  | 'max_hops'
  | `costs.${keyof CostParams}`
  | 'sweep_max_length_m'
  | 'sweep_step_m';

/** The job's fabric and params, or every problem found, each with its field. */
export function buildPlanParams(
  form: PlanFormState,
  catalog: readonly Pick<TransceiverModel, 'id'>[],
): FormCheck<PlanField> & { fabric: number | null; params: PlanParams | null } {
  const check = formCheck<PlanField>();
  const errors = check.errors;
  const params: PlanParams = {};
  if (form.name.trim().length > PLAN_NAME_MAX) check.add(`Name: at most ${PLAN_NAME_MAX} characters.`, 'name');
  if (form.name.trim()) params.name = form.name.trim();

  let fabric: number | null = null;
  if (form.source === 'fabric') {
    if (!form.fabric) check.add('Choose a fabric.', 'fabric');
    else fabric = Number(form.fabric);
  } else {
    const k = number(form.k);
    if (k === null || !Number.isInteger(k) || k < 2 || k > 64 || k % 2 !== 0)
      check.add('Fat tree k must be an even whole number from 2 to 64.', 'k');
    const minLength = number(form.minLengthM);
    const maxLength = number(form.maxLengthM);
    if (minLength === null || minLength < 0) check.add('Shortest link must be a length ≥ 0 m.', 'min_length_m');
    if (maxLength === null || maxLength > 100_000)
      check.add('Longest link must be a length up to 100,000 m.', 'max_length_m');
    else if (minLength !== null && maxLength < minLength)
      check.add('Longest link must not be shorter than the shortest.', 'max_length_m');
    const seed = number(form.seed);
    if (form.lengths === 'sampled' && (seed === null || !Number.isInteger(seed) || seed < 0))
      check.add('Seed must be a whole number ≥ 0.', 'seed');
    const speed = number(form.speedGbps);
    if (speed === null || !Number.isInteger(speed) || speed <= 0) check.add('Choose a link speed.');
    params.generate = {
      k: k ?? 0,
      min_length_m: minLength ?? 0,
      max_length_m: maxLength ?? 0,
      lengths: form.lengths,
      seed: seed ?? 0,
      speed_gbps: speed ?? 10,
    };
  }

  const included = catalog.filter((model) => !form.excluded.includes(model.id));
  if (catalog.length > 0 && included.length === 0) check.add('Keep at least one catalog part.');
  params.catalog = form.excluded.length === 0 ? null : included.map((model) => model.id);

  if (form.stretch === 'none') params.nrb = null;
  else if (form.stretch === 'custom') {
    const nrb = number(form.customNrb);
    if (nrb === null || nrb <= 0 || nrb > 1) check.add('NRB must be a fraction in (0, 1], e.g. 0.97.', 'nrb');
    params.nrb = nrb;
  } else params.nrb = STRETCH_NRB[form.stretch];

  if (form.maxHops.trim() !== '') {
    const hops = number(form.maxHops);
    if (hops === null || !Number.isInteger(hops) || hops < 1 || hops > 16)
      check.add('Maximum hops must be a whole number from 1 to 16 (empty: 2 × (tiers − 1)).', 'max_hops');
    params.max_hops = hops;
  }

  const costs: Partial<CostParams> = {};
  for (const field of COST_FIELDS) {
    const value = number(form.costs[field.key]);
    if (value === null || value < 0 || (field.key === 'years' && (value <= 0 || value > 50)))
      check.add(
        field.key === 'years'
          ? 'Period must be more than 0 and at most 50 years.'
          : `${field.label} (${field.unit}) must be a number ≥ 0.`,
        `costs.${field.key}`,
      );
    else costs[field.key] = value;
  }
  params.costs = costs;

  const sweepMax = number(form.sweepMaxLengthM);
  const sweepStep = number(form.sweepStepM);
  if (sweepMax === null || sweepMax <= 0 || sweepMax > 100_000)
    check.add('Curves up to: a length above 0 and at most 100,000 m.', 'sweep_max_length_m');
  if (sweepStep === null || sweepStep <= 0) check.add('Curve step must be a length above 0 m.', 'sweep_step_m');
  else if (sweepMax !== null && sweepMax / sweepStep > 2000)
    check.add('The curves would need more than 2,000 points: take a longer step.', 'sweep_step_m');
  params.sweep = { max_length_m: sweepMax ?? 0, step_m: sweepStep ?? 0 };

  const { byField } = check;
  return errors.length > 0 ? { fabric, params: null, errors, byField } : { fabric, params, errors, byField };
}

/** "480 m at NRB 99%, 580 m at NRB 95%", or "not stretched". */
export function stretchText(stretch: readonly StretchReach[]): string {
  if (stretch.length === 0) return 'not stretched';
  return [...stretch]
    .sort((a, b) => b.nrb - a.nrb)
    .map((entry) => `${formatLength(entry.reach_m)} at NRB ${formatNrb(entry.nrb)}`)
    .join(', ');
}

export function formatLength(metres: number): string {
  return metres >= 1000 && metres % 100 === 0 ? `${metres / 1000} km` : `${metres} m`;
}

/** "$82.30 (seed)", "$304.00 (demo price)", "no price". */
export function priceText(model: Pick<TransceiverModel, 'price_usd' | 'price_source'>): string {
  if (model.price_usd === null) return 'no price';
  const price = `$${Number(model.price_usd).toFixed(2)}`;
  switch (model.price_source) {
    case 'seed':
      return `${price} (seed)`;
    case 'demo':
      return `${price} (demo price)`;
    case 'planner':
      return `${price} (planner)`;
    default:
      return price;
  }
}
