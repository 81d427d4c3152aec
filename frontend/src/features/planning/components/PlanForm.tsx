import { type FormEvent, useId, useState } from 'react';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormField } from '@/components/FormField';
import { FormProblems } from '@/components/FormProblems';
import { type FormCheck, generalProblems } from '@/lib/formCheck';
import { lengthHint } from '@/lib/format/length';

import type { PlanParams, TransceiverModel } from '../api/types';
import {
  buildPlanParams,
  COST_FIELDS,
  formatLength,
  initialPlanForm,
  type PlanField,
  PLAN_NAME_MAX,
  type PlanFormState,
  priceText,
  type StretchLevel,
  stretchText,
} from '../planForm';

const FABRIC_SOURCES = [
  { value: 'fabric', label: 'Stored fabric' },
  { value: 'generated', label: 'Generated fat tree' },
] as const;

interface PlanFormProps {
  fabrics: FabricChoice[];
  /** The stored fabric chosen at first (defaultFabric); null: the generated fat tree. */
  initialFabric: number | null;
  catalog: TransceiverModel[];
  catalogLoading: boolean;
  submitting: boolean;
  onSubmit: (fabric: number | null, params: PlanParams) => void;
}

/** Stretch plan inputs: a stored or generated fabric, the catalog, the NRB, hops and prices. */
export function PlanForm({ fabrics, initialFabric, catalog, catalogLoading, submitting, onSubmit }: PlanFormProps) {
  const [form, setForm] = useState<PlanFormState>(() => initialPlanForm(initialFabric));
  // After a submit the check follows every edit: a fixed field stops saying its problem.
  const [submitted, setSubmitted] = useState(false);
  const checked: FormCheck<PlanField> = submitted ? buildPlanParams(form, catalog) : { errors: [], byField: {} };
  const problem = (field: PlanField) => (checked.byField[field] ? [checked.byField[field]] : undefined);
  const nameHintId = useId();
  const nameHint = lengthHint(form.name.trim().length, PLAN_NAME_MAX);
  const set = <K extends keyof PlanFormState>(key: K, value: PlanFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildPlanParams(form, catalog);
    setSubmitted(true);
    if (built.params) onSubmit(built.fabric, built.params);
  };

  const speeds = [...new Set(catalog.map((model) => model.speed_gbps))].sort((a, b) => a - b);

  return (
    <form className="sim-form" aria-label="New stretch plan" onSubmit={submit} noValidate>
      <div className="sim-form-row">
        {/* No maxLength: a pasted name is never cut silently; past the limit the field says so. */}
        <label>
          Plan name
          <input
            value={form.name}
            onChange={(event) => set('name', event.target.value)}
            aria-invalid={nameHint.over || undefined}
            aria-describedby={nameHintId}
          />
          <span id={nameHintId} className={nameHint.over ? 'field-error' : 'field-hint'}>
            {nameHint.text}
          </span>
        </label>
        <ChoiceFieldset
          legend="Fabric"
          name="plan-source"
          options={FABRIC_SOURCES}
          value={form.source}
          onChange={(value) => set('source', value)}
        />
      </div>
      {form.source === 'fabric' ? (
        <div className="sim-form-row">
          <div className="sim-field">
            <FabricSelect
              fabrics={fabrics}
              label="Stored fabric"
              emptyOption="Choose…"
              value={form.fabric}
              onChange={(fabric) => set('fabric', fabric)}
            />
            <span className="muted">every link needs a length</span>
            {problem('fabric') ? (
              <span className="field-error" role="alert">
                {problem('fabric')}
              </span>
            ) : null}
          </div>
        </div>
      ) : (
        <div className="sim-form-row">
          <FormField label="Fat tree k" problems={problem('k')}>
            {(aria) => (
              <input inputMode="numeric" value={form.k} onChange={(event) => set('k', event.target.value)} {...aria} />
            )}
          </FormField>
          <FormField label="Shortest link (m)" problems={problem('min_length_m')}>
            {(aria) => (
              <input
                inputMode="decimal"
                value={form.minLengthM}
                onChange={(event) => set('minLengthM', event.target.value)}
                {...aria}
              />
            )}
          </FormField>
          <FormField label="Longest link (m)" problems={problem('max_length_m')}>
            {(aria) => (
              <input
                inputMode="decimal"
                value={form.maxLengthM}
                onChange={(event) => set('maxLengthM', event.target.value)}
                {...aria}
              />
            )}
          </FormField>
          <label>
            Lengths
            <select
              value={form.lengths}
              onChange={(event) => set('lengths', event.target.value as PlanFormState['lengths'])}
            >
              <option value="sampled">one random length per link</option>
              <option value="expected">expected value (the seed’s Table 4.1)</option>
            </select>
          </label>
          {form.lengths === 'sampled' ? (
            <FormField label="Seed" problems={problem('seed')}>
              {(aria) => (
                <input
                  inputMode="numeric"
                  value={form.seed}
                  onChange={(event) => set('seed', event.target.value)}
                  {...aria}
                />
              )}
            </FormField>
          ) : null}
          <label>
            Link speed
            <select value={form.speedGbps} onChange={(event) => set('speedGbps', event.target.value)}>
              {(speeds.length > 0 ? speeds : [10]).map((speed) => (
                <option key={speed} value={speed}>
                  {speed} Gb/s
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      <div className="sim-form-row">
        <label>
          Stretch
          <select value={form.stretch} onChange={(event) => set('stretch', event.target.value as StretchLevel)}>
            <option value="none">none (rated reach only)</option>
            <option value="low">low: NRB 99%</option>
            <option value="high">high: NRB 95%</option>
            <option value="custom">another NRB…</option>
          </select>
        </label>
        {form.stretch === 'custom' ? (
          <FormField
            label="NRB"
            className="sim-field"
            hint="expected share of good paths kept, in (0, 1]"
            problems={problem('nrb')}
          >
            {(aria) => (
              <input
                inputMode="decimal"
                value={form.customNrb}
                onChange={(event) => set('customNrb', event.target.value)}
                {...aria}
              />
            )}
          </FormField>
        ) : null}
        <FormField
          label="Maximum hops"
          className="sim-field"
          hint="empty: 2 × (tiers − 1)"
          problems={problem('max_hops')}
        >
          {(aria) => (
            <input
              inputMode="numeric"
              value={form.maxHops}
              onChange={(event) => set('maxHops', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
      </div>
      <fieldset className="filter-group">
        <legend>Catalog</legend>
        {catalogLoading ? (
          <p className="muted">Loading the catalog…</p>
        ) : catalog.length === 0 ? (
          <p className="muted">The catalog is empty: add transceiver models before planning.</p>
        ) : (
          <table className="data-table" data-testid="plan-catalog">
            <caption className="visually-hidden">Transceiver parts the plan may choose</caption>
            <thead>
              <tr>
                <th scope="col">Use</th>
                <th scope="col">Part</th>
                <th scope="col">Fiber</th>
                <th scope="col" className="numeric">
                  Rated reach
                </th>
                <th scope="col">Stretched reach</th>
                <th scope="col" className="numeric">
                  Price
                </th>
              </tr>
            </thead>
            <tbody>
              {catalog.map((model) => (
                <tr key={model.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Use ${model.name}`}
                      checked={!form.excluded.includes(model.id)}
                      onChange={(event) =>
                        set(
                          'excluded',
                          event.target.checked
                            ? form.excluded.filter((id) => id !== model.id)
                            : [...form.excluded, model.id],
                        )
                      }
                    />
                  </td>
                  <th scope="row">
                    {model.name} <span className="muted">{model.speed_gbps}G</span>
                  </th>
                  <td>{model.fiber}</td>
                  <td className="numeric">{formatLength(model.reach_m)}</td>
                  <td>{stretchText(model.stretch)}</td>
                  <td className="numeric">
                    {model.price_source === 'demo' ? (
                      <span className="badge badge-demo" title="An illustrative value seeded for demos, not a quote">
                        {priceText(model)}
                      </span>
                    ) : (
                      priceText(model)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </fieldset>
      <fieldset className="filter-group sim-form-row">
        <legend>Prices</legend>
        {COST_FIELDS.map((field) => (
          <FormField key={field.key} label={`${field.label} (${field.unit})`} problems={problem(`costs.${field.key}`)}>
            {(aria) => (
              <input
                inputMode="decimal"
                value={form.costs[field.key]}
                onChange={(event) => set('costs', { ...form.costs, [field.key]: event.target.value })}
                {...aria}
              />
            )}
          </FormField>
        ))}
      </fieldset>
      <fieldset className="filter-group sim-form-row">
        <legend>Savings curves</legend>
        <FormField label="Up to a longest link of (m)" problems={problem('sweep_max_length_m')}>
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.sweepMaxLengthM}
              onChange={(event) => set('sweepMaxLengthM', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Every (m)" problems={problem('sweep_step_m')}>
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.sweepStepM}
              onChange={(event) => set('sweepStepM', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
      </fieldset>
      <FormProblems problems={generalProblems(checked)} />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Starting…' : 'Run plan'}
      </button>
    </form>
  );
}
