/**
 * Turns a recommendation's evidence (JSON from corruption/recommend.py) into what the ticket page
 * shows: each measured value beside the limit it was compared with, and which facts made the
 * rule fire.
 */
import { formatDbm, formatTime } from '@/lib/format';
import { formatLossRate } from '@/lib/format/number';

import type { Evidence, EvidenceOptics } from './api/types';
import { actionDone } from './repairActions';

export type EvidenceKey =
  'neighbours' | 'opposite' | 'far_tx' | 'local_rx' | 'far_rx' | 'reseat' | 'history' | 'no_optics';

/** The facts a rule read to fire: the page marks them. */
export function decisiveEvidence(rule: string): EvidenceKey[] {
  if (rule.startsWith('shared_component.')) return ['neighbours'];
  if (rule.startsWith('escalation.')) return ['history'];
  switch (rule) {
    case 'opposite_direction':
      return ['opposite'];
    case 'far_tx_low':
      return ['far_tx'];
    case 'both_rx_low':
      return ['local_rx', 'far_rx'];
    case 'local_rx_low':
      return ['local_rx'];
    case 'reseat':
    case 'reseated_recently':
      return ['reseat'];
    case 'no_optical_data':
      return ['no_optics'];
    default:
      return [];
  }
}

export interface OpticsRow {
  key: Extract<EvidenceKey, 'far_tx' | 'local_rx' | 'far_rx'> | 'local_tx';
  /** "Rx at Z (receiving end)". */
  label: string;
  end: string;
  transceiverModel: string | null;
  /** The value the rule compared: the lowest lane when lanes were reported. */
  value: number | null;
  /** The average over lanes, when it differs from the compared value. */
  average: number | null;
  limit: number | null;
  provenance: string | null;
  /** What the backend concluded (it also counts "no light" and the device's own low class). */
  low: boolean;
  dark: boolean;
  comparison: string;
  decisive: boolean;
}

function opticsRow(
  key: OpticsRow['key'],
  label: string,
  optics: EvidenceOptics,
  kind: 'rx' | 'tx',
  decisive: EvidenceKey[],
): OpticsRow {
  const laneValue = kind === 'rx' ? optics.rx_min_lane_dbm : optics.tx_min_lane_dbm;
  const averageValue = kind === 'rx' ? optics.rx_dbm : optics.tx_dbm;
  const value = laneValue ?? averageValue ?? null;
  const average = laneValue !== null && laneValue !== undefined ? (averageValue ?? null) : null;
  const thresholdName = kind === 'rx' ? 'input_power_lower_dbm' : 'output_power_lower_dbm';
  const threshold = optics.thresholds?.[thresholdName] ?? { value: null, provenance: null };
  const low = kind === 'rx' ? optics.rx_low : optics.tx_low;
  const dark = Boolean(kind === 'rx' ? optics.rx_no_light : optics.tx_no_light);
  // Rx counts as low strictly below its limit, Tx at or below (recommend.py).
  const below = kind === 'rx' ? '<' : '≤';
  const above = kind === 'rx' ? '≥' : '>';
  let comparison: string;
  if (dark) comparison = 'no light';
  else if (value === null) comparison = 'not measured';
  else if (threshold.value === null) comparison = low ? 'low (device class)' : 'no limit known';
  else if (value < threshold.value || (kind === 'tx' && value === threshold.value))
    comparison = `${formatDbm(value)} ${below} ${formatDbm(threshold.value)}`;
  else
    comparison = low
      ? `low (device class; ${formatDbm(value)} ${above} limit)`
      : `${formatDbm(value)} ${above} ${formatDbm(threshold.value)}`;
  return {
    key,
    label,
    end: optics.end,
    transceiverModel: optics.transceiver_model,
    value,
    average,
    limit: threshold.value,
    provenance: threshold.provenance,
    low,
    dark,
    comparison,
    decisive: (decisive as string[]).includes(key),
  };
}

/** Rx and Tx of both ends against their lower limits, receiving end first. */
export function opticsRows(evidence: Evidence, rule: string): OpticsRow[] {
  const optics = evidence.optics;
  if (!optics) return [];
  const decisive = decisiveEvidence(rule);
  const local = (evidence.local_end ?? '').toUpperCase();
  const far = (evidence.far_end ?? '').toUpperCase();
  return [
    opticsRow('local_rx', `Rx at ${local} (receiving end)`, optics.local, 'rx', decisive),
    opticsRow('far_tx', `Tx at ${far} (far end)`, optics.far, 'tx', decisive),
    opticsRow('far_rx', `Rx at ${far} (far end)`, optics.far, 'rx', decisive),
    opticsRow('local_tx', `Tx at ${local} (receiving end)`, optics.local, 'tx', decisive),
  ];
}

export interface NeighbourRow {
  link: number;
  name: string;
  where: string;
  rate: string;
  firstSeen: string;
  /** Why it counts (or not) as sharing a component with this link. */
  relation: string;
}

export function neighbourRows(evidence: Evidence): NeighbourRow[] {
  return (evidence.neighbours ?? []).flatMap((group) =>
    group.links.map((neighbour) => {
      const reasons: string[] = [];
      if (neighbour.same_breakout_group) reasons.push('same breakout group');
      else if (neighbour.same_line_card) reasons.push('same line card');
      if (neighbour.onset_within_window) reasons.push('started within the window');
      if (neighbour.rate_within_ratio) reasons.push('similar rate');
      return {
        link: neighbour.link,
        name: neighbour.name,
        where: `${neighbour.switch} ${neighbour.port}`,
        rate: formatLossRate(neighbour.rate),
        firstSeen: neighbour.first_seen,
        relation: reasons.length > 0 ? reasons.join(', ') : 'unrelated port on the same switch',
      };
    }),
  );
}

/** One line on what the repair history changed, or null when there is no history yet. */
export function historySummary(evidence: Evidence): string | null {
  const history = evidence.history ?? [];
  const done = history.filter((step) => step.action_taken);
  if (done.length === 0) return null;
  const failed = evidence.failed_actions ?? [];
  const tried = done.map((step) => `${actionDone(step.action_taken).toLowerCase()} (${step.outcome})`).join(', ');
  if (failed.length === 0) return `Tried so far: ${tried}.`;
  const failedWords = failed.map((action) => actionDone(action).toLowerCase()).join(', ');
  return `Tried so far: ${tried}. Not repeated because corruption returned after it: ${failedWords}.`;
}

/** "reseated 2 days ago (counts as recent: within 7 days)" and the like. */
export function reseatSummary(evidence: Evidence): string | null {
  const reseat = evidence.reseat;
  if (!reseat) return null;
  const window = `within ${reseat.window_days} days or this fault episode`;
  if (!reseat.last_reseated_at) return `No reseat on record (recent means ${window}).`;
  const source = reseat.source === 'history' ? 'this ticket' : 'the transceiver record';
  return `Last reseated ${formatTime(reseat.last_reseated_at)} (from ${source}); ${
    reseat.recent ? 'counts as recent' : 'not recent'
  } (recent means ${window}).`;
}
