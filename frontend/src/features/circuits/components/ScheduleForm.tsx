import { type FormEvent, useState } from 'react';

import { FormField, RefusedProblems } from '@/components/FormField';
import { FormProblems } from '@/components/FormProblems';
import { fieldProblems } from '@/lib/fieldProblems';
import { type FormCheck, generalProblems, problemsOf } from '@/lib/formCheck';

import { ALGORITHMS, type Algorithm, type CircuitSwitch, type Demand, type ScheduleRequest } from '../api/types';
import {
  buildScheduleRequest,
  INITIAL_SCHEDULE_FORM,
  type ScheduleField,
  type ScheduleFormState,
} from '../scheduleForm';
import { algorithmLabel } from '../scheduleFormat';

/** The request's and its params' names the server refuses by (a switch or zone is the form's target). */
const SERVER_FIELDS = [
  'demand',
  'circuit_switch',
  'zone',
  'period_s',
  'dark_time_s',
  'min_demand_bytes',
  'burst_active',
  'burst_reset',
  'hysteresis',
  'seed',
  'time_budget_s',
  'edge_groups',
] as const;

interface ScheduleFormProps {
  demands: Demand[];
  switches: CircuitSwitch[];
  submitting: boolean;
  /** The server's refusal: its field problems are said at the fields, the rest in a box. */
  error: unknown;
  onSubmit: (request: ScheduleRequest) => void;
}

/**
 * Parameters of a circuit schedule (docs/circuits.md "Model"); blank fields take the server's defaults.
 * It starts on the newest demand and the first switch; the page remounts it when those change.
 */
export function ScheduleForm({ demands, switches, submitting, error, onSubmit }: ScheduleFormProps) {
  const [form, setForm] = useState<ScheduleFormState>(() => ({
    ...INITIAL_SCHEDULE_FORM,
    demand: demands[0] ? String(demands[0].id) : '',
    target: switches[0] ? `switch:${switches[0].id}` : '',
  }));
  // After a submit the check follows every edit: a fixed field stops saying its problem.
  const [submitted, setSubmitted] = useState(false);
  const checked: FormCheck<ScheduleField> = submitted ? buildScheduleRequest(form) : { errors: [], byField: {} };
  const server = fieldProblems(error, SERVER_FIELDS);
  const problem = (field: ScheduleField) =>
    problemsOf(
      checked.byField[field],
      field === 'target'
        ? [...(server.byField.circuit_switch ?? []), ...(server.byField.zone ?? [])]
        : server.byField[field],
    );
  const set = <K extends keyof ScheduleFormState>(key: K, value: ScheduleFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const zones = [...new Set(switches.map((cs) => cs.zone).filter((zone) => zone !== ''))].sort();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildScheduleRequest(form);
    setSubmitted(true);
    if (built.request) onSubmit(built.request);
  };

  return (
    <form aria-label="New schedule" onSubmit={submit} noValidate>
      <div className="circuits-form">
        <FormField label="Demand" problems={problem('demand')}>
          {(aria) => (
            <select value={form.demand} onChange={(event) => set('demand', event.target.value)} {...aria}>
              <option value="">Choose…</option>
              {demands.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.window_count} × {d.window_s} s)
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Circuit switch or zone" problems={problem('target')}>
          {(aria) => (
            <select value={form.target} onChange={(event) => set('target', event.target.value)} {...aria}>
              <option value="">Choose…</option>
              {switches.map((cs) => (
                <option key={cs.id} value={`switch:${cs.id}`}>
                  {cs.name} ({cs.attachments.length} racks)
                </option>
              ))}
              {zones.map((zone) => (
                <option key={zone} value={`zone:${zone}`}>
                  zone {zone} (every switch in it)
                </option>
              ))}
            </select>
          )}
        </FormField>
        <label>
          Algorithm
          <select value={form.algorithm} onChange={(event) => set('algorithm', event.target.value as Algorithm)}>
            {ALGORITHMS.map((algorithm) => (
              <option key={algorithm} value={algorithm}>
                {algorithmLabel(algorithm)}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Compare with</legend>
          {ALGORITHMS.filter((algorithm) => algorithm !== form.algorithm).map((algorithm) => (
            <label key={algorithm} className="check">
              <input
                type="checkbox"
                checked={form.compare.includes(algorithm)}
                onChange={(event) =>
                  set(
                    'compare',
                    event.target.checked ? [...form.compare, algorithm] : form.compare.filter((a) => a !== algorithm),
                  )
                }
              />
              {algorithmLabel(algorithm)}
            </label>
          ))}
        </fieldset>
      </div>
      <div className="circuits-form">
        <FormField label="Period (s)" problems={problem('period_s')}>
          {(aria) => (
            <input
              inputMode="decimal"
              placeholder="the demand's window"
              value={form.periodS}
              onChange={(event) => set('periodS', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Dark time (ms)" problems={problem('dark_time_s')}>
          {(aria) => (
            <input
              inputMode="decimal"
              placeholder="the switch's"
              value={form.darkTimeMs}
              onChange={(event) => set('darkTimeMs', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <label>
          Reconfiguration
          <select
            value={form.reconfig}
            onChange={(event) => set('reconfig', event.target.value as ScheduleFormState['reconfig'])}
          >
            <option value="per_port">per port (only changed ports go dark)</option>
            <option value="global">global (every port goes dark)</option>
          </select>
        </label>
        <label>
          Mode
          <select value={form.mode} onChange={(event) => set('mode', event.target.value as ScheduleFormState['mode'])}>
            <option value="">default (replay; drain for one window)</option>
            <option value="replay">replay (choose on window t, carry t+1)</option>
            <option value="drain">drain (until the demand is served)</option>
          </select>
        </label>
        <FormField label="Minimum demand (MB)" problems={problem('min_demand_bytes')}>
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.minDemandMb}
              onChange={(event) => set('minDemandMb', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Burst filter: active windows" problems={problem('burst_active')}>
          {(aria) => (
            <input
              inputMode="numeric"
              value={form.burstActive}
              onChange={(event) => set('burstActive', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Burst filter: idle windows to reset" problems={problem('burst_reset')}>
          {(aria) => (
            <input
              inputMode="numeric"
              value={form.burstReset}
              onChange={(event) => set('burstReset', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Hysteresis" problems={problem('hysteresis')}>
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.hysteresis}
              onChange={(event) => set('hysteresis', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Seed" problems={problem('seed')}>
          {(aria) => (
            <input
              inputMode="numeric"
              value={form.seed}
              onChange={(event) => set('seed', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Time budget (s)" problems={problem('time_budget_s')}>
          {(aria) => (
            <input
              inputMode="decimal"
              placeholder="none"
              value={form.timeBudgetS}
              onChange={(event) => set('timeBudgetS', event.target.value)}
              {...aria}
            />
          )}
        </FormField>
      </div>
      <FormField
        className="edge-groups"
        label="Edge groups (optional; one a line: NAME BONUS_BYTES SRC:DST …, scored on the schedule)"
        problems={problem('edge_groups')}
      >
        {(aria) => (
          <textarea
            rows={2}
            value={form.edgeGroups}
            onChange={(event) => set('edgeGroups', event.target.value)}
            placeholder="shuffle 500000000 p0-tor0:p2-tor0 p1-tor3:p3-tor5"
            {...aria}
          />
        )}
      </FormField>
      <FormProblems problems={generalProblems(checked)} />
      <RefusedProblems title="The server refused the schedule." problems={server.general} />
      <button type="submit" className="primary" disabled={submitting}>
        {submitting ? 'Starting…' : 'Run schedule'}
      </button>
    </form>
  );
}
