import { type FormEvent, useState } from 'react';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { FormProblems } from '@/components/FormProblems';

import type { ShareBackupParams } from '../api/types';
import { buildPlanParams, INITIAL_PLAN_FORM, type PlanFormState, readFile } from '../forms';

const EVENT_SOURCES = [
  { value: 'synthetic', label: 'Synthetic log' },
  { value: 'uploaded', label: 'Upload JSON' },
] as const;

interface ShareBackupFormProps {
  submitting: boolean;
  onSubmit: (params: ShareBackupParams) => void;
}

/** A fat tree (k, pods, backups per group) and an event log: a synthetic one or an uploaded JSON file. */
export function ShareBackupForm({ submitting, onSubmit }: ShareBackupFormProps) {
  const [form, setForm] = useState<PlanFormState>(INITIAL_PLAN_FORM);
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof PlanFormState>(key: K, value: PlanFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildPlanParams(form);
    setProblems(built.errors);
    if (built.value) onSubmit(built.value);
  };

  return (
    <form className="sim-form" aria-label="New failover plan" onSubmit={submit} noValidate>
      <div className="sim-form-row">
        <label>
          k (ports per switch)
          <input inputMode="numeric" value={form.k} onChange={(event) => set('k', event.target.value)} />
        </label>
        <label>
          Pods
          <input inputMode="numeric" value={form.pods} onChange={(event) => set('pods', event.target.value)} />
        </label>
        <label>
          Backups per group
          <input inputMode="numeric" value={form.backups} onChange={(event) => set('backups', event.target.value)} />
        </label>
        <label>
          Circuit switching time (ms)
          <input
            inputMode="decimal"
            value={form.reconfigMs}
            onChange={(event) => set('reconfigMs', event.target.value)}
            aria-describedby="sb-reconfig-help"
          />
        </label>
        <span id="sb-reconfig-help" className="muted sim-field">
          0.5 for an electrical switch, 8.5 for the testbed’s optical one (Table 3)
        </span>
      </div>
      <ChoiceFieldset
        legend="Events"
        name="events-source"
        options={EVENT_SOURCES}
        value={form.source}
        onChange={(value) => set('source', value)}
        className="filter-group sim-trace"
      >
        {form.source === 'synthetic' ? (
          <>
            <label>
              Number of events
              <input inputMode="numeric" value={form.length} onChange={(event) => set('length', event.target.value)} />
            </label>
            <label>
              Seed
              <input inputMode="numeric" value={form.seed} onChange={(event) => set('seed', event.target.value)} />
            </label>
          </>
        ) : (
          <label>
            Events file (a JSON list of switch_down, link_down, repair_done, diagnosis_result events)
            <input
              type="file"
              accept=".json,application/json"
              onChange={(event) => readFile(event.target.files?.[0], (upload) => set('upload', upload))}
            />
          </label>
        )}
      </ChoiceFieldset>
      <FormProblems problems={problems} />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Submitting…' : 'Plan failover'}
      </button>
    </form>
  );
}
