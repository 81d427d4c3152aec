import { useMemo } from 'react';

import {
  CapacityLegendItems,
  capacitySummaryText,
  CapacityYAxis,
  ConstraintLine,
  type FabricCapacity,
  formatFraction,
  TorAxis,
} from '@/features/fabrics';
import { useElementWidth } from '@/lib/useElementWidth';

import { belowMarksShift, buildHealthChart, HEALTH_COLOURS, type TorLinkCounts } from '../healthChart';

const PLOT_HEIGHT = 220;

interface FabricHealthChartProps {
  capacity: FabricCapacity;
  /** ToR switch ids that block a corrupting link from being disabled. */
  blocking: ReadonlySet<number>;
  counts: ReadonlyMap<number, TorLinkCounts>;
  /** Overrides the measured width (component tests have no layout engine). */
  width?: number;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Capacity per ToR against its constraint, blocking ToRs outlined, disabled and corrupting uplinks marked. */
export function FabricHealthChart({ capacity, blocking, counts, width: fixedWidth }: FabricHealthChartProps) {
  const { ref, width: measuredWidth } = useElementWidth<HTMLDivElement>();
  const width = fixedWidth ?? measuredWidth;
  const chart = useMemo(
    () => buildHealthChart(capacity.tors, { width, plotHeight: PLOT_HEIGHT, blocking, counts }),
    [capacity.tors, width, blocking, counts],
  );
  const summary = capacitySummaryText(capacity.summary, capacity.capacity_constraint);
  const shift = belowMarksShift(chart);
  const blockingBars = chart.bars.filter((bar) => bar.blocking);

  return (
    <div className="capacity health-chart" data-testid="health-chart" data-tor-count={chart.bars.length}>
      <p className="capacity-summary" data-testid="capacity-summary">
        {summary}
        {blockingBars.length > 0 ? `; ${plural(blockingBars.length, 'ToR')} blocking a corrupting link` : ''}
      </p>
      <ul className="legend" aria-label="Fabric health chart legend">
        <CapacityLegendItems constraintText="Capacity constraint (fraction of up-paths a ToR must keep)" />
        <li>
          <span className="swatch swatch-outline" style={{ borderColor: HEALTH_COLOURS.blocking }} aria-hidden="true" />
          Blocks disabling a corrupting link (at its floor)
        </li>
        <li>
          <span className="swatch" style={{ background: HEALTH_COLOURS.disabled }} aria-hidden="true" />
          Has disabled uplinks
        </li>
        <li>
          <span className="swatch" style={{ background: HEALTH_COLOURS.corrupting }} aria-hidden="true" />
          Has corrupting uplinks in service
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
            aria-label={`Capacity per ToR against its constraint: ${summary}`}
          >
            <CapacityYAxis chart={chart} title="Fraction of up-paths available (0–1)" />

            <g className="bars">
              {chart.bars.map((bar) => (
                <rect
                  key={bar.tor.switch}
                  data-testid="health-bar"
                  data-tor={bar.tor.name}
                  data-below-constraint={bar.tor.below_constraint ? 'true' : 'false'}
                  data-blocking={bar.blocking ? 'true' : 'false'}
                  x={bar.x}
                  y={bar.y}
                  width={bar.width}
                  height={bar.height}
                  fill={bar.colour}
                  stroke={bar.blocking ? HEALTH_COLOURS.blocking : 'none'}
                  strokeWidth={bar.blocking ? 3 : 0}
                >
                  <title>
                    {`${bar.tor.name}: ${bar.tor.available_paths}/${bar.tor.total_paths} paths up ` +
                      `(${formatFraction(bar.tor.fraction)}), constraint ${formatFraction(bar.tor.constraint)}` +
                      (bar.tor.below_constraint ? ', below constraint' : '') +
                      (bar.blocking ? ', blocks disabling a corrupting link' : '') +
                      `; ${plural(bar.counts.disabled, 'disabled uplink')}, ` +
                      `${plural(bar.counts.corrupting, 'corrupting uplink')} in service`}
                  </title>
                </rect>
              ))}
            </g>

            <ConstraintLine chart={chart} />

            <g className="link-marks">
              {chart.markRows.map((row) => (
                <g key={row.key} data-testid={`marks-${row.key}`}>
                  <text x={chart.plotLeft - 8} y={row.y + row.height / 2} dy="0.32em" textAnchor="end">
                    {row.label}
                  </text>
                  {chart.bars
                    .filter((bar) => bar.counts[row.key] > 0)
                    .map((bar) => (
                      <rect
                        key={bar.tor.switch}
                        data-tor={bar.tor.name}
                        data-count={bar.counts[row.key]}
                        x={bar.x}
                        y={row.y}
                        width={bar.width}
                        height={row.height}
                        fill={row.colour}
                      >
                        <title>{`${bar.tor.name}: ${plural(bar.counts[row.key], `${row.label} uplink`)}`}</title>
                      </rect>
                    ))}
                </g>
              ))}
            </g>

            <TorAxis chart={chart} labelShift={shift} bold={(bar) => bar.blocking} />
          </svg>
        )}
      </div>
    </div>
  );
}
