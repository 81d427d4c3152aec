import { useMemo } from 'react';

import { formatCount } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { FabricCapacity } from '../api/types';
import { CapacityLegendItems, CapacityYAxis, ConstraintLine, TorAxis } from './CapacityChartParts';
import { buildCapacityChart, capacitySummaryText, formatFraction } from './capacityChart';

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

  return (
    <div className="capacity" data-testid="capacity-bars" data-tor-count={chart.bars.length}>
      <p className="capacity-summary" data-testid="capacity-summary">
        {summary}
      </p>
      <ul className="legend" aria-label="Capacity chart legend">
        <CapacityLegendItems constraintText="Capacity constraint (fraction of paths that must stay available)" />
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
            <CapacityYAxis chart={chart} title="Fraction of paths available (0–1)" />

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

            <ConstraintLine chart={chart} />

            <TorAxis chart={chart} />
          </svg>
        )}
      </div>
      {belowConstraint.length > 0 ? (
        <details className="below-constraint">
          <summary>ToRs below constraint ({formatCount(belowConstraint.length)})</summary>
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
