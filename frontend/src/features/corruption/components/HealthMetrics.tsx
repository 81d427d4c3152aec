import { Link } from 'react-router';

import { formatRate, type TicketMetrics } from '@/features/tickets';

import { formatFraction } from '../decisionLog';

function percent(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 100)}%`;
}

/** What the fabric suffers now and how repairs have gone, from /api/tickets/metrics/. */
export function HealthMetrics({ metrics }: { metrics: TicketMetrics }) {
  const { first_attempt: first } = metrics;
  return (
    <dl className="facts health-metrics" data-testid="health-metrics">
      <div>
        <dt>Disabled links</dt>
        <dd data-testid="metric-disabled-links">
          {metrics.disabled_links}
          <span className="muted"> ({metrics.disabled_links_for_corruption} for corruption)</span>
        </dd>
      </div>
      <div>
        <dt>Corrupting links in service</dt>
        <dd data-testid="metric-corrupting-in-service">
          {metrics.corrupting_links_in_service === null ? (
            '—'
          ) : (
            <Link to={`/links?fabric=${metrics.fabric}&corrupting_in_service=true`}>
              {metrics.corrupting_links_in_service}
            </Link>
          )}
        </dd>
      </div>
      <div>
        <dt>Current penalty (sum of loss rates)</dt>
        <dd>{formatRate(metrics.current_penalty)}</dd>
      </div>
      <div>
        <dt>Worst ToR capacity fraction</dt>
        <dd>{formatFraction(metrics.worst_tor_fraction)}</dd>
      </div>
      <div>
        <dt>Unresolved tickets</dt>
        <dd>{metrics.open_tickets}</dd>
      </div>
      <div>
        <dt>First-attempt success (followed / not)</dt>
        <dd>
          {percent(first.all.rate)}
          <span className="muted">
            {' '}
            ({percent(first.followed.rate)} / {percent(first.not_followed.rate)} of {first.all.attempts})
          </span>
        </dd>
      </div>
      <div>
        <dt>Mean time to repair</dt>
        <dd>
          {metrics.mean_time_to_repair_hours === null ? '—' : `${metrics.mean_time_to_repair_hours.toFixed(1)} h`}
        </dd>
      </div>
    </dl>
  );
}
