/** Data shaping for the reliability-classes page: the form's params, link colouring, loss and FEC text. */
import type { TopologyLink } from '@/features/fabrics';
import { formatCount } from '@/lib/format';

import type { ClassesParams, FecAnswer, PathCoding, ReliabilityClass, WorstPath } from './api/types';
import { formatPercent } from './planData';

export interface ClassesFormState {
  fabric: string;
  windowHours: string;
  bounds: string;
  repairAbove: string;
  fecTarget: string;
}

export const INITIAL_CLASSES_FORM: ClassesFormState = {
  fabric: '',
  windowHours: '24',
  bounds: '4.8e-8, 1e-3, 0.1',
  repairAbove: '0.1',
  fecTarget: '0.001',
};

function fraction(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** The `rail.classes` job's fabric and params (contract 2b), or every problem found. */
export function buildClassesParams(form: ClassesFormState): {
  fabric: number | null;
  params: ClassesParams | null;
  errors: string[];
} {
  const errors: string[] = [];
  const fabric = form.fabric ? Number(form.fabric) : null;
  if (fabric === null) errors.push('Choose a fabric.');
  const window = fraction(form.windowHours);
  if (window === null || window <= 0 || window > 8760)
    errors.push('Window must be more than 0 and at most 8,760 hours.');
  const entries = form.bounds.split(/[\s,;]+/).filter((entry) => entry !== '');
  const bounds: number[] = [];
  if (entries.length === 0 || entries.length > 8)
    errors.push('Bounds: give 1 to 8 path loss bounds, e.g. 4.8e-8, 1e-3, 0.1.');
  for (const entry of entries) {
    const value = Number(entry);
    if (!Number.isFinite(value) || value <= 0 || value > 1)
      errors.push(`Bounds: “${entry}” is not a loss rate in (0, 1].`);
    else if (bounds.length > 0 && value <= bounds.at(-1)!)
      errors.push(`Bounds: ${entry} must be above ${bounds.at(-1)} (tightest first).`);
    else bounds.push(value);
  }
  const repairAbove = fraction(form.repairAbove);
  if (repairAbove === null || repairAbove <= 0 || repairAbove > 1)
    errors.push('Repair above must be a loss rate in (0, 1], e.g. 0.1.');
  const fecTarget = fraction(form.fecTarget);
  if (fecTarget === null || fecTarget <= 0 || fecTarget >= 1)
    errors.push('FEC target must be a loss rate in (0, 1), e.g. 0.001.');
  if (errors.length > 0) return { fabric, params: null, errors };
  return {
    fabric,
    errors,
    params: { window_hours: window!, bounds, repair_above: repairAbove!, fec_target: fecTarget! },
  };
}

/** Loss rates as people read them: "0.40%" from 0.1 %, "3.1e-8" below. */
export function formatLoss(loss: number): string {
  if (loss === 0) return '0';
  if (loss >= 1e-3) return formatPercent(loss, 2);
  return loss.toExponential(1).replace('.0e', 'e');
}

/** "tor0 → agg0 → core1 → agg4 → tor5" */
export function worstPathText(worst: WorstPath): string {
  return worst.switches.join(' → ');
}

export type ClassLinkRole = 'worst' | 'repair' | 'member' | 'other';

/** Drawing order: other links first (grey), members over them, then links to repair, the worst path on top. */
export const CLASS_LINK_ROLES: readonly ClassLinkRole[] = ['other', 'member', 'repair', 'worst'];

export const CLASS_LINK_STYLE: Record<ClassLinkRole, { label: string; colour: string; width: number; dash: string }> = {
  other: { label: 'Not in the class', colour: '#c3c9d1', width: 1, dash: '' },
  member: { label: 'In the class', colour: '#1f6fb4', width: 1.5, dash: '' },
  repair: { label: 'Marked for repair', colour: '#7a1f16', width: 2, dash: '4 3' },
  worst: { label: 'Worst path', colour: '#d9342b', width: 3.5, dash: '' },
};

/**
 * Each fabric link's role for one class: on the class's worst path, marked for repair, a member,
 * or none of those. A topology link the result does not know (added since) counts as other.
 */
export function classLinkRoles(
  links: readonly Pick<TopologyLink, 'id'>[],
  cls: Pick<ReliabilityClass, 'links' | 'worst'>,
  repair: readonly { link: number }[],
): Map<number, ClassLinkRole> {
  const members = new Set(cls.links);
  const worst = new Set(cls.worst?.hops.map((hop) => hop.link) ?? []);
  const toRepair = new Set(repair.map((row) => row.link));
  const roles = new Map<number, ClassLinkRole>();
  for (const link of links) {
    roles.set(
      link.id,
      worst.has(link.id) ? 'worst' : toRepair.has(link.id) ? 'repair' : members.has(link.id) ? 'member' : 'other',
    );
  }
  return roles;
}

export function countRoles(roles: Map<number, ClassLinkRole>): Record<ClassLinkRole, number> {
  const counts: Record<ClassLinkRole, number> = { other: 0, member: 0, repair: 0, worst: 0 };
  for (const role of roles.values()) counts[role] += 1;
  return counts;
}

/** "1,000 paths uncoded, 24 XOR-coded, …; mean overhead 0.16 % (at most 7.1 %)" */
export function codingText(coding: PathCoding): string {
  const count = (value: number) => formatCount(Math.round(value));
  const parts = [`${count(coding.uncoded)} uncoded`];
  if (coding.xor > 0) parts.push(`${count(coding.xor)} XOR-coded`);
  if (coding.replicated > 0) parts.push(`${count(coding.replicated)} replicated 3×`);
  if (coding.unusable > 0) parts.push(`${count(coding.unusable)} unusable (loss above 10%)`);
  return (
    `${count(coding.paths)} paths for a target of ${formatLoss(coding.target)}: ${parts.join(', ')}; ` +
    `mean overhead ${formatPercent(coding.mean_overhead, 2)} (at most ${formatPercent(coding.max_overhead, 1)})`
  );
}

/** One line about a FEC answer: "XOR(14): one parity packet per 14, residual loss 0.092%, overhead 7.14%". */
export function fecText(answer: FecAnswer): string {
  switch (answer.scheme) {
    case 'none':
      return `No coding: the loss is below the target ${formatLoss(answer.target)}.`;
    case 'xor':
      return `XOR(${answer.n}): one parity packet per ${answer.n} data packets; residual loss ${formatLoss(answer.residual_loss)}, overhead ${formatPercent(answer.overhead, 2)}.`;
    case 'replicate3':
      return `Triple replication: residual loss ${formatLoss(answer.residual_loss)}, overhead ${formatPercent(answer.overhead, 0)}.`;
    case 'unusable':
      return 'Unusable: the loss is above 10%; repair the path’s links instead.';
  }
}

/** The calculator's query, or every problem with the inputs. */
export function fecQuery(
  lossText: string,
  targetText: string,
): { query: { loss: number; target: number } | null; errors: string[] } {
  const errors: string[] = [];
  const loss = fraction(lossText);
  const target = fraction(targetText);
  if (loss === null || loss < 0 || loss > 1) errors.push('Path loss must be a fraction in [0, 1], e.g. 0.003.');
  if (target === null || target <= 0 || target >= 1) errors.push('Target must be a fraction in (0, 1), e.g. 0.001.');
  return errors.length > 0 ? { query: null, errors } : { query: { loss: loss!, target: target! }, errors };
}

/**
 * What "Paths kept" means for a class whose worst pair keeps few paths, in words: 0 % at class 1
 * reads as a bug unless it says which pair and why. Null when the worst pair keeps them all.
 */
export function keptExplanation(cls: ReliabilityClass, nextClass: number | null): string | null {
  const worst = cls.kept_paths?.worst_pair;
  if (!worst || worst.fraction >= 1) return null;
  const removed = cls.removed.length;
  const why = `${formatCount(removed)} link${removed === 1 ? '' : 's'} losing more than ${formatLoss(cls.bound)} ${removed === 1 ? 'is' : 'are'} left out of it`;
  const pair = `${worst.src_name} → ${worst.dst_name}`;
  if (worst.fraction === 0) {
    const instead = nextClass === null ? '' : ` (class ${nextClass} carries it)`;
    return (
      `Class ${cls.class} keeps only links whose every path loses at most ${formatLoss(cls.bound)}: ${why}. ` +
      `Every shortest path from ${pair} crosses one of them, so that pair keeps 0% of its paths and has no ` +
      `class ${cls.class} route${instead}.`
    );
  }
  return (
    `Class ${cls.class} keeps only links whose every path loses at most ${formatLoss(cls.bound)}: ${why}. ` +
    `Its worst pair, ${pair}, keeps ${formatPercent(worst.fraction, 1)} of its shortest paths.`
  );
}
