import type { ReactNode } from 'react';

import type { PlotArea, Tick } from './simulationCharts';

interface ChartFrameProps {
  area: PlotArea;
  xTicks: Tick[];
  yTicks: Tick[];
  xTitle: string;
  /** With its unit. */
  yTitle: string;
  /** What the chart shows, for screen readers. */
  summary: string;
  testId: string;
  children: ReactNode;
}

/** The SVG of a simulation chart: value axis with gridlines on the left, x axis below, marks inside. */
export function ChartFrame({ area, xTicks, yTicks, xTitle, yTitle, summary, testId, children }: ChartFrameProps) {
  return (
    <svg
      className="sim-chart"
      width={area.width}
      height={area.height}
      role="img"
      aria-label={summary}
      data-testid={testId}
    >
      <g className="axis axis-y">
        {yTicks.map((tick) => (
          <g key={tick.value} transform={`translate(0,${tick.position})`} data-testid={`${testId}-ytick`}>
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
      {children}
    </svg>
  );
}
