import { Link } from 'react-router';

import { type TicketMetrics } from '@/features/tickets';
import { formatCount, formatHours } from '@/lib/format';
import { formatLossRate } from '@/lib/format/number';

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
          {formatCount(metrics.disabled_links)}
          <span className="muted"> ({formatCount(metrics.disabled_links_for_corruption)} for corruption)</span>
        </dd>
      </div>
      <div>
        <dt>Corrupting links in service</dt>
        <dd data-testid="metric-corrupting-in-service">
          {metrics.corrupting_links_in_service === null ? (
            '—'
          ) : (
            <Link to={`/links?fabric=${metrics.fabric}&corrupting_in_service=true`}>
              {formatCount(metrics.corrupting_links_in_service)}
            </Link>
          )}
        </dd>
      </div>
      <div>
        <dt>Current penalty (sum of loss rates)</dt>
        <dd>{formatLossRate(metrics.current_penalty)}</dd>
      </div>
      <div>
        <dt>Worst ToR capacity fraction</dt>
        <dd>{formatFraction(metrics.worst_tor_fraction)}</dd>
      </div>
      <div>
        <dt>Unresolved tickets</dt>
        <dd>{formatCount(metrics.open_tickets)}</dd>
      </div>
      <div>
        <dt>First-attempt success (followed / not)</dt>
        <dd>
          {percent(first.all.rate)}
          <span className="muted">
            {' '}
            ({percent(first.followed.rate)} / {percent(first.not_followed.rate)} of {formatCount(first.all.attempts)})
          </span>
        </dd>
      </div>
      <div>
        <dt>Mean time to repair</dt>
        <dd>{formatHours(metrics.mean_time_to_repair_hours)}</dd>
      </div>
    </dl>
  );
}
