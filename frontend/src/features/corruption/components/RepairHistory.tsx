import { useMemo, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ChartFrame } from '@/components/charts/ChartFrame';
import { ChartLegend } from '@/components/charts/ChartLegend';
import { ChartReadoutLine, ChartReadoutText } from '@/components/charts/ChartReadout';
import { useChartReadout } from '@/components/charts/useChartReadout';
import type { ReadoutSeries } from '@/components/charts/readout';
import { type MetricsBucket, type TicketMetricsHistory, useTicketMetricsHistory } from '@/features/tickets';
import { useElementWidth } from '@/lib/useElementWidth';

import { buildSuccessRateChart, buildTicketCountChart, type HistoryChartModel } from '../repairHistoryChart';

const formatPercent = (value: number) => `${Math.round(value * 100)}%`;
const formatCount = (value: number) => (value === 1 ? '1 ticket' : `${value} tickets`);

const RANGES = [
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last year' },
];

function HistoryChart({
  chart,
  summary,
  testId,
  format,
}: {
  chart: HistoryChartModel;
  summary: string;
  testId: string;
  format: (value: number) => string;
}) {
  // The same hover readout as the link page's charts (trial 30: Health's charts had none).
  const series: ReadoutSeries[] = useMemo(
    () =>
      chart.lines.map((line) => ({
        key: line.key,
        label: line.label,
        colour: line.colour,
        format,
        points: line.points.map((point) => ({ t: point.t, v: point.value })),
      })),
    [chart.lines, format],
  );
  const { readout, readoutX, hasReadout, svgProps } = useChartReadout(series, chart.x, chart.area, chart.bucketName);
  return (
    <div className="sim-chart-block">
      {hasReadout ? <ChartReadoutText testId={`${testId}-readout`} readout={readout} /> : null}
      <ChartFrame
        area={chart.area}
        xTicks={chart.xTicks}
        yTicks={chart.yTicks}
        xTitle={chart.xTitle}
        yTitle={chart.yTitle}
        summary={summary}
        testId={testId}
        svgProps={svgProps}
      >
        {chart.lines.map((line) => (
          <g key={line.key} data-testid={`${testId}-line`} data-series={line.key}>
            <path
              d={line.path}
              fill="none"
              stroke={line.colour}
              strokeWidth={2}
              strokeDasharray={line.dash || undefined}
            />
            {line.points.map((point) => (
              <circle key={point.start} cx={point.x} cy={point.y} r={2.5} fill={line.colour}>
                <title>{`${line.label}, ${point.start.slice(0, 10)}: ${format(point.value)}`}</title>
              </circle>
            ))}
          </g>
        ))}
        <ChartReadoutLine testId={`${testId}-readout-line`} x={readoutX} area={chart.area} />
      </ChartFrame>
      <ChartLegend
        label={`${summary} legend`}
        entries={chart.lines.map((line) => ({
          key: line.key,
          label: line.label,
          colour: line.colour,
          dash: line.dash,
        }))}
      />
    </div>
  );
}

function HistoryCharts({ history, width }: { history: TicketMetricsHistory; width: number }) {
  const height = width < 520 ? 180 : 240;
  const rates = useMemo(() => buildSuccessRateChart(history, { width, height }), [history, width, height]);
  const counts = useMemo(() => buildTicketCountChart(history, { width, height }), [history, width, height]);
  return (
    <>
      <h3>First-attempt success</h3>
      {rates.hasData ? (
        <HistoryChart
          chart={rates}
          summary="First-attempt success rate over time"
          testId="repair-history-rates"
          format={formatPercent}
        />
      ) : (
        <p className="muted">No first attempt with a known outcome in this range.</p>
      )}
      <h3>Tickets</h3>
      <HistoryChart
        chart={counts}
        summary="Tickets opened, resolved and unresolved over time"
        testId="repair-history-tickets"
        format={formatCount}
      />
    </>
  );
}

/** Repair metrics over time (GET /api/tickets/metrics/history/) for one fabric. */
export function RepairHistory({ fabricId }: { fabricId: number }) {
  const [days, setDays] = useState(30);
  const [bucket, setBucket] = useState<MetricsBucket>('day');
  const history = useTicketMetricsHistory(fabricId, days, bucket);
  const { ref, width } = useElementWidth<HTMLDivElement>();
  return (
    <div ref={ref} data-testid="repair-history">
      <form className="filters" aria-label="Repair history range" onSubmit={(event) => event.preventDefault()}>
        <label>
          Range
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {RANGES.map((range) => (
              <option key={range.days} value={range.days}>
                {range.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Per
          <select value={bucket} onChange={(event) => setBucket(event.target.value as MetricsBucket)}>
            <option value="day">day</option>
            <option value="week">week</option>
          </select>
        </label>
      </form>
      {history.isPending ? <Loading label="Loading the repair history…" /> : null}
      <ErrorList error={history.error} title="Could not load the repair history." />
      {history.data ? <HistoryCharts history={history.data} width={width} /> : null}
    </div>
  );
}
