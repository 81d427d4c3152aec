/**
 * The pieces every per-ToR capacity chart draws the same way: the legend entries for bars and
 * the constraint, the y axis, the constraint line with its label, and the x axis of ToRs grouped
 * by pod. CapacityBars and the fabric health chart compose them around their own bars.
 */
import { LineSwatch } from '@/components/LineSwatch';

import { CAPACITY_COLOURS, type CapacityBar, type CapacityChartModel } from './capacityChart';

type ChartFrame = Omit<CapacityChartModel, 'bars'> & { bars: readonly CapacityBar[] };

export function CapacityLegendItems({ constraintText }: { constraintText: string }) {
  return (
    <>
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
        {constraintText}
      </li>
    </>
  );
}

export function CapacityYAxis({ chart, title }: { chart: ChartFrame; title: string }) {
  const plotTop = chart.margin.top;
  return (
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
        {title}
      </text>
    </g>
  );
}

export function ConstraintLine({ chart }: { chart: ChartFrame }) {
  return (
    <>
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
    </>
  );
}

interface TorAxisProps<Bar extends CapacityBar> {
  chart: Omit<ChartFrame, 'bars'> & { bars: readonly Bar[] };
  /** Extra room between the plot and the ToR names (rows of marks drawn below the bars). */
  labelShift?: number;
  /** Names drawn in bold (e.g. ToRs that block a decision). */
  bold?: (bar: Bar) => boolean;
}

export function TorAxis<Bar extends CapacityBar>({ chart, labelShift = 0, bold }: TorAxisProps<Bar>) {
  return (
    <g className="axis axis-x">
      <line x1={chart.plotLeft} x2={chart.plotRight} y1={chart.plotBottom} y2={chart.plotBottom} />
      {chart.showBarLabels
        ? chart.bars.map((bar) => (
            <text
              key={bar.tor.switch}
              className="bar-label"
              transform={`translate(${bar.x + bar.width / 2},${chart.plotBottom + labelShift + 8}) rotate(-45)`}
              textAnchor="end"
              dy="0.32em"
              fontWeight={bold?.(bar) ? 700 : undefined}
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
      <text className="axis-title" x={(chart.plotLeft + chart.plotRight) / 2} y={chart.height - 4} textAnchor="middle">
        ToR switches, grouped by pod
      </text>
    </g>
  );
}
