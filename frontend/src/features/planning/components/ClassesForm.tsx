import { type FormEvent, useState } from 'react';

import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormProblems } from '@/components/FormProblems';

import type { ClassesParams } from '../api/types';
import { buildClassesParams, type ClassesFormState, INITIAL_CLASSES_FORM } from '../classData';

interface ClassesFormProps {
  fabrics: FabricChoice[];
  /** The fabric chosen at first (defaultFabric). */
  initialFabric: number | null;
  submitting: boolean;
  onSubmit: (fabric: number, params: ClassesParams) => void;
}

/** Reliability classes inputs: fabric, telemetry window, class bounds, repair threshold, FEC target. */
export function ClassesForm({ fabrics, initialFabric, submitting, onSubmit }: ClassesFormProps) {
  const [form, setForm] = useState<ClassesFormState>(() => ({
    ...INITIAL_CLASSES_FORM,
    fabric: initialFabric === null ? '' : String(initialFabric),
  }));
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof ClassesFormState>(key: K, value: ClassesFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildClassesParams(form);
    setProblems(built.errors);
    if (built.params && built.fabric !== null) onSubmit(built.fabric, built.params);
  };

  return (
    <form className="sim-form" aria-label="New reliability classes" onSubmit={submit} noValidate>
      <div className="sim-form-row">
        <FabricSelect
          fabrics={fabrics}
          emptyOption="Choose…"
          value={form.fabric}
          onChange={(fabric) => set('fabric', fabric)}
        />
        <div className="sim-field">
          <label>
            Telemetry window (hours)
            <input
              inputMode="decimal"
              value={form.windowHours}
              onChange={(event) => set('windowHours', event.target.value)}
            />
          </label>
          <span className="muted">a direction not measured in it counts as clean and is listed</span>
        </div>
        <div className="sim-field">
          <label>
            Class bounds (worst path loss)
            <input value={form.bounds} onChange={(event) => set('bounds', event.target.value)} />
          </label>
          <span className="muted">tightest first: today’s reliability, short TCP, coded bulk traffic</span>
        </div>
        <label>
          Repair links above (loss)
          <input
            inputMode="decimal"
            value={form.repairAbove}
            onChange={(event) => set('repairAbove', event.target.value)}
          />
        </label>
        <label>
          FEC target (loss)
          <input
            inputMode="decimal"
            value={form.fecTarget}
            onChange={(event) => set('fecTarget', event.target.value)}
          />
        </label>
      </div>
      <FormProblems problems={problems} />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Starting…' : 'Build classes'}
      </button>
    </form>
  );
}
