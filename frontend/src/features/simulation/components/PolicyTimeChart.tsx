import { ChartFrame } from '@/components/charts/ChartFrame';
import { ChartLegend, type LegendEntry } from '@/components/charts/ChartLegend';
import type { TimeChartModel } from './simulationCharts';

interface PolicyTimeChartProps {
  chart: TimeChartModel;
  yTitle: string;
  summary: string;
  testId: string;
}

const REFERENCE_COLOUR = '#6b7280';

/** Step lines per policy over the simulated window, with an optional reference line (the constraint). */
export function PolicyTimeChart({ chart, yTitle, summary, testId }: PolicyTimeChartProps) {
  const legend: LegendEntry[] = chart.lines.map((line) => ({ key: line.key, label: line.label, colour: line.colour }));
  if (chart.reference) {
    legend.push({ key: 'reference', label: chart.reference.label, colour: REFERENCE_COLOUR, dash: '5 4' });
  }
  return (
    <div className="sim-chart-block">
      <ChartFrame
        area={chart.area}
        xTicks={chart.xTicks}
        yTicks={chart.yTicks}
        xTitle={chart.xTitle}
        yTitle={yTitle}
        summary={summary}
        testId={testId}
      >
        {chart.reference ? (
          <line
            data-testid={`${testId}-reference`}
            x1={chart.area.left}
            x2={chart.area.right}
            y1={chart.reference.y}
            y2={chart.reference.y}
            stroke={REFERENCE_COLOUR}
            strokeWidth={1.5}
            strokeDasharray="5 4"
          />
        ) : null}
        {chart.lines.map((line, index) => (
          <path
            key={line.key}
            data-testid={`${testId}-line`}
            data-policy={line.key}
            d={line.path}
            fill="none"
            stroke={line.colour}
            // Lines that coincide stay visible: later policies are drawn thinner on top.
            strokeWidth={3 - index * 0.75}
            strokeLinejoin="round"
          />
        ))}
      </ChartFrame>
      <ChartLegend label={`${summary} legend`} entries={legend} />
    </div>
  );
}
