/** Words for the backend's repair actions, rules and outcomes (corruption/recommend.py). */
import type { RepairAction, StepOutcome } from './api/types';

/** In the order a technician usually tries them, cheapest first. */
export const REPAIR_ACTIONS: readonly RepairAction[] = [
  'clean_fiber',
  'reseat_transceiver',
  'replace_transceiver',
  'replace_far_transceiver',
  'replace_cable',
  'replace_shared_component',
];

/** What to do (the recommendation) and what was done (the step history, the act form). */
export const ACTION_LABELS: Record<RepairAction, { todo: string; done: string }> = {
  clean_fiber: { todo: 'Clean the connectors (both ends)', done: 'Cleaned fiber' },
  reseat_transceiver: { todo: 'Reseat the transceiver', done: 'Reseated transceiver' },
  replace_transceiver: { todo: 'Replace the transceiver', done: 'Replaced transceiver' },
  replace_far_transceiver: { todo: 'Replace the far-end transceiver', done: 'Replaced far-end transceiver' },
  replace_cable: { todo: 'Replace the cable', done: 'Replaced cable' },
  replace_shared_component: {
    todo: 'Replace the shared component (breakout cable, line card or switch)',
    done: 'Replaced shared component',
  },
};

export function isRepairAction(value: unknown): value is RepairAction {
  return typeof value === 'string' && (REPAIR_ACTIONS as readonly string[]).includes(value);
}

export function actionTodo(action: string | null | undefined): string {
  if (!action) return '—';
  return isRepairAction(action) ? ACTION_LABELS[action].todo : action;
}

export function actionDone(action: string | null | undefined): string {
  if (!action) return '—';
  return isRepairAction(action) ? ACTION_LABELS[action].done : action;
}

const OUTCOME_LABELS: Record<StepOutcome, string> = {
  pending: 'being validated',
  fixed: 'fixed',
  recurred: 'corruption returned',
};

/** Where a step stands: not acted on yet, or its outcome once the action is recorded. */
export function stepStatus(step: { action_taken: string; outcome: StepOutcome }): string {
  if (!step.action_taken && step.outcome === 'pending') return 'not acted on yet';
  return OUTCOME_LABELS[step.outcome] ?? step.outcome;
}

/** The rules of Algorithm 1 (first match wins), as a technician reads them. */
const RULES: Record<string, string> = {
  'shared_component.breakout': 'Another link in the same breakout group corrupts too',
  'shared_component.cluster': 'Several links on the same switch started corrupting together at similar rates',
  opposite_direction: 'Both directions of the link corrupt',
  far_tx_low: 'The far end transmits at or below its minimum power',
  both_rx_low: 'Both ends receive below their minimum power',
  local_rx_low: 'The receiving end gets less light than its minimum',
  reseat: 'Optical powers are within their limits and the transceiver was not reseated recently',
  reseated_recently: 'Optical powers are within their limits but the transceiver was reseated recently',
  no_optical_data: 'No optical readings: the generic sequence clean → reseat → replace',
  'escalation.exhausted': 'Every repair tried so far failed',
  // A preventive ticket's first step: the forecast's cause (corruption/preventive.py PATTERNS).
  'preventive.decaying_transmitter': 'Forecast: the Tx power falls while the laser bias rises (a decaying transmitter)',
  'preventive.contamination':
    'Forecast: the Rx power falls at one end only while the far end’s Tx holds (contamination)',
  'preventive.bent_fiber': 'Forecast: the Rx power stepped down at both ends (a bent or damaged fiber)',
  'preventive.loose_transceiver': 'Forecast: a lane is dark or erratic (a loose transceiver)',
  'preventive.unknown': 'Forecast: a limit will be crossed, but no known pattern names the cause',
};

/** A preventive ticket's step: its advice came from the link's forecast, not from corruption. */
export function isPreventiveRule(rule: string): boolean {
  return rule.startsWith('preventive.');
}

/** A rule id as a sentence; escalations name the action that failed. */
export function describeRule(rule: string): string {
  const known = RULES[rule];
  if (known) return known;
  if (rule.startsWith('forecast_cause.')) {
    const cause = RULES[`preventive.${rule.slice('forecast_cause.'.length)}`] ?? 'Forecast: an unclear cause';
    return `${cause}, before the link corrupted: the forecast’s repair stays first (the corruption rule read less)`;
  }
  if (rule.startsWith('escalation.')) {
    const failed = rule.slice('escalation.'.length);
    return `History: “${actionDone(failed).toLowerCase()}” was done and corruption returned, so the next step escalates`;
  }
  return rule;
}

export function isEscalation(rule: string): boolean {
  return rule.startsWith('escalation.');
}
