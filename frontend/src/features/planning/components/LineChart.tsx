import { ChartAxes } from '@/components/charts/ChartAxes';
import { ChartLegend } from '@/components/charts/ChartLegend';

import type { LineMark } from './planCharts';
import type { AxisTick, PlotArea } from '@/components/charts/plotArea';

interface LineChartProps {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  xTitle: string;
  yTitle: string;
  lines: LineMark[];
  /** A vertical reference line (the fabric's longest link, the NRB bound). */
  marker: { x: number; label: string } | null;
  summary: string;
  testId: string;
}

/** Lines over shared axes with a legend; each line's peak, if any, is a marked point with its value. */
export function LineChart({ area, xTicks, yTicks, xTitle, yTitle, lines, marker, summary, testId }: LineChartProps) {
  return (
    <div className="sim-chart-block">
      <svg
        className="sim-chart"
        width={area.width}
        height={area.height}
        role="img"
        aria-label={summary}
        data-testid={testId}
      >
        <ChartAxes
          area={area}
          xTicks={xTicks}
          yTicks={yTicks}
          xTitle={xTitle}
          yTitle={yTitle}
          yTickTestId={`${testId}-ytick`}
        />
        {marker ? (
          <g className="chart-marker" data-testid={`${testId}-marker`}>
            <line x1={marker.x} x2={marker.x} y1={area.top} y2={area.bottom} stroke="#8893a0" strokeDasharray="3 3" />
            <text x={marker.x + 4} y={area.top + 10}>
              {marker.label}
            </text>
          </g>
        ) : null}
        {lines.map((line) => (
          <g key={line.key}>
            <path
              data-testid={`${testId}-line`}
              d={line.path}
              fill="none"
              stroke={line.colour}
              strokeWidth={2}
              strokeDasharray={line.dash || undefined}
            />
            {line.peak ? (
              <circle data-testid={`${testId}-peak`} cx={line.peak.x} cy={line.peak.y} r={4} fill={line.colour}>
                <title>{line.peak.text}</title>
              </circle>
            ) : null}
          </g>
        ))}
      </svg>
      <ChartLegend label={`${summary} legend`} entries={lines} />
    </div>
  );
}
