import { useMemo } from 'react';

import { LineSwatch } from '@/components/LineSwatch';
import type { FabricCapacity } from '@/features/fabrics/api/types';
import { CAPACITY_COLOURS, capacitySummaryText, formatFraction } from '@/features/fabrics/components/capacityChart';
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
          Capacity constraint (fraction of up-paths a ToR must keep)
        </li>
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
              <line x1={chart.plotLeft} x2={chart.plotLeft} y1={chart.margin.top} y2={chart.plotBottom} />
              <text
                className="axis-title"
                transform={`translate(16,${(chart.margin.top + chart.plotBottom) / 2}) rotate(-90)`}
                textAnchor="middle"
              >
                Fraction of up-paths available (0–1)
              </text>
            </g>

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

            <g className="axis axis-x">
              <line x1={chart.plotLeft} x2={chart.plotRight} y1={chart.plotBottom} y2={chart.plotBottom} />
              {chart.showBarLabels
                ? chart.bars.map((bar) => (
                    <text
                      key={bar.tor.switch}
                      className="bar-label"
                      transform={`translate(${bar.x + bar.width / 2},${chart.plotBottom + shift + 8}) rotate(-45)`}
                      textAnchor="end"
                      dy="0.32em"
                      fontWeight={bar.blocking ? 700 : undefined}
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
    </div>
  );
}
