import { type FormEvent, useState } from 'react';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormProblems } from '@/components/FormProblems';
import { readTextUpload } from '@/lib/textUpload';

import { type PenaltyFunction, POLICIES } from '../api/types';
import { buildSimulationParams, INITIAL_FORM, POLICY_STYLE, type SimulationFormState } from '../simulationData';

const TRACE_SOURCES = [
  { value: 'generated', label: 'Generated' },
  { value: 'uploaded', label: 'Upload CSV' },
] as const;

interface SimulationFormProps {
  fabrics: FabricChoice[];
  submitting: boolean;
  onSubmit: (fabric: number, params: NonNullable<ReturnType<typeof buildSimulationParams>['params']>) => void;
}

/** What-if parameters: fabric, constraints x repair accuracies, policies, and a generated or uploaded trace. */
export function SimulationForm({ fabrics, submitting, onSubmit }: SimulationFormProps) {
  const [form, setForm] = useState<SimulationFormState>(INITIAL_FORM);
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof SimulationFormState>(key: K, value: SimulationFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildSimulationParams(form);
    setProblems(built.errors);
    if (built.params && built.fabric !== null) onSubmit(built.fabric, built.params);
  };

  const readUpload = (file: File | undefined) => {
    if (!file) {
      set('upload', null);
      return;
    }
    void readTextUpload(file).then((upload) => set('upload', upload));
  };

  return (
    <form className="sim-form" aria-label="New simulation" onSubmit={submit} noValidate>
      <div className="sim-form-row">
        <FabricSelect
          fabrics={fabrics}
          emptyOption="Choose…"
          value={form.fabric}
          onChange={(fabric) => set('fabric', fabric)}
          required
        />
        <div className="sim-field">
          <label>
            Capacity constraints
            <input
              value={form.constraints}
              onChange={(event) => set('constraints', event.target.value)}
              aria-describedby="sim-constraints-help"
            />
          </label>
          <span id="sim-constraints-help" className="muted">
            fractions of each ToR’s up-paths, e.g. 0.5, 0.75
          </span>
        </div>
        <div className="sim-field">
          <label>
            Repair accuracies
            <input
              value={form.accuracies}
              onChange={(event) => set('accuracies', event.target.value)}
              aria-describedby="sim-accuracies-help"
            />
          </label>
          <span id="sim-accuracies-help" className="muted">
            chance a first repair fixes the link (0.8 with recommendations, 0.5 without)
          </span>
        </div>
      </div>
      <div className="sim-form-row">
        <fieldset className="filter-group">
          <legend>Policies</legend>
          {POLICIES.map((policy) => (
            <label key={policy} className="check">
              <input
                type="checkbox"
                checked={form.policies.includes(policy)}
                onChange={(event) =>
                  set(
                    'policies',
                    event.target.checked
                      ? [...form.policies, policy]
                      : form.policies.filter((chosen) => chosen !== policy),
                  )
                }
              />
              {POLICY_STYLE[policy].label}
            </label>
          ))}
        </fieldset>
        <label>
          Penalty I(f)
          <select value={form.penalty} onChange={(event) => set('penalty', event.target.value as PenaltyFunction)}>
            <option value="linear">linear: f</option>
            <option value="log">log: log10(1 + f/1e-8)</option>
            <option value="step">step: Table 3.1 bucket</option>
          </select>
        </label>
        <label>
          Repair delay (hours)
          <input
            inputMode="decimal"
            value={form.repairDelayHours}
            onChange={(event) => set('repairDelayHours', event.target.value)}
          />
        </label>
        <label>
          Seed
          <input inputMode="numeric" value={form.seed} onChange={(event) => set('seed', event.target.value)} />
        </label>
      </div>
      <ChoiceFieldset
        legend="Corruption trace"
        name="trace-source"
        options={TRACE_SOURCES}
        value={form.traceSource}
        onChange={(value) => set('traceSource', value)}
        className="filter-group sim-trace"
      >
        {form.traceSource === 'generated' ? (
          <>
            <label>
              Length (hours)
              <input inputMode="decimal" value={form.hours} onChange={(event) => set('hours', event.target.value)} />
            </label>
            <label>
              Mean time between onsets per link (hours)
              <input
                inputMode="decimal"
                value={form.mttfHours}
                onChange={(event) => set('mttfHours', event.target.value)}
              />
            </label>
          </>
        ) : (
          <label>
            Trace file (header time_s,link,loss_rate; link = id, SWITCH:PORT or both ends; at most 8 MiB)
            <input type="file" accept=".csv,text/csv" onChange={(event) => readUpload(event.target.files?.[0])} />
          </label>
        )}
      </ChoiceFieldset>
      <FormProblems problems={problems} />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Submitting…' : 'Run simulation'}
      </button>
    </form>
  );
}
