import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { ProgressBar } from '@/components/ProgressBar';
import { isActive, progressTone } from '@/features/jobs';

import type { CapacityConstraints, ConstraintsAnswer } from '../api/types';
import { useJob } from '../api/useJob';
import { useUpdateConstraints } from '../api/useUpdateConstraints';
import {
  constraintsPatch,
  describeChange,
  draftFromConstraints,
  isEmptyPatch,
  type ConstraintsDraft,
} from '../constraintForm';

interface ConstraintEditorProps {
  fabricId: number;
  constraints: CapacityConstraints;
  /** Names of the fabric's ToRs, for adding an override. */
  torNames: string[];
  canEdit: boolean;
}

/** The fabric's default constraint and per-ToR overrides; operators and admins change them. */
export function ConstraintEditor({ fabricId, constraints, torNames, canEdit }: ConstraintEditorProps) {
  // Held here: the form below starts afresh from each server answer, the answer's report stays.
  const update = useUpdateConstraints(fabricId);
  if (!canEdit) return <ConstraintsReadOnly constraints={constraints} />;
  return (
    <div className="constraint-editor" data-testid="constraint-editor">
      <ConstraintForm key={JSON.stringify(constraints)} constraints={constraints} torNames={torNames} update={update} />
      {update.data ? <SaveResult fabricId={fabricId} answer={update.data} /> : null}
    </div>
  );
}

function ConstraintsReadOnly({ constraints }: { constraints: CapacityConstraints }) {
  const overrides = Object.entries(constraints.overrides);
  return (
    <div data-testid="constraints-read-only">
      <p>
        Fabric default: <strong data-testid="constraint-default">{constraints.default}</strong> of each ToR’s up-paths
        must stay available.
      </p>
      {overrides.length === 0 ? (
        <p className="muted">No ToR has its own constraint.</p>
      ) : (
        <ul>
          {overrides.map(([tor, value]) => (
            <li key={tor}>
              {tor}: {value}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">Operators and admins edit constraints.</p>
    </div>
  );
}

interface ConstraintFormProps {
  constraints: CapacityConstraints;
  torNames: string[];
  update: ReturnType<typeof useUpdateConstraints>;
}

function ConstraintForm({ constraints, torNames, update }: ConstraintFormProps) {
  const [draft, setDraft] = useState<ConstraintsDraft>(() => draftFromConstraints(constraints));
  const [newTor, setNewTor] = useState('');
  const patch = constraintsPatch(constraints, draft);
  const listId = useId();
  const withoutOverride = torNames.filter((name) => !draft.overrides.some((row) => row.tor === name));

  const setOverride = (index: number, value: string) =>
    setDraft((current) => ({
      ...current,
      overrides: current.overrides.map((row, at) => (at === index ? { ...row, value } : row)),
    }));
  const removeOverride = (index: number) =>
    setDraft((current) => ({ ...current, overrides: current.overrides.filter((_, at) => at !== index) }));
  const addOverride = () => {
    const tor = newTor.trim();
    if (!tor) return;
    setDraft((current) => ({ ...current, overrides: [...current.overrides, { tor, value: current.default }] }));
    setNewTor('');
  };

  return (
    <form
      aria-label="Capacity constraints"
      className="stacked-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!isEmptyPatch(patch)) update.mutate(patch);
      }}
    >
      <label>
        Fabric default (fraction of each ToR’s up-paths that must stay available, 0–1)
        <input
          type="text"
          inputMode="decimal"
          className="constraint-input"
          value={draft.default}
          onChange={(event) => setDraft({ ...draft, default: event.target.value })}
        />
      </label>
      <fieldset className="constraint-overrides">
        <legend>Per-ToR overrides</legend>
        {draft.overrides.length === 0 ? <p className="muted">No ToR has its own constraint.</p> : null}
        {draft.overrides.map((row, index) => (
          <div key={row.tor} className="override-row">
            <label>
              {row.tor}
              <input
                type="text"
                inputMode="decimal"
                className="constraint-input"
                value={row.value}
                onChange={(event) => setOverride(index, event.target.value)}
              />
            </label>
            <button type="button" onClick={() => removeOverride(index)} aria-label={`Clear the override of ${row.tor}`}>
              Clear
            </button>
          </div>
        ))}
        <div className="override-row">
          <label>
            Add an override for ToR
            <input
              type="text"
              list={listId}
              autoComplete="off"
              value={newTor}
              onChange={(event) => setNewTor(event.target.value)}
            />
          </label>
          <datalist id={listId}>
            {withoutOverride.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          <button type="button" onClick={addOverride} disabled={!newTor.trim()}>
            Add
          </button>
        </div>
      </fieldset>
      <ErrorList error={update.error} title="The constraints were not changed." />
      <div className="button-row">
        <button type="submit" className="primary" disabled={isEmptyPatch(patch) || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save constraints'}
        </button>
        <button
          type="button"
          onClick={() => setDraft(draftFromConstraints(constraints))}
          disabled={isEmptyPatch(patch) || update.isPending}
        >
          Discard changes
        </button>
      </div>
      <p className="muted">Saving re-runs CorrOpt’s optimizer on this fabric; every change is audited.</p>
    </form>
  );
}

function SaveResult({ fabricId, answer }: { fabricId: number; answer: ConstraintsAnswer }) {
  const job = useJob(answer.optimizer_job?.id ?? null);
  const shown = job.data ?? answer.optimizer_job;
  const queryClient = useQueryClient();
  const finished = job.data !== undefined && !isActive(job.data);
  useEffect(() => {
    // The optimizer may have disabled links: capacity, decisions, tickets and links changed.
    if (!finished) return;
    for (const queryKey of [
      ['fabrics', 'capacity', fabricId],
      ['fabrics', 'topology', fabricId],
      ['decisions'],
      ['tickets'],
      ['links'],
    ]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [finished, fabricId, queryClient]);
  return (
    <div className="success-box" role="status" data-testid="constraints-saved">
      <p>
        {answer.changes.length === 0 ? 'Nothing changed.' : `Saved: ${answer.changes.map(describeChange).join('; ')}.`}
      </p>
      {shown ? (
        <div>
          <p>
            Optimizer job <Link to={`/optimizer/${shown.id}`}>#{shown.id}</Link>: {shown.state}
            {shown.message ? ` — ${shown.message}` : ''}
          </p>
          <ProgressBar value={shown.progress} label={`Optimizer job ${shown.id}`} tone={progressTone(shown.state)} />
        </div>
      ) : null}
    </div>
  );
}
