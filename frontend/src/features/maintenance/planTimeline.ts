/**
 * The plan's timeline as geometry: one lane per technician with a bar per visit, the headroom strip
 * below them and a now-line. D3 owns the scale and its ticks; the component only draws what this
 * returns, so the layout is tested without a browser.
 */
import { range, scaleLinear } from 'd3';

import { formatClock } from '@/lib/format';

import type { HeadroomInterval, MaintenancePlan, PlanShortTor } from './api/types';

export const LANE_HEIGHT = 34;
export const STRIP_HEIGHT = 22;
const MARGIN = { left: 120, right: 28, top: 8, bottom: 40 };
const GAP = 12;
const TICK_STEPS_S = [900, 1800, 3600, 7200, 10800, 21600];

export type HeadroomTone = 'none' | 'low' | 'ok' | 'idle' | 'unknown';

/**
 * Red at no spare path (one more failure on the worst ToR puts it under its floor), amber when
 * less than a quarter of its paths are spare, green otherwise. No visit under way: nothing is taken
 * down, grey (the server measures no worst ToR then; older plans did, against nothing taken down);
 * no ToR touched: nothing to colour.
 */
export function headroomTone(
  interval: Pick<HeadroomInterval, 'spare_paths' | 'paths' | 'worst_tor' | 'visits'>,
): HeadroomTone {
  const { spare_paths: spare, paths } = interval;
  if (interval.visits.length === 0) return 'idle';
  if (interval.worst_tor === null || spare === null || paths === null) return 'unknown';
  if (spare <= 0) return 'none';
  if (spare * 4 < paths) return 'low';
  return 'ok';
}

/** "p1-tor5: 0 spare paths (12 of 16 up, needs 12)"; the tooltip and the table name the worst ToR. */
export function headroomText(interval: HeadroomInterval): string {
  if (interval.visits.length === 0) return 'No visit under way';
  if (interval.worst_tor === null || interval.spare_paths === null) return 'No ToR in the fabric';
  const spare = interval.spare_paths === 1 ? '1 spare path' : `${interval.spare_paths} spare paths`;
  // A ToR under its requirement before any work is measured against its paths then: it may not go lower.
  const already =
    interval.paths !== null && interval.required_paths !== null && interval.paths < interval.required_paths
      ? ', already under it before any work'
      : '';
  return `${interval.worst_tor.name}: ${spare} (${interval.paths} up, needs ${interval.required_paths}${already})`;
}

/**
 * The ToRs under their requirement before any work, said once above the strip: "p1-tor3 is already under
 * its requirement (8 of 12 paths): no visit may take it lower." Null when none is (or the plan predates it).
 */
export function shortBeforeText(short: readonly PlanShortTor[] | undefined): string | null {
  if (!short || short.length === 0) return null;
  const paths = (tor: PlanShortTor) => `${tor.paths} of ${tor.required_paths} paths`;
  if (short.length === 1) {
    const [tor] = short;
    return `${tor!.name} is already under its requirement (${paths(tor!)}): no visit may take it lower.`;
  }
  const names = short.map((tor) => `${tor.name} (${paths(tor)})`);
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are already under their requirement: no visit may take them lower.`;
}

export interface TimelineBar {
  workOrder: number;
  x: number;
  width: number;
  y: number;
  label: string;
  startAt: string;
  endAt: string;
}

export interface TimelineLane {
  name: string;
  y: number;
  bars: TimelineBar[];
}

export interface HeadroomSegment {
  x: number;
  width: number;
  tone: HeadroomTone;
  title: string;
  interval: HeadroomInterval;
}

export interface TimelineLayout {
  width: number;
  height: number;
  left: number;
  right: number;
  lanes: TimelineLane[];
  strip: { y: number; segments: HeadroomSegment[] };
  ticks: { x: number; label: string }[];
  /** The now-line's x, or null when now is outside the shift. */
  nowX: number | null;
  axisY: number;
}

/** Technician names in plan order: the assignees, or "Technician N" for a plan given only a count. */
export function laneNames(plan: Pick<MaintenancePlan, 'assignees' | 'technicians' | 'visits'>): string[] {
  const names = Array.from(
    { length: plan.technicians },
    (_, index) => plan.assignees?.[index] ?? `Technician ${index + 1}`,
  );
  for (const visit of plan.visits) if (visit.technician < names.length) names[visit.technician] = visit.technician_name;
  return names;
}

export function layoutTimeline(
  plan: Pick<MaintenancePlan, 'assignees' | 'technicians' | 'visits' | 'shift_s' | 'shift_start' | 'headroom'>,
  width: number,
  now: Date = new Date(),
): TimelineLayout {
  const names = laneNames(plan);
  const left = MARGIN.left;
  const right = Math.max(left + 60, width - MARGIN.right);
  const x = scaleLinear()
    .domain([0, Math.max(plan.shift_s, 1)])
    .range([left, right]);
  const start = new Date(plan.shift_start).getTime();

  const lanes = names.map((name, index) => {
    const y = MARGIN.top + index * LANE_HEIGHT;
    const bars = plan.visits
      .filter((visit) => visit.technician === index)
      .map((visit) => ({
        workOrder: visit.work_order,
        x: x(visit.start_s),
        width: Math.max(2, x(visit.end_s) - x(visit.start_s)),
        y: y + 4,
        label: `#${visit.work_order}`,
        startAt: visit.start_at,
        endAt: visit.end_at,
      }));
    return { name, y, bars };
  });

  const stripY = MARGIN.top + names.length * LANE_HEIGHT + GAP;
  const segments = plan.headroom.map((interval) => ({
    x: x(interval.start_s),
    width: Math.max(1, x(interval.end_s) - x(interval.start_s)),
    tone: headroomTone(interval),
    title: headroomText(interval),
    interval,
  }));

  // Ticks on whole quarter hours, half hours or hours of the clock (UTC), whichever leaves ~90 px
  // between labels. Seconds are not decimal, so d3's nice ticks would not do.
  const room = Math.max(2, Math.floor((right - left) / 90));
  const step = TICK_STEPS_S.find((candidate) => plan.shift_s / candidate <= room) ?? TICK_STEPS_S.at(-1)!;
  const first = (step - ((start / 1000) % step)) % step;
  const ticks = range(first, plan.shift_s + 1, step).map((seconds) => ({
    x: x(seconds),
    label: formatClock(new Date(start + seconds * 1000)),
  }));

  const nowS = (now.getTime() - start) / 1000;
  const axisY = stripY + STRIP_HEIGHT + 4;
  return {
    width,
    height: axisY + MARGIN.bottom,
    left,
    right,
    lanes,
    strip: { y: stripY, segments },
    ticks,
    nowX: nowS >= 0 && nowS <= plan.shift_s ? x(nowS) : null,
    axisY,
  };
}
