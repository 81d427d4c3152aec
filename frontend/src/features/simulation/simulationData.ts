/** Data shaping for the what-if simulation pages: the form's params and the result's runs. */
import type { TextUpload } from '@/lib/textUpload';

import {
  POLICIES,
  type PenaltyFunction,
  type Policy,
  type SimulationParams,
  type SimulationResult,
  type SimulationRun,
} from './api/types';

export const POLICY_STYLE: Record<Policy, { label: string; colour: string }> = {
  corropt: { label: 'CorrOpt', colour: '#1f6fb4' },
  'fast-checker': { label: 'Fast checker', colour: '#2a9d4b' },
  'switch-local': { label: 'Switch-local', colour: '#c8402f' },
};

/** Dash patterns that tell repair accuracies apart (in the order the run lists them). */
export const ACCURACY_DASHES = ['', '7 4', '2 3', '10 3 2 3'];

/** Limits the server enforces (backend/corruption/simulation.py), checked here to answer early. */
export const MAX_CONSTRAINTS = 8;
export const MAX_ACCURACIES = 4;
export const MAX_TRACE_BYTES = 8 * 1024 * 1024;

export interface SimulationFormState {
  fabric: string;
  constraints: string;
  accuracies: string;
  policies: Policy[];
  penalty: PenaltyFunction;
  repairDelayHours: string;
  seed: string;
  traceSource: 'generated' | 'uploaded';
  hours: string;
  mttfHours: string;
  /** The uploaded file's name and text (read in the browser); `problem` when it is not text. */
  upload: TextUpload | null;
}

export const INITIAL_FORM: SimulationFormState = {
  fabric: '',
  constraints: '0.5, 0.75',
  accuracies: '0.5, 0.8',
  policies: [...POLICIES],
  penalty: 'linear',
  repairDelayHours: '48',
  seed: '0',
  traceSource: 'generated',
  hours: '720',
  mttfHours: '2000',
  upload: null,
};

/** "0.5, 0.75" (commas or spaces) as fractions; one message per bad entry. */
export function parseFractionList(
  text: string,
  what: string,
  { allowZero, limit }: { allowZero: boolean; limit: number },
): { values: number[]; errors: string[] } {
  const values: number[] = [];
  const errors: string[] = [];
  const entries = text.split(/[\s,;]+/).filter((entry) => entry !== '');
  if (entries.length === 0) errors.push(`${what}: give at least one fraction, e.g. 0.75.`);
  if (entries.length > limit) errors.push(`${what}: at most ${limit} values.`);
  for (const entry of entries) {
    const value = Number(entry);
    const inRange = allowZero ? value >= 0 && value <= 1 : value > 0 && value <= 1;
    if (!Number.isFinite(value) || !inRange) {
      errors.push(`${what}: “${entry}” is not a fraction in ${allowZero ? '[0, 1]' : '(0, 1]'}.`);
    } else if (values.includes(value)) {
      errors.push(`${what}: ${entry} is listed twice.`);
    } else {
      values.push(value);
    }
  }
  return { values, errors };
}

function positiveNumber(text: string, what: string, errors: string[]): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) errors.push(`${what} must be a number above 0.`);
  return value;
}

function wholeNumber(text: string, what: string, errors: string[]): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < 0)
    errors.push(`${what} must be a whole number ≥ 0.`);
  return value;
}

/** The job's params from the form, or every problem found (the server checks again). */
export function buildSimulationParams(form: SimulationFormState): {
  fabric: number | null;
  params: SimulationParams | null;
  errors: string[];
} {
  const errors: string[] = [];
  const fabric = form.fabric ? Number(form.fabric) : null;
  if (fabric === null) errors.push('Choose a fabric.');
  const constraints = parseFractionList(form.constraints, 'Constraints', {
    allowZero: false,
    limit: MAX_CONSTRAINTS,
  });
  const accuracies = parseFractionList(form.accuracies, 'Repair accuracies', {
    allowZero: true,
    limit: MAX_ACCURACIES,
  });
  errors.push(...constraints.errors, ...accuracies.errors);
  if (form.policies.length === 0) errors.push('Choose at least one policy.');
  const repairDelay = positiveNumber(form.repairDelayHours, 'Repair delay', errors);
  const seed = wholeNumber(form.seed, 'Seed', errors);
  let trace: SimulationParams['trace'] | null = null;
  if (form.traceSource === 'generated') {
    const hours = positiveNumber(form.hours, 'Trace length', errors);
    const mttf = positiveNumber(form.mttfHours, 'Mean time between onsets', errors);
    trace = { source: 'generated', hours, mttf_hours: mttf, seed };
  } else if (!form.upload) {
    errors.push('Choose a trace file (CSV with header time_s,link,loss_rate).');
  } else if (form.upload.problem) {
    errors.push(form.upload.problem);
  } else if (new Blob([form.upload.text]).size > MAX_TRACE_BYTES) {
    errors.push(`The trace file is larger than ${MAX_TRACE_BYTES / (1024 * 1024)} MiB.`);
  } else {
    trace = { source: 'uploaded', name: form.upload.name, csv: form.upload.text };
  }
  if (errors.length > 0 || trace === null) return { fabric, params: null, errors };
  return {
    fabric,
    errors,
    params: {
      constraints: constraints.values,
      accuracies: accuracies.values,
      policies: POLICIES.filter((policy) => form.policies.includes(policy)),
      penalty: form.penalty,
      repair_delay_hours: repairDelay,
      seed,
      trace,
    },
  };
}

export function findRun(result: SimulationResult, constraint: number, accuracy: number): SimulationRun | undefined {
  return result.runs.find((run) => run.constraint === constraint && run.accuracy === accuracy);
}

/** Hours for windows up to three days, days beyond. */
export function timeUnit(horizonS: number): { seconds: number; label: string } {
  return horizonS <= 72 * 3600 ? { seconds: 3600, label: 'hours' } : { seconds: 86400, label: 'days' };
}

export interface StepPoint {
  /** In the chart's time unit. */
  t: number;
  value: number;
}

/** A step series as points for a step-after curve, closed at the horizon with the last value. */
export function stepPoints(times: number[], values: number[], horizonS: number, unitS: number): StepPoint[] {
  const points = times.map((time, i) => ({ t: time / unitS, value: values[i] ?? 0 }));
  const lastTime = times.at(-1);
  const lastValue = values.at(-1);
  if (lastTime !== undefined && lastValue !== undefined) {
    points.push({ t: Math.max(horizonS, lastTime) / unitS, value: lastValue });
  }
  return points;
}

export type RatioKind = 'finite' | 'infinite' | 'zero';

export interface RatioLine {
  key: string;
  policy: Policy;
  accuracy: number;
  label: string;
  colour: string;
  dash: string;
  points: { constraint: number; ratio: number | null; kind: RatioKind }[];
}

/**
 * One line per baseline policy and repair accuracy over the constraints: its penalty integral ÷
 * CorrOpt's (the seed's Figure 3.17 shows the inverse). Infinite (CorrOpt lost nothing while the
 * policy did) and zero ratios cannot sit on a log axis; they are marked apart.
 */
export function ratioLines(result: SimulationResult): RatioLine[] {
  const baselines = result.settings.policies.filter((policy) => policy !== 'corropt');
  const constraints = [...result.settings.constraints].sort((a, b) => a - b);
  const lines: RatioLine[] = [];
  for (const policy of baselines) {
    result.settings.accuracies.forEach((accuracy, accuracyIndex) => {
      const points = constraints.flatMap((constraint) => {
        const outcome = findRun(result, constraint, accuracy)?.policies.find((row) => row.policy === policy);
        if (!outcome) return [];
        const ratio = outcome.penalty_ratio_vs_corropt;
        const kind: RatioKind = ratio === null ? 'infinite' : ratio <= 0 ? 'zero' : 'finite';
        return [{ constraint, ratio, kind }];
      });
      lines.push({
        key: `${policy}@${accuracy}`,
        policy,
        accuracy,
        label: `${POLICY_STYLE[policy].label}, repair accuracy ${accuracy}`,
        colour: POLICY_STYLE[policy].colour,
        dash: ACCURACY_DASHES[accuracyIndex % ACCURACY_DASHES.length] ?? '',
        points,
      });
    });
  }
  return lines;
}

/** How much more CorrOpt loses without good repairs: its penalty at each accuracy per constraint (Fig. 3.19). */
export function corroptByAccuracy(result: SimulationResult): { constraint: number; penalties: (number | null)[] }[] {
  return [...result.settings.constraints]
    .sort((a, b) => a - b)
    .map((constraint) => ({
      constraint,
      penalties: result.settings.accuracies.map((accuracy) => {
        const run = findRun(result, constraint, accuracy);
        return run ? run.corropt_penalty_seconds : null;
      }),
    }));
}

export function formatNumber(value: number | null): string {
  if (value === null) return '∞';
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  return magnitude >= 0.01 && magnitude < 1e5 ? value.toPrecision(4).replace(/\.?0+$/, '') : value.toExponential(2);
}

export function formatFraction(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** Download links of a succeeded job (GET /api/jobs/{id}/result/). */
export function downloadLinks(jobId: number): { label: string; href: string }[] {
  const base = `/api/jobs/${jobId}/result/`;
  return [
    { label: 'Result (JSON)', href: `${base}?format=json` },
    { label: 'Summary (CSV)', href: `${base}?format=csv&table=summary` },
    { label: 'Series (CSV)', href: `${base}?format=csv&table=series` },
  ];
}

/** "−30%": the relative change of a penalty against the baseline's ("—" when it cannot be said). */
export function changeText(baseline: number | null, value: number | null): string {
  if (baseline === null || value === null || baseline === 0) return '—';
  const change = (value - baseline) / baseline;
  return `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(Math.round(change * 100))}%`;
}
