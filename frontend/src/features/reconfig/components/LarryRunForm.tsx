import { type FormEvent, useState } from 'react';

import { ChoiceFieldset } from '@/components/ChoiceFieldset';
import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormField } from '@/components/FormField';
import { FormProblems } from '@/components/FormProblems';

import { isFabricRackSet, type LarryParams, type LarryPolicy, type RackSetParam } from '../api/types';
import { type Built, buildRunParams, countersSource, INITIAL_RUN_FORM, readFile, type RunFormState } from '../forms';
import { POLICY_LABEL } from '../larryData';

const COUNTER_SOURCES = [
  { value: 'uploaded', label: 'Upload a file' },
  { value: 'telemetry', label: 'A fabric’s telemetry' },
] as const;

interface LarryRunFormProps {
  rackSet: Built<RackSetParam>;
  fabrics: FabricChoice[];
  submitting: boolean;
  onSubmit: (job: { params: LarryParams; fabric: number | null }) => void;
}

const POLICIES: LarryPolicy[] = ['conservative', 'one_big_switch', 'proportional', 'static'];

/**
 * Per-ToR cumulative byte counters for the rack set above (a CSV or JSON upload, or a stored
 * fabric's uplink telemetry), and the controller's settings.
 */
export function LarryRunForm({ rackSet, fabrics, submitting, onSubmit }: LarryRunFormProps) {
  const [form, setForm] = useState<RunFormState>(INITIAL_RUN_FORM);
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof RunFormState>(key: K, value: RunFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const source = countersSource(form, rackSet);
  // A file that is not text is said at the file field as soon as it is picked, and not again in the box.
  const uploadProblem = source === 'uploaded' ? form.upload?.problem : undefined;
  const fabricRackSet = isFabricRackSet(rackSet.value) ? rackSet.value : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildRunParams(form, rackSet);
    setProblems(built.errors);
    if (built.value) onSubmit(built.value);
  };

  return (
    <form className="sim-form" aria-label="New uplink run" onSubmit={submit} noValidate>
      <ChoiceFieldset
        legend="Counters"
        name="counters-source"
        options={COUNTER_SOURCES}
        value={source}
        onChange={(value) => set('countersSource', value)}
        className="filter-group sim-trace"
      >
        {source === 'uploaded' ? (
          <FormField
            className="wide-label"
            label={
              <>
                Counters file: CSV with header time_s,rack,ingress_bytes,egress_bytes (one row per rack per time), or
                JSON samples {'{time_s, ingress_bytes: [...], egress_bytes: [...]}'}
              </>
            }
            problems={uploadProblem ? [uploadProblem] : undefined}
          >
            {(aria) => (
              <input
                type="file"
                accept=".csv,.json,text/csv,application/json"
                onChange={(event) => readFile(event.target.files?.[0], (upload) => set('upload', upload))}
                {...aria}
              />
            )}
          </FormField>
        ) : (
          <>
            {fabricRackSet ? (
              <p className="sim-field" data-testid="counters-fabric">
                Telemetry of{' '}
                {fabrics.find((fabric) => fabric.id === fabricRackSet.fabric)?.name ?? 'the rack set’s fabric'}, the
                rack set’s fabric
              </p>
            ) : (
              <FabricSelect
                fabrics={fabrics}
                emptyOption="Choose…"
                value={form.fabric}
                onChange={(fabric) => set('fabric', fabric)}
              />
            )}
            <label>
              From (UTC)
              <input
                type="datetime-local"
                value={form.from}
                aria-describedby="window-help"
                onChange={(event) => set('from', event.target.value)}
              />
            </label>
            <label>
              To (UTC)
              <input
                type="datetime-local"
                value={form.to}
                aria-describedby="window-help"
                onChange={(event) => set('to', event.target.value)}
              />
            </label>
            <span id="window-help" className="muted sim-field">
              empty: from the racks’ first counter sample to their last (at most 31 days)
            </span>
            <label>
              Bytes per packet
              <input
                inputMode="numeric"
                value={form.bytesPerPacket}
                onChange={(event) => set('bytesPerPacket', event.target.value)}
              />
            </label>
            <p className="muted sim-field">
              The rack set’s “racks” must name the fabric’s ToRs (a stored fabric’s rack set: that fabric). Telemetry
              counts packets on each ToR’s uplinks, polled every 15 minutes: the default period is 900 s, which sees
              sustained hot spots, not bursts.
            </p>
          </>
        )}
      </ChoiceFieldset>
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
          empty: each pair of samples is one period (500 ms in the Larry paper; telemetry: 900 s)
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
      <FormProblems problems={problems.filter((problem) => problem !== uploadProblem)} />
      <button type="submit" disabled={submitting}>
        {submitting ? 'Submitting…' : 'Run the controller'}
      </button>
    </form>
  );
}
