import { type FormEvent, useState } from 'react';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { defaultFabric } from '@/components/defaultFabric';
import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormField, RefusedProblems } from '@/components/FormField';
import { FormProblems } from '@/components/FormProblems';
import { fieldProblems } from '@/lib/fieldProblems';

import type { ShareBackupParams } from '../api/types';
import { buildPlanParams, INITIAL_PLAN_FORM, type PlanFormState, readFile } from '../forms';

const TREES = [
  { value: 'abstract', label: 'A k-ary fat tree' },
  { value: 'fabric', label: 'A stored fabric' },
] as const;

/** The param whose refusal is said at its field; the others (events inside the file, k or pods set beside a stored fabric) stay in the box. */
const SERVER_FIELDS = ['fabric'] as const;
const NO_FABRIC = 'Choose the stored fabric to plan.';

const EVENT_SOURCES = [
  { value: 'synthetic', label: 'Synthetic log' },
  { value: 'uploaded', label: 'Upload JSON' },
] as const;

interface ShareBackupFormProps {
  fabrics: FabricChoice[];
  submitting: boolean;
  /** The server's refusal: a problem of the stored fabric is said at its picker, in words. */
  error: unknown;
  onSubmit: (job: { params: ShareBackupParams; fabric: number | null }) => void;
}

/**
 * A fat tree (k and pods, or a stored fabric of that shape with circuit switches), backups per group
 * and an event log: a synthetic one or an uploaded JSON file.
 */
export function ShareBackupForm({ fabrics, submitting, error, onSubmit }: ShareBackupFormProps) {
  const [form, setForm] = useState<PlanFormState>(() => ({
    ...INITIAL_PLAN_FORM,
    fabric: String(defaultFabric(fabrics, null) ?? ''),
  }));
  const [problems, setProblems] = useState<string[]>([]);
  const server = fieldProblems(error, SERVER_FIELDS);
  // Said at their fields, so not again in the box: the missing fabric, a file that is not JSON text.
  const fabricProblem = problems.find((problem) => problem === NO_FABRIC) ?? server.byField.fabric?.join(' ');
  const uploadProblem = form.source === 'uploaded' ? form.upload?.problem : undefined;
  const boxProblems = problems.filter((problem) => problem !== NO_FABRIC && problem !== uploadProblem);
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
      <ChoiceFieldset
        legend="Fat tree"
        name="sharebackup-tree"
        options={TREES}
        value={form.tree}
        onChange={(value) => set('tree', value)}
        className="filter-group sim-trace"
      >
        {form.tree === 'fabric' ? (
          <>
            <FabricSelect
              fabrics={fabrics}
              label="Stored fabric"
              emptyOption="Choose…"
              value={form.fabric}
              onChange={(fabric) => set('fabric', fabric)}
            />
            <span className="muted sim-field">
              a k-ary fat tree with circuit switches; k and pods are read from it, events may name its switches
            </span>
            {fabricProblem ? (
              <span className="field-error sim-field" role="alert" data-testid="sharebackup-fabric-problem">
                {fabricProblem}
              </span>
            ) : null}
          </>
        ) : (
          <>
            <label>
              k (ports per switch)
              <input inputMode="numeric" value={form.k} onChange={(event) => set('k', event.target.value)} />
            </label>
            <label>
              Pods
              <input inputMode="numeric" value={form.pods} onChange={(event) => set('pods', event.target.value)} />
            </label>
          </>
        )}
      </ChoiceFieldset>
      <div className="sim-form-row">
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
          <FormField
            label="Events file (a JSON list of switch_down, link_down, repair_done, diagnosis_result events)"
            className="sim-field"
            problems={uploadProblem ? [uploadProblem] : undefined}
          >
            {(aria) => (
              <input
                type="file"
                accept=".json,application/json"
                onChange={(event) => readFile(event.target.files?.[0], (upload) => set('upload', upload), 'JSON')}
                {...aria}
              />
            )}
          </FormField>
        )}
      </ChoiceFieldset>
      <FormProblems problems={boxProblems} />
      <RefusedProblems
        title="The server refused the plan."
        problems={form.tree === 'fabric' ? server.general : [...server.general, ...(server.byField.fabric ?? [])]}
      />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Submitting…' : 'Plan failover'}
      </button>
    </form>
  );
}
