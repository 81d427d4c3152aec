import type { AxisTick, PlotArea } from './plotArea';

interface ChartAxesProps {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  /** With its unit, e.g. "Optical power (dBm)". */
  yTitle: string;
  xTitle?: string;
  /** Marks each y tick for tests. */
  yTickTestId?: string;
}

/** X axis below (time unless told), value axis with gridlines on the left; positions come from
 * the chart model. Shared by the telemetry and simulation charts. */
export function ChartAxes({ area, xTicks, yTicks, yTitle, xTitle = 'Time (UTC)', yTickTestId }: ChartAxesProps) {
  return (
    <>
      <g className="axis axis-y">
        {yTicks.map((tick) => (
          <g key={tick.value} transform={`translate(0,${tick.position})`} data-testid={yTickTestId}>
            <line className="gridline" x1={area.left} x2={area.right} />
            <line x1={area.left - 5} x2={area.left} />
            <text x={area.left - 8} dy="0.32em" textAnchor="end">
              {tick.label}
            </text>
          </g>
        ))}
        <line x1={area.left} x2={area.left} y1={area.top} y2={area.bottom} />
        <text
          className="axis-title"
          transform={`translate(14,${(area.top + area.bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          {yTitle}
        </text>
      </g>
      <g className="axis axis-x">
        <line x1={area.left} x2={area.right} y1={area.bottom} y2={area.bottom} />
        {xTicks.map((tick) => (
          <g key={tick.value} transform={`translate(${tick.position},${area.bottom})`}>
            <line y2={5} />
            <text y={17} textAnchor="middle">
              {tick.label}
            </text>
          </g>
        ))}
        <text className="axis-title" x={(area.left + area.right) / 2} y={area.height - 4} textAnchor="middle">
          {xTitle}
        </text>
      </g>
    </>
  );
}
