import type { ReactNode, SVGProps } from 'react';

import { ChartAxes } from './ChartAxes';
import type { AxisTick, PlotArea } from './plotArea';

interface ChartFrameProps {
  area: PlotArea;
  xTicks: AxisTick[];
  yTicks: AxisTick[];
  xTitle: string;
  /** With its unit. */
  yTitle: string;
  /** What the chart shows, for screen readers. */
  summary: string;
  testId: string;
  children: ReactNode;
  /** Handlers and focus of a hover readout (useChartReadout's svgProps). */
  svgProps?: SVGProps<SVGSVGElement>;
}

/** The SVG of a simulation chart: value axis with gridlines on the left, x axis below, marks inside. */
export function ChartFrame({
  area,
  xTicks,
  yTicks,
  xTitle,
  yTitle,
  summary,
  testId,
  children,
  svgProps,
}: ChartFrameProps) {
  return (
    <svg
      {...svgProps}
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
      {children}
    </svg>
  );
}
