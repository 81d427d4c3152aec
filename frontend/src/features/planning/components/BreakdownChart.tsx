import { ChartAxes } from '@/components/charts/ChartAxes';

import type { BreakdownChartModel } from './planCharts';

/** Stacked cost bars (baseline vs plan, or several plans' pairs side by side) with a legend of the Table 4.1 rows. */
export function BreakdownChart({
  chart,
  summary,
  testId,
}: {
  chart: BreakdownChartModel;
  summary: string;
  testId: string;
}) {
  const { area } = chart;
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
          xTicks={[]}
          yTicks={chart.yTicks}
          xTitle=""
          yTitle="Cost (USD)"
          yTickTestId={`${testId}-ytick`}
        />
        {chart.bars.map((bar) => (
          <g key={`${bar.group}/${bar.key}`} data-testid={`${testId}-bar`} data-label={bar.label}>
            {bar.rects.map((rect) => (
              <rect
                key={rect.key}
                data-testid={`${testId}-segment`}
                x={rect.x}
                y={rect.y}
                width={rect.width}
                height={rect.height}
                fill={rect.colour}
              >
                <title>{rect.title}</title>
              </rect>
            ))}
            <text className="bar-total" x={bar.x + bar.width / 2} y={bar.totalY - 5} textAnchor="middle">
              {bar.totalText}
            </text>
            <text className="bar-label" x={bar.x + bar.width / 2} y={area.bottom + 16} textAnchor="middle">
              {bar.label}
            </text>
          </g>
        ))}
        {chart.groups.map((group) => (
          <text key={group.key} className="axis-title" x={group.x} y={area.bottom + 36} textAnchor="middle">
            {group.label}
          </text>
        ))}
      </svg>
      <ul className="legend" aria-label={`${summary} legend`}>
        {chart.series.map((entry) => (
          <li key={entry.key}>
            <svg width="14" height="14" aria-hidden="true">
              <rect width="14" height="14" fill={entry.colour} />
            </svg>
            {entry.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
