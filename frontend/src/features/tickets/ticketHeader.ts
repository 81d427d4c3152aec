/**
 * The top of a ticket as a technician reads it on a phone: where to go (switch:port, end, rack),
 * what to bring (cable, connector, transceiver model and serial, the far end's rack) and how long
 * validation lasts. Pure functions of GET /api/tickets/{id}/'s answer.
 */
import type { Side } from '@/features/telemetry';
import { formatTime } from '@/lib/format';

import type { Evidence, LinkEnd, Recommendation, RepairAction, TicketDetail, TicketStep } from './api/types';
import { actionDone, actionTodo, isPreventiveRule, isRepairAction, stepStatus } from './repairActions';

/** The end a step's action is done at: the far end for replace_far_transceiver, else the local
 * (receiving, or a preventive step's) end; from the direction when the evidence names none. */
export function actedSide(action: string, evidence: Evidence, direction?: string): Side {
  const local: Side = evidence.local_end ?? (direction === 'z_to_a' ? 'a' : 'z');
  if (action !== 'replace_far_transceiver') return local;
  return local === 'a' ? 'z' : 'a';
}

/** "p0-fab1:eth1/1 (end Z, rack p0-rack-fab1)". */
export function endPlace(end: LinkEnd): string {
  const rack = end.rack ? `rack ${end.rack}` : 'rack not recorded';
  return `${end.switch}:${end.port} (end ${end.side.toUpperCase()}, ${rack})`;
}

const AT_ONE_END: ReadonlySet<RepairAction> = new Set([
  'reseat_transceiver',
  'replace_transceiver',
  'replace_far_transceiver',
]);

/** What to do, saying where: "Replace the transceiver at p0-fab1:eth1/1 (end Z, rack …)". */
export function actionAt(action: string, evidence: Evidence, ends: LinkEnd[], direction?: string): string {
  if (!isRepairAction(action)) return actionTodo(action);
  const end = ends.find((candidate) => candidate.side === actedSide(action, evidence, direction));
  if (end && AT_ONE_END.has(action)) {
    const verb = action === 'reseat_transceiver' ? 'Reseat' : 'Replace';
    return `${verb} the transceiver at ${endPlace(end)}`;
  }
  if (action === 'replace_cable' && ends.length === 2) {
    return `Replace the cable between ${ends.map(endPlace).join(' and ')}`;
  }
  return actionTodo(action);
}

/**
 * The current step's instruction, one text for the ticket's header and its step (trial 30: the header
 * said "Clean the fiber (both ends)" while the step said "Clean the connectors, p0-tor0:eth2/1 (end A)
 * first"). A preventive step says the forecast's recommendation, which names the end to act on, as
 * its explanation does; an unclear cause's "inspect" became cleaning, said with the end to start at.
 * A repair step says the action where it is done (actionAt).
 */
export function stepInstruction(
  recommendation: Recommendation,
  ends: LinkEnd[] | undefined,
  direction?: string,
): string {
  const forecast = recommendation.evidence.forecast;
  if (isPreventiveRule(recommendation.rule) && forecast) {
    if (forecast.recommended_action === recommendation.action) return forecast.recommended_action_label;
    const end = recommendation.evidence.local_end;
    return `${actionTodo(recommendation.action)}${end ? `, the ${end.toUpperCase()} end first` : ''}`;
  }
  // With the ends known, the advice says which end: never "the far-end transceiver" alone.
  return ends
    ? actionAt(recommendation.action, recommendation.evidence, ends, direction)
    : actionTodo(recommendation.action);
}

export interface TicketWhere {
  /** The end to work at. */
  end: LinkEnd;
  /** The other end, where the cable leads. */
  far: LinkEnd | undefined;
}

/** The current step: the newest. */
export function currentStep(ticket: TicketDetail): TicketStep | undefined {
  return stepsNewestFirst(ticket.steps)[0];
}

/** Where the current step's work is (what was done, once recorded, else the advice), or undefined
 * for a ticket without a step. */
export function ticketWhere(ticket: TicketDetail): TicketWhere | undefined {
  const recommendation = ticket.recommendation;
  if (!recommendation) return undefined;
  const step = currentStep(ticket);
  const side = step?.action_taken
    ? actedSide(step.action_taken, step.evidence, step.direction)
    : actedSide(recommendation.action, recommendation.evidence, ticket.direction);
  const end = ticket.ends.find((candidate) => candidate.side === side);
  if (!end) return undefined;
  return { end, far: ticket.ends.find((candidate) => candidate.side !== side) };
}

/** "Reseated transceiver at p0-fab1:eth1/1 (end Z, rack …), 2026-11-27 13:11 UTC": what was done on
 * a step, where and when; null while nothing is recorded on it. */
export function doneAt(step: TicketStep, ends: LinkEnd[]): string | null {
  const action = step.action_taken;
  if (!action) return null;
  const end = ends.find((candidate) => candidate.side === actedSide(action, step.evidence, step.direction));
  let what = actionDone(action);
  if (end && AT_ONE_END.has(action)) what = `${what} at ${endPlace(end)}`;
  else if (action === 'replace_cable' && ends.length === 2)
    what = `${what} between ${ends.map(endPlace).join(' and ')}`;
  return `${what}, ${formatTime(step.acted_at)}`;
}

/** The step before the current one when corruption came back after it: the reason the ticket asks
 * for another repair ("Corruption returned after: Reseated transceiver …"). */
export function returnedAfter(ticket: TicketDetail): string | null {
  const [current, previous] = stepsNewestFirst(ticket.steps);
  if (!current || current.action_taken || previous?.outcome !== 'recurred') return null;
  const done = doneAt(previous, ticket.ends);
  return done ? `Corruption returned after: ${done}. Next step:` : null;
}

/** What to bring, one line each: the cable, the transceiver for the end, the far end's rack. */
export function whatToBring(ticket: TicketDetail, where: TicketWhere): string[] {
  const { end, far } = where;
  const length = ticket.cable_length_m === null ? 'length not recorded' : `${ticket.cable_length_m} m`;
  const fiber = ticket.fiber || 'fiber type not recorded';
  const connector = end.connector ? `${end.connector} connectors` : 'connector not recorded';
  const lines = [`Cable: ${length}, ${fiber}, ${connector}`];
  const serial = end.transceiver_serial ? `serial ${end.transceiver_serial}` : 'serial not recorded';
  lines.push(
    end.transceiver_model
      ? `Transceiver: ${end.transceiver_model} (${serial}) at end ${end.side.toUpperCase()}`
      : `Transceiver at end ${end.side.toUpperCase()}: model not recorded`,
  );
  if (far) lines.push(`Far end: ${far.switch}:${far.port}, ${far.rack ? `rack ${far.rack}` : 'rack not recorded'}`);
  return lines;
}

/** The validation window in words: its end and length while it runs, else how long it will last. */
export function validationSentence(ticket: TicketDetail): string | null {
  const hours = `${ticket.validation_window_hours} h`;
  if (ticket.state === 'resolved') return null;
  if (ticket.validation_ends_at) {
    return `Validating until ${formatTime(ticket.validation_ends_at)}, ${hours} after the repair.`;
  }
  if (ticket.state === 'awaiting_validation') {
    return `Validation (${hours}) starts when the link is back in service.`;
  }
  return `After the repair the link must stay clean for ${hours} before the ticket resolves.`;
}

/** What happens if validation fails, said while the ticket waits for it; null otherwise. */
export function ifValidationFails(ticket: TicketDetail): string | null {
  if (ticket.state !== 'awaiting_validation') return null;
  return 'If corruption returns, CorrOpt takes the link out of service again and this ticket gets its next step.';
}

/** "Reseated transceiver by ana, 2026-11-27 12:00 UTC: being validated": a done step in one line. */
export function doneStepSummary(step: TicketStep): string {
  return `${actionDone(step.action_taken)} by ${step.technician ?? 'someone'}, ${formatTime(step.acted_at)}: ${stepStatus(step)}`;
}

/** Newest first, so the current step leads. */
export function stepsNewestFirst(steps: TicketStep[]): TicketStep[] {
  return [...steps].sort((a, b) => b.number - a.number);
}
