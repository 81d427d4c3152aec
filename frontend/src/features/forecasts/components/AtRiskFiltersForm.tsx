import type { ForecastCause } from '../api/types';
import { type AtRiskFilters, effectiveHorizon } from '../atRisk';
import { CAUSE_LABELS, FORECAST_CAUSES } from '../forecastText';

/** Horizons offered below the fabric's own (which is always offered, and the most any filter may ask). */
const HORIZON_CHOICES = [1, 2, 3, 5, 7, 14, 30, 60];

interface AtRiskFiltersFormProps {
  filters: AtRiskFilters;
  /** The fabric's forecast horizon: at risk means a crossing within it. */
  fabricHorizonDays: number;
  onChange: (next: AtRiskFilters) => void;
}

/** Cause (any of those ticked; none ticked: every cause) and horizon: each change applies at once. */
export function AtRiskFiltersForm({ filters, fabricHorizonDays, onChange }: AtRiskFiltersFormProps) {
  const horizons = [...new Set([...HORIZON_CHOICES.filter((days) => days < fabricHorizonDays), fabricHorizonDays])];
  const toggle = (cause: ForecastCause, on: boolean) =>
    onChange({
      ...filters,
      causes: FORECAST_CAUSES.filter((candidate) => (candidate === cause ? on : filters.causes.includes(candidate))),
    });
  return (
    <form
      className="filters at-risk-filters"
      aria-label="Filter links at risk"
      onSubmit={(event) => event.preventDefault()}
    >
      <fieldset className="filter-group">
        <legend>Cause</legend>
        {FORECAST_CAUSES.map((cause) => (
          <label key={cause} className="check">
            <input
              type="checkbox"
              checked={filters.causes.includes(cause)}
              onChange={(event) => toggle(cause, event.target.checked)}
            />
            {CAUSE_LABELS[cause]}
          </label>
        ))}
      </fieldset>
      <label>
        Crossing within
        <select
          value={effectiveHorizon(filters, fabricHorizonDays)}
          onChange={(event) => {
            const days = Number(event.target.value);
            onChange({ ...filters, horizonDays: days === fabricHorizonDays ? undefined : days });
          }}
        >
          {horizons.map((days) => (
            <option key={days} value={days}>
              {days} day{days === 1 ? '' : 's'}
              {days === fabricHorizonDays ? ' (the fabric’s horizon)' : ''}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
