import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';

import { formatTimeRange } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { MaintenancePlan } from '../api/types';
import { actionLabel } from '../actionLabel';
import { type HeadroomTone, layoutTimeline, LANE_HEIGHT, shortBeforeText, STRIP_HEIGHT } from '../planTimeline';

const TONE_LABELS: Record<HeadroomTone, string> = {
  none: 'no spare path',
  low: 'under a quarter spare',
  ok: 'a quarter or more spare',
  idle: 'no visit under way',
  unknown: 'no ToR',
};

/** The legend: a fabric without ToRs ('unknown') says so in the strip's tooltip. */
const TONES: readonly HeadroomTone[] = ['none', 'low', 'ok', 'idle'];

/** The time now, moved on every minute: the now-line walks across the shift while the page is open. */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** Room for the bar's "#12" inside it. */
const LABEL_MIN_WIDTH = 30;

/**
 * The plan over the shift: a lane per technician with each visit as a bar (hover for the order, tap
 * to pick it), the headroom strip (the worst ToR's spare paths while the visits are under way) and a
 * now-line. The table below says the same for screen readers and for reading.
 */
export function PlanTimeline({ plan }: { plan: MaintenancePlan }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const now = useMinute();
  const layout = useMemo(() => layoutTimeline(plan, width, now), [plan, width, now]);
  const orders = useMemo(() => new Map(plan.work_orders.map((order) => [order.id, order])), [plan.work_orders]);
  const [picked, setPicked] = useState<number | null>(null);
  const pickedVisit = plan.visits.find((visit) => visit.work_order === picked);
  const pickedOrder = picked === null ? undefined : orders.get(picked);
  const stripMiddle = layout.strip.y + STRIP_HEIGHT / 2;
  const shortBefore = shortBeforeText(plan.short_before);

  return (
    <div ref={ref} className="plan-timeline">
      {shortBefore ? (
        <p className="notice" data-testid="plan-short-before">
          {shortBefore}
        </p>
      ) : null}
      <svg
        width={layout.width}
        height={layout.height}
        role="img"
        aria-label={`Timeline of ${plan.visits.length} visits by ${layout.lanes.length} technicians over the shift, with the fabric's headroom below; the table after it lists the same visits.`}
        data-testid="plan-timeline"
      >
        {layout.lanes.map((lane) => (
          <g key={lane.name} data-testid="timeline-lane">
            <line
              className="timeline-lane-line"
              x1={layout.left}
              x2={layout.right}
              y1={lane.y + LANE_HEIGHT - 2}
              y2={lane.y + LANE_HEIGHT - 2}
            />
            <text
              className="timeline-lane-name"
              x={layout.left - 8}
              y={lane.y + LANE_HEIGHT / 2}
              dy="0.32em"
              textAnchor="end"
            >
              {lane.name}
            </text>
            {lane.bars.map((bar) => (
              <g
                key={bar.workOrder}
                className={bar.workOrder === picked ? 'timeline-bar timeline-bar-picked' : 'timeline-bar'}
                onClick={() => setPicked(bar.workOrder === picked ? null : bar.workOrder)}
                data-testid="timeline-bar"
                data-work-order={bar.workOrder}
              >
                <title>{`Work order ${bar.workOrder}, ${formatTimeRange(bar.startAt, bar.endAt)}`}</title>
                <rect x={bar.x} y={bar.y} width={bar.width} height={LANE_HEIGHT - 10} rx={3} />
                {bar.width >= LABEL_MIN_WIDTH ? (
                  <text x={bar.x + 4} y={bar.y + (LANE_HEIGHT - 10) / 2} dy="0.32em">
                    {bar.label}
                  </text>
                ) : null}
              </g>
            ))}
          </g>
        ))}
        <text className="timeline-lane-name" x={layout.left - 8} y={stripMiddle} dy="0.32em" textAnchor="end">
          Headroom
        </text>
        {layout.strip.segments.map((segment) => (
          <rect
            key={segment.interval.start_s}
            className={`headroom headroom-${segment.tone}`}
            x={segment.x}
            y={layout.strip.y}
            width={segment.width}
            height={STRIP_HEIGHT}
            data-testid="headroom-segment"
            data-tone={segment.tone}
          >
            <title>{segment.title}</title>
          </rect>
        ))}
        <g className="axis axis-x">
          <line x1={layout.left} x2={layout.right} y1={layout.axisY} y2={layout.axisY} />
          {layout.ticks.map((tick) => (
            <g key={tick.x} transform={`translate(${tick.x},${layout.axisY})`}>
              <line y2={5} />
              <text y={17} textAnchor="middle">
                {tick.label}
              </text>
            </g>
          ))}
          <text className="axis-title" x={(layout.left + layout.right) / 2} y={layout.axisY + 34} textAnchor="middle">
            Time of day (UTC)
          </text>
        </g>
        {layout.nowX !== null ? (
          <g className="timeline-now" data-testid="timeline-now">
            <line x1={layout.nowX} x2={layout.nowX} y1={0} y2={layout.axisY} />
            <text x={layout.nowX + 3} y={10}>
              now
            </text>
          </g>
        ) : null}
      </svg>
      <ul className="legend" aria-label="Headroom colours">
        {TONES.map((tone) => (
          <li key={tone}>
            <span className={`headroom-swatch headroom-${tone}`} aria-hidden="true" /> {TONE_LABELS[tone]}
          </li>
        ))}
      </ul>
      {pickedVisit ? (
        <p className="timeline-picked" data-testid="timeline-picked">
          <Link to={`/work-orders/${pickedVisit.work_order}`}>Work order #{pickedVisit.work_order}</Link>
          {pickedOrder ? `: ${actionLabel(pickedOrder.action)}, ${pickedOrder.component_name}` : ''} —{' '}
          {pickedVisit.technician_name}, {formatTimeRange(pickedVisit.start_at, pickedVisit.end_at)}
        </p>
      ) : (
        <p className="muted">Hover a bar for its order; tap it to name the order with a link to it.</p>
      )}
    </div>
  );
}
