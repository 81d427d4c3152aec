import { type FormEvent, useState } from 'react';

import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormProblems } from '@/components/FormProblems';

import type { AssignableUser, PlanParams } from '../api/types';
import { buildPlanDay, initialPlanDayForm, planAssignees, type PlanDayForm as FormState } from '../planDay';

interface PlanDayFormProps {
  fabrics: readonly FabricChoice[];
  fabric: number | undefined;
  onFabricChange: (fabric: number | undefined) => void;
  users: readonly AssignableUser[];
  submitting: boolean;
  onSubmit: (fabric: number, params: PlanParams) => void;
}

/** Fabric, who goes on the floor, when the shift starts and how long it is: a `tickets.plan` job. */
export function PlanDayForm({ fabrics, fabric, onFabricChange, users, submitting, onSubmit }: PlanDayFormProps) {
  const [form, setForm] = useState<FormState>(() => initialPlanDayForm());
  const [problems, setProblems] = useState<string[]>([]);
  const toggle = (username: string, on: boolean) =>
    setForm((current) => ({
      ...current,
      assignees: on ? [...current.assignees, username] : current.assignees.filter((assignee) => assignee !== username),
    }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildPlanDay({ ...form, fabric: fabric === undefined ? '' : String(fabric) });
    setProblems(built.problems);
    if (built.params && built.fabric !== undefined) onSubmit(built.fabric, built.params);
  };

  return (
    <form className="stacked-form plan-day-form" aria-label="Plan the day" onSubmit={submit} noValidate>
      <FabricSelect
        fabrics={fabrics}
        value={fabric}
        onChange={(value) => onFabricChange(value ? Number(value) : undefined)}
        emptyOption="Choose…"
        required
      />
      <fieldset className="plan-assignees">
        <legend>Who goes on the floor (in plan order)</legend>
        {users.length === 0 ? <p className="muted">No active user is a technician, operator or admin.</p> : null}
        {planAssignees(users).map((assignee) => (
          <label key={assignee.username} className="check">
            <input
              type="checkbox"
              name="assignees"
              value={assignee.username}
              checked={form.assignees.includes(assignee.username)}
              onChange={(event) => toggle(assignee.username, event.target.checked)}
            />
            {assignee.label}
          </label>
        ))}
      </fieldset>
      <label>
        Shift start (UTC)
        <input
          type="datetime-local"
          value={form.shiftStart}
          onChange={(event) => setForm((current) => ({ ...current, shiftStart: event.target.value }))}
          required
        />
      </label>
      <label>
        Shift hours
        <input
          type="number"
          min={0.5}
          max={24}
          step={0.5}
          value={form.shiftHours}
          onChange={(event) => setForm((current) => ({ ...current, shiftHours: event.target.value }))}
          required
        />
      </label>
      <FormProblems problems={problems} />
      <button type="submit" className="primary" disabled={submitting}>
        {submitting ? 'Planning…' : 'Plan the day'}
      </button>
    </form>
  );
}
