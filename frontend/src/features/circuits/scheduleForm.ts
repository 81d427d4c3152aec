/** The new-schedule form: text fields as typed, turned into a POST /api/circuit-schedules/ body. */
import { type FormCheck, formCheck } from '@/lib/formCheck';

import {
  ALGORITHMS,
  type Algorithm,
  type EdgeGroup,
  type PlanMode,
  type Reconfig,
  type ScheduleRequest,
} from './api/types';

export interface ScheduleFormState {
  demand: string;
  /** "switch:ID" or "zone:NAME". */
  target: string;
  algorithm: Algorithm;
  compare: Algorithm[];
  /** Blank fields take the server's default (the demand's window, the switch's dark time). */
  periodS: string;
  darkTimeMs: string;
  reconfig: Reconfig;
  mode: PlanMode | '';
  minDemandMb: string;
  burstActive: string;
  burstReset: string;
  hysteresis: string;
  seed: string;
  timeBudgetS: string;
  /** One group a line: `NAME BONUS_BYTES SRC:DST [SRC:DST ...]` (ToR names). */
  edgeGroups: string;
}

export const INITIAL_SCHEDULE_FORM: ScheduleFormState = {
  demand: '',
  target: '',
  algorithm: 'exact',
  compare: ['greedy', 'round_robin'],
  periodS: '',
  darkTimeMs: '',
  reconfig: 'per_port',
  mode: '',
  minDemandMb: '1',
  burstActive: '1',
  burstReset: '1',
  hysteresis: '0',
  seed: '0',
  timeBudgetS: '',
  edgeGroups: '',
};

/** Limits the server enforces (contract-circuits §3), checked here to answer early. */
export const MAX_PERIOD_S = 3600;
export const MAX_EDGE_GROUPS = 64;
export const MAX_GROUP_PAIRS = 16;
export const MAX_BURST = 1000;
export const MAX_HYSTERESIS = 10;

type Check = (value: number) => boolean;

/** Where a problem goes: the form's check, at the field it belongs to. */
type Report = (message: string) => void;

function optionalNumber(text: string, what: string, valid: Check, rule: string, report: Report): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) {
    report(`${what} must be ${rule} (got “${text.trim()}”).`);
    return undefined;
  }
  return value;
}

function requiredNumber(text: string, what: string, valid: Check, rule: string, report: Report): number | undefined {
  if (text.trim() === '') {
    report(`${what} is required (${rule}).`);
    return undefined;
  }
  return optionalNumber(text, what, valid, rule, report);
}

const isWhole = (value: number) => Number.isSafeInteger(value);

/**
 * Edge groups (rack pairs that earn a bonus when all have circuits in the same slot; the schedule
 * reports how often they did), one a line: `shuffle 500000000 p0-tor0:p2-tor0 p1-tor3:p3-tor5`.
 */
export function parseEdgeGroups(text: string, report: Report): EdgeGroup[] {
  const groups: EdgeGroup[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const at = `Edge groups line ${index + 1}`;
    const [name, bonusText, ...pairTexts] = line.split(/\s+/);
    const bonus = Number(bonusText);
    const problems: string[] = [];
    if (bonusText === undefined || !isWhole(bonus) || bonus < 0)
      problems.push(`the bonus “${bonusText ?? ''}” is not whole bytes ≥ 0`);
    if (pairTexts.length === 0 || pairTexts.length > MAX_GROUP_PAIRS)
      problems.push(`give 1 to ${MAX_GROUP_PAIRS} pairs SRC:DST`);
    const pairs: [string, string][] = [];
    for (const pairText of pairTexts) {
      const ends = pairText.split(':');
      if (ends.length !== 2 || !ends[0] || !ends[1] || ends[0] === ends[1])
        problems.push(`“${pairText}” is not SRC:DST of two ToRs`);
      else pairs.push([ends[0], ends[1]]);
    }
    if (problems.length > 0) report(`${at}: ${problems.join('; ')}.`);
    else groups.push({ name: name ?? '', pairs, bonus_bytes: bonus });
  });
  if (groups.length > MAX_EDGE_GROUPS) report(`At most ${MAX_EDGE_GROUPS} edge groups.`);
  return groups;
}

/** The fields a problem is said at, by the params' names (`target`: the switch or zone). */
export type ScheduleField =
  | 'demand'
  | 'target'
  | 'period_s'
  | 'dark_time_s'
  | 'min_demand_bytes'
  | 'burst_active'
  | 'burst_reset'
  | 'hysteresis'
  | 'seed'
  | 'time_budget_s'
  | 'edge_groups';

export function buildScheduleRequest(form: ScheduleFormState): FormCheck<ScheduleField> & {
  request: ScheduleRequest | null;
} {
  const check = formCheck<ScheduleField>();
  const errors = check.errors;
  const at =
    (field: ScheduleField): Report =>
    (message) =>
      check.add(message, field);
  const demand = form.demand ? Number(form.demand) : null;
  if (demand === null) check.add('Choose a demand (upload one first if the list is empty).', 'demand');
  let circuitSwitch: number | undefined;
  let zone: string | undefined;
  if (form.target.startsWith('switch:')) circuitSwitch = Number(form.target.slice('switch:'.length));
  else if (form.target.startsWith('zone:')) zone = form.target.slice('zone:'.length);
  else check.add('Choose a circuit switch or a zone.', 'target');

  const period = optionalNumber(
    form.periodS,
    'The period',
    (v) => v > 0 && v <= MAX_PERIOD_S,
    `above 0 s and at most ${MAX_PERIOD_S} s`,
    at('period_s'),
  );
  const darkMs = optionalNumber(
    form.darkTimeMs,
    'The dark time',
    (v) => v >= 0,
    'a number of ms ≥ 0',
    at('dark_time_s'),
  );
  if (period !== undefined && darkMs !== undefined && darkMs / 1000 >= period) {
    check.add(`The dark time (${darkMs} ms) must be shorter than the period (${period} s).`, 'dark_time_s');
  }
  const minDemandMb = requiredNumber(
    form.minDemandMb,
    'The minimum demand',
    (v) => v >= 0,
    'MB ≥ 0',
    at('min_demand_bytes'),
  );
  const burstActive = requiredNumber(
    form.burstActive,
    'Burst: active windows',
    (v) => isWhole(v) && v >= 1 && v <= MAX_BURST,
    `a whole number from 1 to ${MAX_BURST}`,
    at('burst_active'),
  );
  const burstReset = requiredNumber(
    form.burstReset,
    'Burst: idle windows to reset',
    (v) => isWhole(v) && v >= 1 && v <= MAX_BURST,
    `a whole number from 1 to ${MAX_BURST}`,
    at('burst_reset'),
  );
  const hysteresis = requiredNumber(
    form.hysteresis,
    'The hysteresis',
    (v) => v >= 0 && v <= MAX_HYSTERESIS,
    `from 0 to ${MAX_HYSTERESIS}`,
    at('hysteresis'),
  );
  const seed = requiredNumber(form.seed, 'The seed', (v) => isWhole(v) && v >= 0, 'a whole number ≥ 0', at('seed'));
  const timeBudget = optionalNumber(
    form.timeBudgetS,
    'The time budget',
    (v) => v > 0 && v <= 3600,
    'above 0 s and at most 3600 s',
    at('time_budget_s'),
  );

  const edgeGroups = parseEdgeGroups(form.edgeGroups, at('edge_groups'));

  if (errors.length > 0 || demand === null) return { request: null, errors, byField: check.byField };
  return {
    errors,
    byField: check.byField,
    request: {
      demand,
      ...(circuitSwitch !== undefined ? { circuit_switch: circuitSwitch } : { zone }),
      params: {
        algorithm: form.algorithm,
        compare: ALGORITHMS.filter((algorithm) => algorithm !== form.algorithm && form.compare.includes(algorithm)),
        reconfig: form.reconfig,
        ...(form.mode ? { mode: form.mode } : {}),
        ...(period !== undefined ? { period_s: period } : {}),
        ...(darkMs !== undefined ? { dark_time_s: darkMs / 1000 } : {}),
        min_demand_bytes: Math.round((minDemandMb ?? 0) * 1_000_000),
        burst_active: burstActive,
        burst_reset: burstReset,
        hysteresis,
        seed,
        time_budget_s: timeBudget ?? null,
        ...(edgeGroups.length > 0 ? { edge_groups: edgeGroups } : {}),
      },
    },
  };
}
