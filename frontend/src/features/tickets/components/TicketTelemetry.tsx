import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ForecastSummary, useLinkForecast } from '@/features/forecasts';
import {
  brushedRange,
  LossChart,
  PowerChart,
  RangeControls,
  rangeFromSearchParams,
  searchParamsWithRange,
  telemetryQuery,
  type TimeRange,
  useLinkTelemetry,
} from '@/features/telemetry';

import type { TicketDetail } from '../api/types';
import { ticketChartRange } from '../ticketRange';

/**
 * The ticket's charts (D3): loaded after the page (TicketDetailPage imports this lazily), so a
 * technician on a phone sees where to go and what to bring without waiting for them.
 */
export default function TicketTelemetry({ ticket }: { ticket: TicketDetail }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const onset = ticket.recommendation?.evidence.rates?.onset;
  // Fixed when the page opens, so the query does not change on every render.
  const [defaultRange] = useState(() => ticketChartRange(onset, new Date()));
  const range = useMemo(() => rangeFromSearchParams(searchParams) ?? defaultRange, [searchParams, defaultRange]);
  const query = useMemo(() => telemetryQuery(range), [range]);
  const telemetry = useLinkTelemetry(ticket.link, query);
  // A preventive ticket is about the forecast: its charts draw it as the link page's do.
  const preventive = ticket.kind === 'preventive';
  const forecast = useLinkForecast(ticket.link, { enabled: preventive });
  const shownForecast = preventive ? forecast.data : undefined;
  const sideNames = useMemo(() => {
    const name = (side: 'a' | 'z') => {
      const end = ticket.ends.find((candidate) => candidate.side === side);
      return end ? `${end.switch} ${end.port}` : side.toUpperCase();
    };
    return { a: name('a'), z: name('z') };
  }, [ticket.ends]);
  const changeRange = useCallback(
    (next: TimeRange | null) => setSearchParams((current) => searchParamsWithRange(current, next)),
    [setSearchParams],
  );
  const zoomTo = useCallback((start: Date, end: Date) => changeRange(brushedRange(start, end)), [changeRange]);

  return (
    <section className="panel" aria-labelledby="ticket-telemetry-heading" data-testid="ticket-telemetry">
      <h2 id="ticket-telemetry-heading">Telemetry</h2>
      <RangeControls
        range={range}
        shown={telemetry.data ?? null}
        onChange={changeRange}
        busy={telemetry.isFetching && telemetry.isPlaceholderData}
      />
      {telemetry.isPending ? <Loading label="Loading telemetry…" /> : null}
      <ErrorList error={telemetry.error} title="Could not load telemetry." />
      {telemetry.data ? (
        <>
          <section aria-labelledby="ticket-loss-heading" className="chart-section">
            <h3 id="ticket-loss-heading">Loss rate per direction</h3>
            <LossChart telemetry={telemetry.data} onZoom={zoomTo} forecast={shownForecast} />
          </section>
          <section aria-labelledby="ticket-power-heading" className="chart-section">
            <h3 id="ticket-power-heading">Optical power, Tx and Rx of both ends</h3>
            <PowerChart telemetry={telemetry.data} sideNames={sideNames} onZoom={zoomTo} forecast={shownForecast} />
            {preventive ? <ErrorList error={forecast.error} title="Could not load the forecast." /> : null}
            {shownForecast ? (
              <ForecastSummary answer={shownForecast} newest={telemetry.data.status.sides} now={new Date()} />
            ) : null}
          </section>
        </>
      ) : null}
    </section>
  );
}
