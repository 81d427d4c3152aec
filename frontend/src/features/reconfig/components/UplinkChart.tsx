import { LineSwatch } from '@/components/LineSwatch';

import type { UplinkChartModel } from '../uplinkChart';
import { StepBrush } from './StepBrush';

const DEMAND_COLOUR = '#c8402f';
const STATIC_COLOUR = '#56616d';

interface UplinkChartProps {
  chart: UplinkChartModel;
  summary: string;
  onSelect: (index: number) => void;
  onZoom: (first: number, last: number) => void;
}

/**
 * Per-rack uplinks over time as small multiples sharing the time axis: a bar per step (darker where
 * circuits moved), the demand the controller saw as a line, the S static uplinks dashed. A click on
 * a step selects it; a drag across steps zooms to them.
 */
export function UplinkChart({ chart, summary, onSelect, onZoom }: UplinkChartProps) {
  const bottom = chart.rows.at(-1)?.bottom ?? 0;
  return (
    <div className="uplink-chart-block">
      <ul className="legend" aria-label="Uplink chart legend">
        <li>
          <span className="swatch uplink-bar-swatch" style={{ background: '#8fb3dc' }} aria-hidden="true" />
          uplinks held (S static + circuit)
        </li>
        <li>
          <span className="swatch" style={{ background: '#2f6db5' }} aria-hidden="true" />
          the rack gained or gave circuits at this step
        </li>
        <li>
          <LineSwatch colour={DEMAND_COLOUR} width={2} />
          demand ÷ C (links’ worth) the controller reacted to
        </li>
        <li>
          <LineSwatch colour={STATIC_COLOUR} width={1.5} dash="4 3" />S static uplinks
        </li>
      </ul>
      <svg
        className="uplink-chart"
        width={chart.width}
        height={chart.height}
        role="img"
        aria-label={summary}
        data-testid="uplink-chart"
      >
        {chart.rows.map((row) => (
          <g key={row.rack} data-testid="uplink-row" data-rack={row.rack}>
            <text className="rack-label" x={4} y={(row.top + row.bottom) / 2} dy="0.32em">
              {row.name}
            </text>
            <g className="axis axis-y">
              {row.yTicks.map((tick) => (
                <g key={tick.value} transform={`translate(0,${tick.position})`}>
                  <line className="gridline" x1={chart.left} x2={chart.right} />
                  <text x={chart.left - 6} dy="0.32em" textAnchor="end">
                    {tick.label}
                  </text>
                </g>
              ))}
              <line x1={chart.left} x2={chart.left} y1={row.top} y2={row.bottom} />
            </g>
            {row.bars.map((bar) => (
              <rect
                key={bar.index}
                className={bar.changed ? 'uplink-bar uplink-bar-changed' : 'uplink-bar'}
                data-testid="uplink-bar"
                x={bar.x}
                y={bar.y}
                width={bar.width}
                height={bar.height}
              >
                <title>{`${row.name}: ${bar.uplinks} uplinks at step ${bar.index}`}</title>
              </rect>
            ))}
            <line
              x1={chart.left}
              x2={chart.right}
              y1={row.staticY}
              y2={row.staticY}
              stroke={STATIC_COLOUR}
              strokeWidth={1.5}
              strokeDasharray="4 3"
            />
            <path d={row.demandPath} fill="none" stroke={DEMAND_COLOUR} strokeWidth={2} pointerEvents="none" />
          </g>
        ))}
        <StepBrush
          left={chart.left}
          right={chart.right}
          top={chart.plotTop}
          bottom={chart.plotBottom}
          indexAtX={chart.indexAtX}
          onSelect={onSelect}
          onZoom={onZoom}
        />
        {chart.cursorX !== null ? (
          <line
            className="step-cursor"
            data-testid="step-cursor"
            x1={chart.cursorX}
            x2={chart.cursorX}
            y1={chart.rows[0]?.top ?? 0}
            y2={bottom}
            pointerEvents="none"
          />
        ) : null}
        <g className="axis axis-x">
          <line x1={chart.left} x2={chart.right} y1={bottom} y2={bottom} />
          {chart.xTicks.map((tick) => (
            <g key={tick.value} transform={`translate(${tick.position},${bottom})`}>
              <line y2={5} />
              <text y={17} textAnchor="middle">
                {tick.label}
              </text>
            </g>
          ))}
          <text className="axis-title" x={(chart.left + chart.right) / 2} y={chart.height - 4} textAnchor="middle">
            {chart.xTitle}
          </text>
          <text
            className="axis-title"
            transform={`translate(${chart.left - 34},${(chart.rows[0]?.top ?? 0) + 30}) rotate(-90)`}
            textAnchor="middle"
          >
            uplinks
          </text>
        </g>
      </svg>
    </div>
  );
}
