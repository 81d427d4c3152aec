import { type FormEvent, useMemo, useState } from 'react';

import { FormField, RefusedProblems } from '@/components/FormField';
import { FormProblems } from '@/components/FormProblems';
import { fieldProblems } from '@/lib/fieldProblems';
import { type FormCheck, generalProblems, problemsOf } from '@/lib/formCheck';
import { lengthHint } from '@/lib/format/length';

import type { CircuitSwitch, CircuitSwitchInput } from '../api/types';
import type { TorChoice } from '../api/useTors';
import {
  buildSwitchInput,
  EMPTY_SWITCH_FORM,
  MAX_CAPACITY_GBPS,
  SWITCH_FIELDS,
  SWITCH_NAME_MAX,
  SWITCH_ZONE_MAX,
  type SwitchField,
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
  // After a submit the browser's check follows every edit: a fixed field stops saying its problem.
  const [submitted, setSubmitted] = useState(false);
  const server = fieldProblems<SwitchField>(error, SWITCH_FIELDS);
  const nameHint = lengthHint(form.name.trim().length, SWITCH_NAME_MAX);
  const zoneHint = lengthHint(form.zone.trim().length, SWITCH_ZONE_MAX);
  // A field says its problem: the browser's check from the last submit, else the server's refusal.
  const problems = (field: SwitchField) => problemsOf(checked.byField[field], server.byField[field]);
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
  const checked: FormCheck<SwitchField> = submitted
    ? buildSwitchInput(form, fabric, choices, creating)
    : { errors: [], byField: {} };
  const set = <K extends keyof SwitchFormState>(key: K, value: SwitchFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildSwitchInput(form, fabric, choices, creating);
    setSubmitted(true);
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
        {/* No maxLength: a paste is never cut silently; past the limit the field says so at once. */}
        <FormField label="Name" limit={nameHint} problems={problems('name')}>
          {(aria) => <input value={form.name} onChange={(event) => set('name', event.target.value)} {...aria} />}
        </FormField>
        <FormField label="Zone" limit={zoneHint} problems={problems('zone')}>
          {(aria) => (
            <input
              value={form.zone}
              onChange={(event) => set('zone', event.target.value)}
              placeholder="optional"
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Ports" problems={problems('port_count')}>
          {(aria) => (
            <input
              inputMode="numeric"
              value={form.portCount}
              onChange={(event) => set('portCount', event.target.value)}
              placeholder="as attached"
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Dark time (ms)" hint="From 0 to 10,000." problems={problems('dark_time_s')}>
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.darkTimeMs}
              onChange={(event) => set('darkTimeMs', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField
          label={`Circuit capacity (Gb/s, up to ${MAX_CAPACITY_GBPS.toLocaleString('en-US')})`}
          problems={problems('capacity_gbps')}
        >
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.capacityGbps}
              onChange={(event) => set('capacityGbps', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Description" problems={problems('description')}>
          {(aria) => (
            <input value={form.description} onChange={(event) => set('description', event.target.value)} {...aria} />
          )}
        </FormField>
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
      <FormProblems problems={generalProblems(checked)} />
      <RefusedProblems title="The server refused the circuit switch." problems={server.general} />
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
