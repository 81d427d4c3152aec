import { useMemo, useState } from 'react';

import { ChartAxes } from '@/components/charts/ChartAxes';
import { formatCount, formatSeconds } from '@/lib/format';

import type { CircuitSlot } from '../api/types';
import { layoutTimeline, type Timeline } from '../timeline';

const SLOTS_PER_PAGE = [10, 30, 60, 240] as const;
const ROWS_PER_PAGE = 32;
const BAR_COLOUR = '#3f7cbf';

interface CircuitTimelineProps {
  timeline: Timeline;
  slots: readonly CircuitSlot[];
  darkTimeS: number;
  width: number;
  /** The slot chosen on the heat map, marked on the timeline. */
  selectedSlot: number;
}

/** Per-port Gantt of circuits, paged over slots and rows (a one-hour plan has 3,600 slots). */
export function CircuitTimeline({ timeline, slots, darkTimeS, width, selectedSlot }: CircuitTimelineProps) {
  const [perPage, setPerPage] = useState<number>(30);
  const [slotPage, setSlotPage] = useState(0);
  const [rowPage, setRowPage] = useState(0);
  const slotPages = Math.max(1, Math.ceil(slots.length / perPage));
  const rowPages = Math.max(1, Math.ceil(timeline.rows.length / ROWS_PER_PAGE));
  const page = Math.min(slotPage, slotPages - 1);
  const rows = Math.min(rowPage, rowPages - 1);
  const firstSlot = slots[page * perPage]?.index ?? 0;
  const lastSlot = slots[Math.min(slots.length, (page + 1) * perPage) - 1]?.index ?? firstSlot;
  const firstRow = rows * ROWS_PER_PAGE;
  const rowEnd = Math.min(timeline.rows.length, (rows + 1) * ROWS_PER_PAGE);
  const chart = useMemo(
    () => layoutTimeline(timeline, slots, { firstSlot, lastSlot, firstRow, rowEnd }, width),
    [timeline, slots, width, firstSlot, lastSlot, firstRow, rowEnd],
  );
  const selected = slots.find((slot) => slot.index === selectedSlot);
  const showSlot = (slot: number) => {
    const at = slots.findIndex((s) => s.index === slot);
    if (at >= 0) setSlotPage(Math.floor(at / perPage));
  };

  if (timeline.rows.length === 0) return <p data-testid="circuit-timeline-empty">No port holds a circuit.</p>;
  const { area } = chart;
  return (
    <div className="timeline" data-testid="circuit-timeline" data-rows={timeline.rows.length}>
      <ul className="legend" aria-label="Timeline legend">
        <li>
          <span className="swatch" style={{ background: BAR_COLOUR }} aria-hidden="true" />
          Circuit (labelled with the peer rack)
        </li>
        <li>
          <svg width="14" height="14" aria-hidden="true">
            <rect width="14" height="14" fill="url(#dark-hatch)" stroke="#444" strokeWidth="0.5" />
          </svg>
          Dark while reconfigured ({formatSeconds(darkTimeS)} at the slot’s start; drawn at least 2 px wide)
        </li>
        {selected ? (
          <li>
            <span className="timeline-selected-swatch" aria-hidden="true" />
            Slot {selected.index + 1} (chosen on the heat map)
          </li>
        ) : null}
      </ul>
      <div className="timeline-controls filters" role="group" aria-label="Timeline pages">
        <label>
          Slots per page
          <select value={perPage} onChange={(event) => setPerPage(Number(event.target.value))}>
            {SLOTS_PER_PAGE.map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setSlotPage(page - 1)} disabled={page === 0}>
          ← Earlier
        </button>
        <span data-testid="timeline-slot-range">
          Slots {firstSlot + 1}–{lastSlot + 1} of {formatCount(slots.length)}
        </span>
        <button type="button" onClick={() => setSlotPage(page + 1)} disabled={page >= slotPages - 1}>
          Later →
        </button>
        {selected ? (
          <button type="button" onClick={() => showSlot(selected.index)}>
            Go to slot {selected.index + 1}
          </button>
        ) : null}
        {rowPages > 1 ? (
          <>
            <button type="button" onClick={() => setRowPage(rows - 1)} disabled={rows === 0}>
              ↑ Ports
            </button>
            <span>
              Ports {firstRow + 1}–{rowEnd} of {timeline.rows.length}
            </span>
            <button type="button" onClick={() => setRowPage(rows + 1)} disabled={rows >= rowPages - 1}>
              Ports ↓
            </button>
          </>
        ) : null}
      </div>
      <svg
        width={area.width}
        height={area.height}
        role="img"
        aria-label={`Circuits per rack port over slots ${firstSlot + 1} to ${lastSlot + 1}`}
      >
        <defs>
          <pattern id="dark-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="4" height="4" fill="#d9d9d9" />
            <line x1="0" y1="0" x2="0" y2="4" stroke="#333" strokeWidth="1.5" />
          </pattern>
        </defs>
        <ChartAxes
          area={area}
          xTicks={chart.xTicks}
          yTicks={chart.yTicks}
          xTitle="Time from the first window (s)"
          yTitle="Rack optical port"
          yTickTestId="timeline-row"
        />
        {selected && selected.index >= firstSlot && selected.index <= lastSlot ? (
          <rect
            className="timeline-selected"
            x={chart.xOf(selected.t0)}
            y={area.top}
            width={Math.max(1, chart.xOf(selected.t1) - chart.xOf(selected.t0))}
            height={area.bottom - area.top}
          />
        ) : null}
        <g>
          {chart.bars.map((bar) => (
            <g key={`${bar.row}:${bar.firstSlot}`} data-testid="timeline-bar" data-peer={bar.peerName}>
              <rect x={bar.x} y={bar.y} width={bar.width} height={bar.height} fill={BAR_COLOUR} rx={2} />
              {bar.showLabel ? (
                <text className="timeline-bar-label" x={bar.x + 4} y={bar.y + bar.height / 2} dy="0.32em">
                  {bar.peerName}
                </text>
              ) : null}
              <title>{`${timeline.rows[bar.row]?.label} ↔ ${bar.peerName}: slots ${bar.firstSlot + 1}–${
                bar.lastSlot + 1
              } (${bar.t0}–${bar.t1} s)`}</title>
            </g>
          ))}
        </g>
        <g>
          {chart.dark.map((interval) => (
            <rect
              key={`${interval.row}:${interval.slot}`}
              data-testid="timeline-dark"
              x={interval.x}
              y={interval.y}
              width={interval.width}
              height={interval.height}
              fill="url(#dark-hatch)"
            >
              <title>{`${timeline.rows[interval.row]?.label}: dark ${interval.t0}–${Number(interval.t1.toFixed(6))} s`}</title>
            </rect>
          ))}
        </g>
      </svg>
    </div>
  );
}
