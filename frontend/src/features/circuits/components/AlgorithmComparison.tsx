import { scaleBand, scaleLinear } from 'd3';
import { useMemo } from 'react';

import { ChartAxes } from '@/components/charts/ChartAxes';
import { formatPercent } from '@/lib/format';

import type { ComparisonMetrics } from '../api/types';
import { comparisonRows } from '../scheduleFormat';

const BAR = '#3f7cbf';
const CHOSEN = '#1f5fa8';
const UNIFORM = '#c8402f';

interface AlgorithmComparisonProps {
  comparison: readonly ComparisonMetrics[];
  chosen: string;
  uniformRatio: number;
  width: number;
}

/** Exact against the baselines on the same inputs: a table and the optical ratios as bars. */
export function AlgorithmComparison({ comparison, chosen, uniformRatio, width }: AlgorithmComparisonProps) {
  const rows = useMemo(() => comparisonRows(comparison, chosen), [comparison, chosen]);
  const chart = useMemo(() => {
    const longest = Math.max(...rows.map((row) => row.label.length), 6);
    const left = Math.round(longest * 6.5 + 36);
    const area = {
      width: Math.min(width, 760),
      height: 40 + rows.length * 34 + 16,
      left,
      right: Math.min(width, 760) - 56,
      top: 8,
      bottom: 8 + rows.length * 34,
    };
    const top = Math.max(uniformRatio, ...rows.map((row) => row.opticalRatio), 0.01);
    const x = scaleLinear()
      .domain([0, Math.min(1, top * 1.1)])
      .nice()
      .range([area.left, area.right]);
    const y = scaleBand<string>()
      .domain(rows.map((row) => row.algorithm))
      .range([area.top, area.bottom])
      .padding(0.25);
    return {
      area,
      x,
      y,
      xTicks: x.ticks(5).map((value) => ({ value, position: x(value), label: formatPercent(value, 0) })),
      yTicks: rows.map((row) => ({
        value: row.algorithm,
        position: (y(row.algorithm) ?? 0) + y.bandwidth() / 2,
        label: row.label,
      })),
    };
  }, [rows, uniformRatio, width]);

  return (
    <div className="comparison" data-testid="algorithm-comparison">
      <table className="data-table">
        <caption className="visually-hidden">Algorithms on the same demand and circuit switch</caption>
        <thead>
          <tr>
            <th scope="col">Algorithm</th>
            <th scope="col" className="numeric">
              Optical ratio
            </th>
            <th scope="col" className="numeric">
              Offloaded
            </th>
            <th scope="col" className="numeric">
              Gap to bound
            </th>
            <th scope="col" className="numeric">
              Visit delay max / p95 (slots)
            </th>
            <th scope="col" className="numeric">
              Flaps
            </th>
            <th scope="col" className="numeric">
              Runtime
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.algorithm} data-testid="comparison-row" data-algorithm={row.algorithm}>
              <th scope="row">
                {row.label}
                {row.chosen ? <span className="badge badge-succeeded comparison-chosen">this schedule</span> : null}
              </th>
              <td className="numeric">{row.cells.optical}</td>
              <td className="numeric">{row.cells.offloaded}</td>
              <td className="numeric">{row.cells.gap}</td>
              <td className="numeric">{row.cells.visitDelay}</td>
              <td className="numeric">{row.cells.flaps}</td>
              <td className="numeric">{row.cells.runtime}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="legend" aria-label="Comparison chart legend">
        <li>
          <span className="swatch" style={{ background: CHOSEN }} aria-hidden="true" />
          This schedule’s algorithm
        </li>
        <li>
          <span className="swatch" style={{ background: BAR }} aria-hidden="true" />
          Compared algorithm
        </li>
        <li>
          <svg width="28" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="27" y2="5" stroke={UNIFORM} strokeWidth={2} strokeDasharray="5 3" />
          </svg>
          Uniform-demand ratio {formatPercent(uniformRatio)}
        </li>
      </ul>
      <svg
        width={chart.area.width}
        height={chart.area.height}
        role="img"
        aria-label={`Optical ratio per algorithm: ${rows.map((row) => `${row.label} ${row.cells.optical}`).join(', ')}`}
      >
        <ChartAxes
          area={chart.area}
          xTicks={chart.xTicks}
          yTicks={chart.yTicks.map((tick, i) => ({ ...tick, value: i }))}
          xTitle="Optical ratio (share of the demand carried by circuits, %)"
          yTitle=""
        />
        {rows.map((row) => (
          <g key={row.algorithm} data-testid="comparison-bar" data-algorithm={row.algorithm}>
            <rect
              x={chart.area.left}
              y={chart.y(row.algorithm)}
              width={Math.max(1, chart.x(row.opticalRatio) - chart.area.left)}
              height={chart.y.bandwidth()}
              fill={row.chosen ? CHOSEN : BAR}
            />
            <text
              className="comparison-value"
              x={chart.x(row.opticalRatio) + 4}
              y={(chart.y(row.algorithm) ?? 0) + chart.y.bandwidth() / 2}
              dy="0.32em"
            >
              {row.cells.optical}
            </text>
          </g>
        ))}
        <line
          x1={chart.x(uniformRatio)}
          x2={chart.x(uniformRatio)}
          y1={chart.area.top}
          y2={chart.area.bottom}
          stroke={UNIFORM}
          strokeWidth={2}
          strokeDasharray="5 3"
        />
      </svg>
    </div>
  );
}
