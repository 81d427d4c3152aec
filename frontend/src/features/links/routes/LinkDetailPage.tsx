import { useCallback, useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { HealthBadge } from '@/components/HealthBadge';
import { Loading } from '@/components/Loading';
import { ObjectHistory } from '@/features/audit';
import { canChangeLinkState, canOverrideCapacity, useCurrentUser } from '@/features/auth';
import { useFabric } from '@/features/fabrics';
import { chartedForecast, ForecastSummary, LinkAtRisk, useLinkForecast } from '@/features/forecasts';
import {
  brushedRange,
  CorruptionEventsTable,
  DirectionStatusTable,
  LossChart,
  PowerChart,
  RangeControls,
  rangeFromSearchParams,
  searchParamsWithRange,
  SideReadings,
  telemetryQuery,
  type TimeRange,
  useCorruptionEvents,
  useLinkTelemetry,
} from '@/features/telemetry';
import { TicketStateBadge, useTickets } from '@/features/tickets';
import { formatCount, formatReason, formatTime } from '@/lib/format';

import type { FabricLink } from '../api/types';
import { linkName, useLink } from '../api/useLink';
import { FlappingBadge } from '../components/FlappingBadge';
import { LinkComponentsFacts } from '../components/LinkComponentsFacts';
import { LinkStateControls } from '../components/LinkStateControls';
import { LinkWorkOrders } from '../components/LinkWorkOrders';

const EVENTS_SHOWN = 50;
const TICKETS_SHOWN = 5;

export function LinkDetailPage() {
  const { linkId: rawId } = useParams();
  const linkId = Number(rawId);
  if (!Number.isInteger(linkId) || linkId <= 0) {
    return (
      <section>
        <h1>Link not found</h1>
        <p>
          “{rawId}” is not a link id. <Link to="/links">Back to links</Link>
        </p>
      </section>
    );
  }
  return <LinkDetail linkId={linkId} />;
}

function endName(link: FabricLink, side: 'a' | 'z'): string {
  return side === 'a' ? `${link.a_switch_name} ${link.a_port}` : `${link.z_switch_name} ${link.z_port}`;
}

function LinkDetail({ linkId }: { linkId: number }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const range = useMemo(() => rangeFromSearchParams(searchParams), [searchParams]);
  const query = useMemo(() => telemetryQuery(range), [range]);

  const link = useLink(linkId);
  const user = useCurrentUser();
  const telemetry = useLinkTelemetry(linkId, query);
  const forecast = useLinkForecast(linkId);
  const events = useCorruptionEvents(linkId, { limit: EVENTS_SHOWN });
  const fabric = useFabric(link.data?.fabric ?? 0, { enabled: link.data !== undefined });
  const tickets = useTickets({ link: linkId, ordering: '-created' }, { limit: TICKETS_SHOWN, offset: 0 });

  const sideNames = useMemo(
    () => (link.data ? { a: endName(link.data, 'a'), z: endName(link.data, 'z') } : null),
    [link.data],
  );
  const changeRange = useCallback(
    (next: TimeRange | null) => setSearchParams((current) => searchParamsWithRange(current, next)),
    [setSearchParams],
  );
  const zoomTo = useCallback((start: Date, end: Date) => changeRange(brushedRange(start, end)), [changeRange]);

  // At most one ticket of a link is unresolved at a time (the server refuses another), so it is the newest.
  const unresolvedTicket = tickets.data?.results.find((ticket) => ticket.state !== 'resolved') ?? null;
  const title = link.data ? linkName(link.data) : `Link ${linkId}`;
  const status = telemetry.data?.status;

  return (
    <article aria-labelledby="link-heading" className="link-page">
      <p className="breadcrumb">
        <Link to="/links">Links</Link>
        {link.data ? (
          <>
            {' / '}
            <Link to={`/links?fabric=${link.data.fabric}`}>{fabric.data?.name ?? `fabric ${link.data.fabric}`}</Link>
          </>
        ) : null}
      </p>
      <h1 id="link-heading">{title}</h1>
      {link.isPending ? <Loading label="Loading link…" /> : null}
      <ErrorList error={link.error} title="Could not load the link." />
      {forecast.data && !tickets.isPending ? (
        <LinkAtRisk
          answer={forecast.data}
          now={new Date()}
          ticket={unresolvedTicket}
          canOpen={canChangeLinkState(user.data)}
        />
      ) : null}
      {link.data && canChangeLinkState(user.data) ? (
        <LinkStateControls
          link={link.data}
          linkName={`${endName(link.data, 'a')} ↔ ${endName(link.data, 'z')}`}
          canOverride={canOverrideCapacity(user.data)}
        />
      ) : null}
      {link.data ? (
        <dl className="facts" data-testid="link-facts">
          <div>
            <dt>A end (lower tier)</dt>
            <dd>{endName(link.data, 'a')}</dd>
          </div>
          <div>
            <dt>Z end</dt>
            <dd>{endName(link.data, 'z')}</dd>
          </div>
          <div>
            <dt>Health</dt>
            <dd data-testid="link-health">
              <HealthBadge health={status?.health ?? link.data.health} />
              {(status?.rx_low ?? link.data.rx_low) ? <span className="badge badge-rx-low">Rx low</span> : null}
            </dd>
          </div>
          <div>
            <dt>Admin state</dt>
            <dd data-testid="link-admin-state">
              <span className={`badge badge-${link.data.admin_state}`}>{link.data.admin_state}</span>
              {link.data.admin_reason ? <span className="reason"> {formatReason(link.data.admin_reason)}</span> : null}
              {link.data.admin_changed_by ? (
                <div className="reason">
                  by {link.data.admin_changed_by}, {formatTime(link.data.admin_changed_at)}
                </div>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Oper state (measured)</dt>
            <dd data-testid="link-oper-state">
              <span className={`badge badge-${link.data.oper_state}`}>{link.data.oper_state}</span>
              {link.data.flapping ? <FlappingBadge /> : null}
              {link.data.oper_changed_at ? (
                <div className="reason">since {formatTime(link.data.oper_changed_at)}</div>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Tickets</dt>
            <dd data-testid="link-tickets">
              {tickets.data?.results.length
                ? tickets.data.results.map((ticket) => (
                    <span key={ticket.id} className="link-ticket">
                      <Link to={`/tickets/${ticket.id}`}>#{ticket.id}</Link>{' '}
                      {ticket.kind === 'preventive' ? 'preventive ' : null}
                      <TicketStateBadge state={ticket.state} />{' '}
                    </span>
                  ))
                : tickets.isPending
                  ? '…'
                  : 'none'}
            </dd>
          </div>
          <div>
            <dt>Work order</dt>
            <dd data-testid="link-work-orders">
              <LinkWorkOrders linkId={linkId} />
            </dd>
          </div>
          <div>
            <dt>Cable</dt>
            <dd>
              {[
                link.data.length_m === null ? null : `${link.data.length_m} m`,
                link.data.fiber,
                link.data.speed_gbps === null ? null : `${link.data.speed_gbps} Gb/s`,
              ]
                .filter(Boolean)
                .join(' · ') || '—'}
            </dd>
          </div>
          {link.data.components ? <LinkComponentsFacts components={link.data.components} /> : null}
        </dl>
      ) : null}

      <section className="panel" aria-labelledby="readings-heading">
        <h2 id="readings-heading">Newest readings</h2>
        {telemetry.isPending ? <Loading label="Loading telemetry…" /> : null}
        {status && sideNames && link.data ? (
          <>
            <div className="sides">
              <SideReadings sideLabel="A" endName={sideNames.a} status={status.sides.a} />
              <SideReadings sideLabel="Z" endName={sideNames.z} status={status.sides.z} />
            </div>
            <DirectionStatusTable
              status={status}
              signatures={telemetry.data?.signatures}
              switchNames={{ a: link.data.a_switch_name, z: link.data.z_switch_name }}
            />
          </>
        ) : null}
      </section>

      <section className="panel" aria-labelledby="telemetry-heading">
        <h2 id="telemetry-heading">Telemetry</h2>
        <RangeControls
          range={range}
          shown={telemetry.data ?? null}
          onChange={changeRange}
          busy={telemetry.isFetching && telemetry.isPlaceholderData}
        />
        <ErrorList error={telemetry.error} title="Could not load telemetry." />
        {telemetry.data && sideNames ? (
          <>
            <section aria-labelledby="power-heading" className="chart-section">
              <h3 id="power-heading">Optical power, Tx and Rx of both ends</h3>
              <PowerChart
                telemetry={telemetry.data}
                sideNames={sideNames}
                onZoom={zoomTo}
                forecast={chartedForecast(forecast.data)}
              />
              <ErrorList error={forecast.error} title="Could not load the forecast." />
              {forecast.data ? (
                <ForecastSummary answer={forecast.data} newest={telemetry.data.status.sides} now={new Date()} />
              ) : null}
            </section>
            <section aria-labelledby="loss-heading" className="chart-section">
              <h3 id="loss-heading">Loss rate per direction</h3>
              <LossChart telemetry={telemetry.data} onZoom={zoomTo} forecast={chartedForecast(forecast.data)} />
            </section>
          </>
        ) : null}
      </section>

      <section className="panel" aria-labelledby="events-heading">
        <h2 id="events-heading">Corruption events</h2>
        {events.isPending ? <Loading label="Loading corruption events…" /> : null}
        <ErrorList error={events.error} title="Could not load corruption events." />
        {events.data ? (
          events.data.count === 0 ? (
            <p data-testid="corruption-events-empty">No corruption events on this link.</p>
          ) : (
            <>
              <CorruptionEventsTable events={events.data.results} />
              {events.data.count > events.data.results.length ? (
                <p className="muted">
                  The newest {events.data.results.length} of {formatCount(events.data.count)} events.
                </p>
              ) : null}
            </>
          )
        ) : null}
      </section>

      <section className="panel">
        <ObjectHistory objectType="fabric.link" objectId={linkId} />
      </section>
    </article>
  );
}
