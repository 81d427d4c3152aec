import { type FormEvent, useState } from 'react';

import type { LarryParams, LarryPolicy, RackSetWithNames } from '../api/types';
import { type Built, buildRunParams, INITIAL_RUN_FORM, readFile, type RunFormState } from '../forms';
import { POLICY_LABEL } from '../larryData';
import { FormProblems } from './FormProblems';

interface LarryRunFormProps {
  rackSet: Built<RackSetWithNames>;
  submitting: boolean;
  onSubmit: (params: LarryParams) => void;
}

const POLICIES: LarryPolicy[] = ['conservative', 'one_big_switch', 'proportional', 'static'];

/** Per-ToR cumulative byte counters (CSV or JSON upload) for the rack set above, and the controller's settings. */
export function LarryRunForm({ rackSet, submitting, onSubmit }: LarryRunFormProps) {
  const [form, setForm] = useState<RunFormState>(INITIAL_RUN_FORM);
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof RunFormState>(key: K, value: RunFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildRunParams(form, rackSet);
    setProblems(built.errors);
    if (built.value) onSubmit(built.value);
  };

  return (
    <form className="sim-form" aria-label="New uplink run" onSubmit={submit} noValidate>
      <div className="sim-form-row">
        <label className="wide-label">
          Counters file: CSV with header time_s,rack,ingress_bytes,egress_bytes (one row per rack per time), or JSON
          samples {'{time_s, ingress_bytes: [...], egress_bytes: [...]}'}
          <input
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={(event) => readFile(event.target.files?.[0], (upload) => set('upload', upload))}
          />
        </label>
      </div>
      <div className="sim-form-row">
        <label>
          Period (s)
          <input
            inputMode="decimal"
            value={form.periodS}
            placeholder="every sample"
            onChange={(event) => set('periodS', event.target.value)}
            aria-describedby="period-help"
          />
        </label>
        <span id="period-help" className="muted sim-field">
          empty: each pair of samples is one period (500 ms in the Larry paper)
        </span>
        <label>
          Threshold θ
          <input
            inputMode="decimal"
            value={form.threshold}
            onChange={(event) => set('threshold', event.target.value)}
          />
        </label>
        <label>
          Policy
          <select value={form.policy} onChange={(event) => set('policy', event.target.value as LarryPolicy)}>
            {POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {POLICY_LABEL[policy]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FormProblems problems={problems} />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Submitting…' : 'Run the controller'}
      </button>
    </form>
  );
}
