import { useMemo } from 'react';

import { LineSwatch } from '@/components/LineSwatch';
import { useElementWidth } from '@/lib/useElementWidth';

import type { FabricCapacity } from '../api/types';
import { buildCapacityChart, CAPACITY_COLOURS, capacitySummaryText, formatFraction } from './capacityChart';

const PLOT_HEIGHT = 220;

interface CapacityBarsProps {
  capacity: FabricCapacity;
  /** Overrides the measured width (component tests have no layout engine). */
  width?: number;
}

export function CapacityBars({ capacity, width: fixedWidth }: CapacityBarsProps) {
  const { ref, width: measuredWidth } = useElementWidth<HTMLDivElement>();
  const width = fixedWidth ?? measuredWidth;
  const chart = useMemo(
    () => buildCapacityChart(capacity.tors, { width, plotHeight: PLOT_HEIGHT }),
    [capacity.tors, width],
  );
  const summary = capacitySummaryText(capacity.summary, capacity.capacity_constraint);
  const belowConstraint = chart.bars.filter((bar) => bar.tor.below_constraint).map((bar) => bar.tor);
  const plotTop = chart.margin.top;

  return (
    <div className="capacity" data-testid="capacity-bars" data-tor-count={chart.bars.length}>
      <p className="capacity-summary" data-testid="capacity-summary">
        {summary}
      </p>
      <ul className="legend" aria-label="Capacity chart legend">
        <li>
          <span className="swatch" style={{ background: CAPACITY_COLOURS.ok }} aria-hidden="true" />
          At or above constraint
        </li>
        <li>
          <span className="swatch" style={{ background: CAPACITY_COLOURS.below }} aria-hidden="true" />
          Below constraint
        </li>
        <li>
          <LineSwatch colour={CAPACITY_COLOURS.constraint} width={2} dash="6 3" />
          Capacity constraint (fraction of paths that must stay available)
        </li>
      </ul>
      <div ref={ref} className="capacity-stage">
        {chart.bars.length === 0 ? (
          <p>This fabric has no ToR switches, so there is no capacity to show.</p>
        ) : (
          <svg
            width={chart.width}
            height={chart.height}
            viewBox={`0 0 ${chart.width} ${chart.height}`}
            role="img"
            aria-label={`Fraction of up-paths available per ToR: ${summary}`}
          >
            <g className="axis axis-y">
              {chart.yTicks.map((tick) => (
                <g key={tick.value} transform={`translate(0,${tick.position})`}>
                  <line className="gridline" x1={chart.plotLeft} x2={chart.plotRight} />
                  <line x1={chart.plotLeft - 5} x2={chart.plotLeft} />
                  <text x={chart.plotLeft - 8} dy="0.32em" textAnchor="end">
                    {tick.label}
                  </text>
                </g>
              ))}
              <line x1={chart.plotLeft} x2={chart.plotLeft} y1={plotTop} y2={chart.plotBottom} />
              <text
                className="axis-title"
                transform={`translate(16,${(plotTop + chart.plotBottom) / 2}) rotate(-90)`}
                textAnchor="middle"
              >
                Fraction of paths available (0–1)
              </text>
            </g>

            <g className="bars">
              {chart.bars.map((bar) => (
                <rect
                  key={bar.tor.switch}
                  data-testid="capacity-bar"
                  data-tor={bar.tor.name}
                  data-below-constraint={bar.tor.below_constraint ? 'true' : 'false'}
                  x={bar.x}
                  y={bar.y}
                  width={bar.width}
                  height={bar.height}
                  fill={bar.colour}
                >
                  <title>
                    {`${bar.tor.name}: ${bar.tor.available_paths}/${bar.tor.total_paths} paths up ` +
                      `(${formatFraction(bar.tor.fraction)}), constraint ${formatFraction(bar.tor.constraint)}` +
                      (bar.tor.below_constraint ? ' — below constraint' : '')}
                  </title>
                </rect>
              ))}
            </g>

            <path
              className="constraint-line"
              data-testid="capacity-constraint"
              d={chart.constraintPath}
              fill="none"
              stroke={CAPACITY_COLOURS.constraint}
              strokeWidth={2}
              strokeDasharray="6 3"
            />
            {chart.constraintLabel ? (
              <text
                className="constraint-label"
                x={chart.plotRight + 6}
                y={chart.constraintLabel.y}
                dy="0.32em"
                fill={CAPACITY_COLOURS.constraint}
              >
                {chart.constraintLabel.text}
              </text>
            ) : null}

            <g className="axis axis-x">
              <line x1={chart.plotLeft} x2={chart.plotRight} y1={chart.plotBottom} y2={chart.plotBottom} />
              {chart.showBarLabels
                ? chart.bars.map((bar) => (
                    <text
                      key={bar.tor.switch}
                      className="bar-label"
                      transform={`translate(${bar.x + bar.width / 2},${chart.plotBottom + 8}) rotate(-45)`}
                      textAnchor="end"
                      dy="0.32em"
                    >
                      {bar.tor.name}
                    </text>
                  ))
                : null}
              {chart.pods.map((pod) => (
                <g key={pod.label}>
                  <line className="pod-bracket" x1={pod.x0} x2={pod.x1} y1={chart.height - 34} y2={chart.height - 34} />
                  {pod.showLabel ? (
                    <text x={(pod.x0 + pod.x1) / 2} y={chart.height - 22} textAnchor="middle">
                      {pod.label}
                    </text>
                  ) : null}
                </g>
              ))}
              <text
                className="axis-title"
                x={(chart.plotLeft + chart.plotRight) / 2}
                y={chart.height - 4}
                textAnchor="middle"
              >
                ToR switches, grouped by pod
              </text>
            </g>
          </svg>
        )}
      </div>
      {belowConstraint.length > 0 ? (
        <details className="below-constraint">
          <summary>ToRs below constraint ({belowConstraint.length.toLocaleString('en-US')})</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">ToR</th>
                <th scope="col">Pod</th>
                <th scope="col">Paths up</th>
                <th scope="col">Fraction</th>
                <th scope="col">Constraint</th>
              </tr>
            </thead>
            <tbody>
              {belowConstraint.map((tor) => (
                <tr key={tor.switch}>
                  <td>{tor.name}</td>
                  <td>{tor.pod ?? '—'}</td>
                  <td>
                    {tor.available_paths} / {tor.total_paths}
                  </td>
                  <td>{formatFraction(tor.fraction)}</td>
                  <td>{formatFraction(tor.constraint)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </div>
  );
}
