import { ChartFrame } from '@/components/charts/ChartFrame';
import { ChartLegend } from '@/components/charts/ChartLegend';
import type { RatioChartModel } from './simulationCharts';

/** Penalty ÷ CorrOpt's by constraint; infinite and zero ratios get their own bands outside the log range. */
export function RatioChart({ chart }: { chart: RatioChartModel }) {
  const summary = 'Total penalty of each baseline divided by CorrOpt’s, by capacity constraint and repair accuracy';
  return (
    <div className="sim-chart-block">
      <ChartFrame
        area={chart.area}
        xTicks={chart.xTicks}
        yTicks={chart.yTicks}
        xTitle="ToR capacity constraint"
        yTitle="Penalty ÷ CorrOpt’s (log)"
        summary={summary}
        testId="ratio-chart"
      >
        {chart.hasInfinite ? (
          <text className="band-label" x={chart.area.left + 4} y={chart.infinityY} dy="0.32em">
            ∞ (CorrOpt lost nothing)
          </text>
        ) : null}
        {chart.hasZero ? (
          <text className="band-label" x={chart.area.left + 4} y={chart.zeroY} dy="0.32em">
            0
          </text>
        ) : null}
        {chart.lines.map((line) => (
          <g key={line.key}>
            <path
              data-testid="ratio-line"
              d={line.path}
              fill="none"
              stroke={line.colour}
              strokeWidth={2}
              strokeDasharray={line.dash || undefined}
            />
            {line.markers.map((marker) => (
              <circle
                key={marker.key}
                data-testid="ratio-marker"
                data-kind={marker.kind}
                cx={marker.cx}
                cy={marker.cy}
                r={4}
                fill={marker.kind === 'finite' ? marker.colour : '#fff'}
                stroke={marker.colour}
                strokeWidth={1.5}
              >
                <title>{marker.text}</title>
              </circle>
            ))}
          </g>
        ))}
      </ChartFrame>
      <ChartLegend label="Penalty ratio legend" entries={chart.lines} />
    </div>
  );
}
