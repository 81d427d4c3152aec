import { FormProblems } from '@/components/FormProblems';
import { type FormEvent, useMemo, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';

import type { CircuitSwitch, CircuitSwitchInput } from '../api/types';
import type { TorChoice } from '../api/useTors';
import {
  buildSwitchInput,
  EMPTY_SWITCH_FORM,
  MAX_CAPACITY_GBPS,
  switchFormFrom,
  type SwitchFormState,
} from '../switchForm';

interface CircuitSwitchFormProps {
  fabric: number;
  tors: TorChoice[];
  /** The switch being edited; null to create one. */
  editing: CircuitSwitch | null;
  saving: boolean;
  /** The server's refusal (a 400 lists every problem). */
  error: unknown;
  onSave: (body: CircuitSwitchInput) => void;
  onCancel: () => void;
}

const collator = new Intl.Collator('en', { numeric: true });

/** Create or edit an optical circuit switch and the ToRs attached to it (optical ports, links carrying them). */
export function CircuitSwitchForm({ fabric, tors, editing, saving, error, onSave, onCancel }: CircuitSwitchFormProps) {
  const [form, setForm] = useState<SwitchFormState>(() => (editing ? switchFormFrom(editing) : EMPTY_SWITCH_FORM));
  const [problems, setProblems] = useState<string[]>([]);
  const creating = editing === null;
  // The switch's own ToRs always count, even before the fabric's list arrives or beyond its first
  // 1,000: an edit sends the whole attachment list, and a ToR left out would be detached.
  const choices = useMemo(() => {
    const byId = new Map(tors.map((tor) => [tor.id, { id: tor.id, name: tor.name }]));
    for (const attachment of editing?.attachments ?? []) {
      if (!byId.has(attachment.tor)) byId.set(attachment.tor, { id: attachment.tor, name: attachment.tor_name });
    }
    return [...byId.values()].sort((x, y) => collator.compare(x.name, y.name));
  }, [tors, editing]);
  const set = <K extends keyof SwitchFormState>(key: K, value: SwitchFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildSwitchInput(form, fabric, choices, creating);
    setProblems(built.errors);
    if (built.body) onSave(built.body);
  };

  return (
    <form
      className="panel"
      aria-label={creating ? 'New circuit switch' : `Edit ${editing.name}`}
      onSubmit={submit}
      noValidate
    >
      <h3>{creating ? 'New circuit switch' : `Edit ${editing.name}`}</h3>
      <div className="circuits-form">
        <label>
          Name
          <input value={form.name} onChange={(event) => set('name', event.target.value)} />
        </label>
        <label>
          Zone
          <input value={form.zone} onChange={(event) => set('zone', event.target.value)} placeholder="optional" />
        </label>
        <label>
          Ports
          <input
            inputMode="numeric"
            value={form.portCount}
            onChange={(event) => set('portCount', event.target.value)}
            placeholder="as attached"
          />
        </label>
        <label>
          Dark time (ms)
          <input
            inputMode="decimal"
            value={form.darkTimeMs}
            onChange={(event) => set('darkTimeMs', event.target.value)}
          />
        </label>
        <label>
          {/* The server's bound in the label, before submit (a hint line would unalign the row). */}
          Circuit capacity (Gb/s, up to {MAX_CAPACITY_GBPS.toLocaleString('en-US')})
          <input
            inputMode="decimal"
            value={form.capacityGbps}
            onChange={(event) => set('capacityGbps', event.target.value)}
          />
        </label>
        <label>
          Description
          <input value={form.description} onChange={(event) => set('description', event.target.value)} />
        </label>
      </div>
      {creating ? (
        <label className="check">
          <input
            type="checkbox"
            checked={form.attachAll}
            onChange={(event) => set('attachAll', event.target.checked)}
          />{' '}
          Attach every ToR of the fabric ({tors.length}) with one optical port
        </label>
      ) : null}
      {!creating || !form.attachAll ? (
        <div className="attachments-editor">
          <table className="data-table" aria-label="Attached ToRs">
            <thead>
              <tr>
                <th scope="col">ToR</th>
                <th scope="col">Optical ports (empty: not attached)</th>
                <th scope="col">Links carrying them (ids, optional)</th>
                <th scope="col">Unavailable now</th>
              </tr>
            </thead>
            <tbody>
              {choices.map((tor) => {
                const attachment = editing?.attachments.find((a) => a.tor === tor.id);
                return (
                  <tr key={tor.id}>
                    <th scope="row">{tor.name}</th>
                    <td>
                      <input
                        inputMode="numeric"
                        aria-label={`${tor.name} optical ports`}
                        value={form.ports[tor.id] ?? ''}
                        onChange={(event) => set('ports', { ...form.ports, [tor.id]: event.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        aria-label={`${tor.name} links`}
                        value={form.links[tor.id] ?? ''}
                        onChange={(event) => set('links', { ...form.links, [tor.id]: event.target.value })}
                      />
                    </td>
                    <td className="muted">
                      {attachment && attachment.unavailable.length > 0
                        ? attachment.unavailable.map((u) => `link ${u.link}: ${u.reason.replace('_', ' ')}`).join('; ')
                        : '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <FormProblems problems={problems} />
      <ErrorList error={error} title="The server refused the circuit switch." />
      <div className="circuits-form">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : creating ? 'Create circuit switch' : 'Save changes'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
