import { useEffect, useMemo, useRef } from 'react';

import { CANVAS_RACKS, type HeatMapLayout, type HeatMapModel, layoutHeatMap, legendTicks } from '../heatMap';
import { formatBytes } from '../scheduleFormat';

const OUTLINE_COLOUR = '#1f5fa8';

interface DemandHeatMapProps {
  model: HeatMapModel;
  width: number;
  /** What the map shows, for screen readers and the caption. */
  caption: string;
}

/** Racks × racks demand; SVG up to CANVAS_RACKS racks, a canvas beyond (a million cells at 1,000 racks). */
export function DemandHeatMap({ model, width, caption }: DemandHeatMapProps) {
  const layout = useMemo(() => layoutHeatMap(model.labels, width), [model.labels, width]);
  const onCanvas = model.labels.length > CANVAS_RACKS;
  return (
    <figure className="heatmap" data-testid="demand-heatmap" data-racks={model.labels.length}>
      <HeatMapLegend model={model} />
      {onCanvas ? (
        <HeatMapCanvas model={model} layout={layout} caption={caption} />
      ) : (
        <HeatMapSvg model={model} layout={layout} caption={caption} />
      )}
      <figcaption className="muted">
        {caption}. Rows send, columns receive
        {model.outlines.length > 0
          ? `; ${model.outlines.length / 2} circuit${model.outlines.length === 2 ? '' : 's'} outlined (both directions of each pair)`
          : ''}
        .
      </figcaption>
    </figure>
  );
}

function HeatMapLegend({ model }: { model: HeatMapModel }) {
  const ticks = legendTicks(model.domain);
  const domain = model.domain;
  if (domain === null) return <p className="muted">No demand above zero in this window.</p>;
  const [low, high] = domain;
  const logSpan = Math.log(high) - Math.log(low) || 1;
  const at = (value: number) => ((Math.log(value) - Math.log(low)) / logSpan) * 100;
  const stops = Array.from({ length: 9 }, (_, i) => low * Math.exp((logSpan * i) / 8));
  return (
    <div className="heatmap-legend" aria-label="Heat map legend">
      <span className="legend-title">Bytes in the window (log scale)</span>
      <div className="heatmap-scale">
        <div
          className="heatmap-ramp"
          style={{ background: `linear-gradient(to right, ${stops.map((stop) => model.colour(stop)).join(', ')})` }}
        />
        <div className="heatmap-ticks">
          {ticks.map((tick) => (
            <span key={tick} style={{ left: `${high > low ? at(tick) : 0}%` }}>
              {formatBytes(tick)}
            </span>
          ))}
        </div>
      </div>
      {model.outlines.length > 0 ? (
        <span className="heatmap-key">
          <span className="heatmap-outline-swatch" aria-hidden="true" /> circuit in the chosen slot
        </span>
      ) : null}
    </div>
  );
}

function HeatMapSvg({ model, layout, caption }: { model: HeatMapModel; layout: HeatMapLayout; caption: string }) {
  const { cell, left, top, size, labelEvery } = layout;
  const showLabel = (position: number) => Number.isFinite(labelEvery) && position % labelEvery === 0;
  return (
    <svg width={layout.width} height={layout.height} role="img" aria-label={`Demand heat map: ${caption}`}>
      <rect x={left} y={top} width={size} height={size} fill="#f3f5f7" />
      {model.labels.map((label, position) =>
        showLabel(position) ? (
          <g key={label} className="heatmap-label">
            <text x={left - 6} y={top + (position + 0.5) * cell} dy="0.32em" textAnchor="end">
              {label}
            </text>
            <text
              transform={`translate(${left + (position + 0.5) * cell},${top - 6}) rotate(-60)`}
              dy="0.32em"
              textAnchor="start"
            >
              {label}
            </text>
          </g>
        ) : null,
      )}
      <g>
        {model.cells.map((c) => (
          <rect
            key={`${c.src}:${c.dst}`}
            data-testid="heatmap-cell"
            x={left + c.col * cell}
            y={top + c.row * cell}
            width={cell}
            height={cell}
            fill={c.colour}
          >
            <title>{`${model.labels[c.row]} → ${model.labels[c.col]}: ${formatBytes(c.bytes)}`}</title>
          </rect>
        ))}
      </g>
      <g fill="none" stroke={OUTLINE_COLOUR} strokeWidth={Math.min(2.5, Math.max(1, cell / 8))}>
        {model.outlines.map((o) => (
          <rect
            key={`${o.row}:${o.col}`}
            data-testid="heatmap-outline"
            data-pair={`${model.labels[o.row]}→${model.labels[o.col]}`}
            x={left + o.col * cell + 1}
            y={top + o.row * cell + 1}
            width={Math.max(1, cell - 2)}
            height={Math.max(1, cell - 2)}
          >
            <title>{`Circuit ${model.labels[o.row]} – ${model.labels[o.col]}${
              o.count > 1 ? ` ×${o.count}` : ''
            }: ${formatBytes(o.bytes)} this way`}</title>
          </rect>
        ))}
      </g>
      <rect x={left} y={top} width={size} height={size} fill="none" stroke="#aab4bf" />
    </svg>
  );
}

/** Thousands of racks: every cell is a pixel rectangle, outlines are drawn at least 3 px wide to stay visible. */
function HeatMapCanvas({ model, layout, caption }: { model: HeatMapModel; layout: HeatMapLayout; caption: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(layout.width * ratio);
    canvas.height = Math.round(layout.height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const { cell, left, top, size } = layout;
    context.clearRect(0, 0, layout.width, layout.height);
    context.fillStyle = '#f3f5f7';
    context.fillRect(left, top, size, size);
    const drawn = Math.max(cell, 1);
    for (const c of model.cells) {
      context.fillStyle = c.colour;
      context.fillRect(left + c.col * cell, top + c.row * cell, drawn, drawn);
    }
    context.strokeStyle = OUTLINE_COLOUR;
    context.lineWidth = Math.min(2.5, Math.max(1, cell / 8));
    const outline = Math.max(cell, 3);
    for (const o of model.outlines) {
      const cx = left + (o.col + 0.5) * cell;
      const cy = top + (o.row + 0.5) * cell;
      context.strokeRect(cx - outline / 2, cy - outline / 2, outline, outline);
    }
    context.strokeStyle = '#aab4bf';
    context.strokeRect(left, top, size, size);
  }, [model, layout]);
  return (
    <canvas
      ref={ref}
      style={{ width: layout.width, height: layout.height }}
      role="img"
      aria-label={`Demand heat map: ${caption}`}
      data-testid="heatmap-canvas"
    />
  );
}
