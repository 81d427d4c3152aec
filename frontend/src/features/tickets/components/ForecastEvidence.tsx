import { laneLabel } from '@/features/forecasts';
import { formatDbm, formatTime } from '@/lib/format';

import type { Evidence } from '../api/types';

type Forecast = NonNullable<Evidence['forecast']>;

function slope(value: number): string {
  const size = Math.abs(value).toFixed(2);
  return size === '0.00' ? 'flat' : `${value < 0 ? 'falling' : 'rising'} ${size} dB a day`;
}

/** "Rx of lane 3 at Z (p0-fab0:eth1/1): -8.9 dBm, falling 0.40 dB a day"; a dark lane "no light". */
function forecastReading(forecast: Forecast): string {
  const where = `${forecast.quantity === 'rx' ? 'Rx' : 'Tx'} of ${laneLabel(forecast.lane)} at ${forecast.side.toUpperCase()}`;
  const end = forecast.end ? ` (${forecast.end.switch}:${forecast.end.port})` : '';
  const value =
    forecast.level_dbm === null
      ? 'no light'
      : [formatDbm(forecast.level_dbm), forecast.slope_db_per_day === null ? null : slope(forecast.slope_db_per_day)]
          .filter(Boolean)
          .join(', ');
  return `${where}${end}: ${value}`;
}

/**
 * A preventive step's evidence: the forecast the ticket was opened on (no corruption yet, so none
 * of a repair's rates, neighbours or history), as the link's forecast endpoint showed it then.
 */
export function ForecastEvidence({ forecast }: { forecast: Forecast }) {
  const atLimitNow = Date.parse(forecast.crossing_at) <= Date.parse(forecast.computed_at);
  return (
    <dl className="facts evidence-facts" data-testid="evidence-forecast">
      <div>
        <dt>Reaches its limit</dt>
        <dd data-testid="evidence-forecast-crossing">
          {atLimitNow ? `now (at ${formatTime(forecast.crossing_at)})` : formatTime(forecast.crossing_at)}
        </dd>
      </div>
      <div>
        <dt>Between</dt>
        <dd data-testid="evidence-forecast-interval">
          {formatTime(forecast.earliest_at)} and{' '}
          {forecast.latest_at === null ? 'never (it may not cross)' : formatTime(forecast.latest_at)}
        </dd>
      </div>
      <div>
        <dt>Confidence</dt>
        <dd data-testid="evidence-forecast-confidence">{Math.round(forecast.confidence * 100)}%</dd>
      </div>
      <div>
        <dt>Reading</dt>
        <dd data-testid="evidence-forecast-reading">{forecastReading(forecast)}</dd>
      </div>
      <div>
        <dt>Limit</dt>
        <dd data-testid="evidence-forecast-limit">
          {formatDbm(forecast.limit_dbm)}
          {forecast.limit_provenance ? <span className="muted"> ({forecast.limit_provenance})</span> : null}
        </dd>
      </div>
      <div>
        <dt>Probable cause</dt>
        <dd>{forecast.cause_label}</dd>
      </div>
      <div>
        <dt>Forecast made</dt>
        <dd>{formatTime(forecast.computed_at)}</dd>
      </div>
    </dl>
  );
}
