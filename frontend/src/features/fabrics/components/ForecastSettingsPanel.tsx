import { type FormEvent, useId, useState } from 'react';

import { formatPercent } from '@/lib/format';

import type { Fabric, ForecastSettings } from '../api/types';
import { useUpdateForecastSettings } from '../api/useUpdateForecastSettings';
import {
  type FieldProblems,
  type ForecastField,
  type ForecastForm,
  formFromSettings,
  settingsFromForm,
  splitServerProblems,
} from '../forecastSettings';

interface ForecastSettingsPanelProps {
  fabric: Fabric;
  /** Operators and admins change the settings; other roles read them. */
  canEdit: boolean;
}

/**
 * The fabric's forecast settings (trial 27 item 12: they were reachable only through the raw API):
 * the horizon, the least confidence for at risk, and whether preventive tickets open by themselves.
 */
export function ForecastSettingsPanel({ fabric, canEdit }: ForecastSettingsPanelProps) {
  // Here, not in the form: the form starts again from the saved answer, and "Saved." stays.
  const update = useUpdateForecastSettings(fabric.id);
  return (
    <section className="panel" aria-labelledby="forecast-settings-heading" data-testid="forecast-settings">
      <h2 id="forecast-settings-heading">Forecasts</h2>
      <p className="lede">
        A link is at risk when its optics are forecast to cross their limit within the horizon, with at least the least
        confidence.
      </p>
      {canEdit ? (
        // Keyed by the saved values, so the form starts again from the server's answer.
        <ForecastSettingsForm key={fabric.updated} fabric={fabric} update={update} />
      ) : (
        <ForecastSettingsFacts settings={fabric} />
      )}
    </section>
  );
}

function ForecastSettingsFacts({ settings }: { settings: ForecastSettings }) {
  return (
    <dl className="facts" data-testid="forecast-settings-facts">
      <div>
        <dt>Horizon</dt>
        <dd>
          {settings.forecast_horizon_days} day{settings.forecast_horizon_days === 1 ? '' : 's'}
        </dd>
      </div>
      <div>
        <dt>Least confidence</dt>
        <dd>{formatPercent(settings.forecast_min_confidence, 0)}</dd>
      </div>
      <div>
        <dt>Automatic preventive tickets</dt>
        <dd>{settings.auto_preventive_tickets ? 'on' : 'off'}</dd>
      </div>
    </dl>
  );
}

function ForecastSettingsForm({
  fabric,
  update,
}: {
  fabric: Fabric;
  update: ReturnType<typeof useUpdateForecastSettings>;
}) {
  const [form, setForm] = useState<ForecastForm>(() => formFromSettings(fabric));
  const [localProblems, setLocalProblems] = useState<FieldProblems>({});
  const server = splitServerProblems(update.error);
  const problems: FieldProblems = { ...server.fields, ...localProblems };
  const autoId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = settingsFromForm(form);
    if ('problems' in built) {
      setLocalProblems(built.problems);
      return;
    }
    setLocalProblems({});
    update.mutate(built.body);
  };
  const change = (next: Partial<ForecastForm>) => {
    setForm((current) => ({ ...current, ...next }));
    update.reset();
  };

  return (
    <form className="forecast-settings-form" onSubmit={submit} noValidate>
      <NumberField
        field="forecast_horizon_days"
        label="Horizon (days, 1–60)"
        range={{ min: 1, max: 60, step: 1 }}
        value={form.horizonDays}
        onChange={(horizonDays) => change({ horizonDays })}
        problems={problems}
      />
      <NumberField
        field="forecast_min_confidence"
        label="Least confidence (fraction, 0.5–0.99)"
        range={{ min: 0.5, max: 0.99, step: 0.01 }}
        value={form.minConfidence}
        onChange={(minConfidence) => change({ minConfidence })}
        problems={problems}
      />
      <div className="dialog-field">
        <label className="check">
          <input
            id={autoId}
            type="checkbox"
            checked={form.autoTickets}
            onChange={(event) => change({ autoTickets: event.target.checked })}
            {...fieldAria('auto_preventive_tickets', problems, autoId)}
          />{' '}
          Open a preventive ticket by itself for each link that becomes at risk
        </label>
        <FieldProblem field="auto_preventive_tickets" problems={problems} id={autoId} />
      </div>
      {server.general.length > 0 ? (
        <ul className="error-box" role="alert">
          {server.general.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      <button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save forecast settings'}
      </button>
      {update.isSuccess ? (
        <p role="status" data-testid="forecast-settings-saved">
          Saved. The next derivation judges the forecasts by these settings.
        </p>
      ) : null}
    </form>
  );
}

interface NumberFieldProps {
  field: ForecastField;
  label: string;
  range: { min: number; max: number; step: number };
  /** As typed: a half-typed number is not rewritten. */
  value: string;
  onChange: (value: string) => void;
  problems: FieldProblems;
}

/** A number input with its label and, under it, its problems (the input points at them). */
function NumberField({ field, label, range, value, onChange, problems }: NumberFieldProps) {
  const id = useId();
  return (
    <div className="dialog-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode={Number.isInteger(range.step) ? 'numeric' : 'decimal'}
        {...range}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...fieldAria(field, problems, id)}
      />
      <FieldProblem field={field} problems={problems} id={id} />
    </div>
  );
}

function problemId(inputId: string): string {
  return `${inputId}-problem`;
}

function fieldAria(field: ForecastField, problems: FieldProblems, inputId: string) {
  return problems[field]?.length ? { 'aria-invalid': true, 'aria-describedby': problemId(inputId) } : {};
}

function FieldProblem({ field, problems, id }: { field: ForecastField; problems: FieldProblems; id: string }) {
  const messages = problems[field];
  if (!messages?.length) return null;
  return (
    <p id={problemId(id)} className="field-error" role="alert" data-testid={`problem-${field}`}>
      {messages.join(' ')}
    </p>
  );
}
