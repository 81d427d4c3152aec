import { FormProblems } from '@/components/FormProblems';
import { type FormEvent, useState } from 'react';

import { ALGORITHMS, type Algorithm, type CircuitSwitch, type Demand, type ScheduleRequest } from '../api/types';
import { buildScheduleRequest, INITIAL_SCHEDULE_FORM, type ScheduleFormState } from '../scheduleForm';
import { algorithmLabel } from '../scheduleFormat';

interface ScheduleFormProps {
  demands: Demand[];
  switches: CircuitSwitch[];
  submitting: boolean;
  onSubmit: (request: ScheduleRequest) => void;
}

/**
 * Parameters of a circuit schedule (docs/circuits.md "Model"); blank fields take the server's defaults.
 * It starts on the newest demand and the first switch; the page remounts it when those change.
 */
export function ScheduleForm({ demands, switches, submitting, onSubmit }: ScheduleFormProps) {
  const [form, setForm] = useState<ScheduleFormState>(() => ({
    ...INITIAL_SCHEDULE_FORM,
    demand: demands[0] ? String(demands[0].id) : '',
    target: switches[0] ? `switch:${switches[0].id}` : '',
  }));
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof ScheduleFormState>(key: K, value: ScheduleFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const zones = [...new Set(switches.map((cs) => cs.zone).filter((zone) => zone !== ''))].sort();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildScheduleRequest(form);
    setProblems(built.errors);
    if (built.request) onSubmit(built.request);
  };

  return (
    <form aria-label="New schedule" onSubmit={submit} noValidate>
      <div className="circuits-form">
        <label>
          Demand
          <select value={form.demand} onChange={(event) => set('demand', event.target.value)}>
            <option value="">Choose…</option>
            {demands.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.window_count} × {d.window_s} s)
              </option>
            ))}
          </select>
        </label>
        <label>
          Circuit switch or zone
          <select value={form.target} onChange={(event) => set('target', event.target.value)}>
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
        </label>
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
        <label>
          Period (s)
          <input
            inputMode="decimal"
            value={form.periodS}
            onChange={(event) => set('periodS', event.target.value)}
            placeholder="the demand's window"
          />
        </label>
        <label>
          Dark time (ms)
          <input
            inputMode="decimal"
            value={form.darkTimeMs}
            onChange={(event) => set('darkTimeMs', event.target.value)}
            placeholder="the switch's"
          />
        </label>
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
        <label>
          Minimum demand (MB)
          <input
            inputMode="decimal"
            value={form.minDemandMb}
            onChange={(event) => set('minDemandMb', event.target.value)}
          />
        </label>
        <label>
          Burst filter: active windows
          <input
            inputMode="numeric"
            value={form.burstActive}
            onChange={(event) => set('burstActive', event.target.value)}
          />
        </label>
        <label>
          Burst filter: idle windows to reset
          <input
            inputMode="numeric"
            value={form.burstReset}
            onChange={(event) => set('burstReset', event.target.value)}
          />
        </label>
        <label>
          Hysteresis
          <input
            inputMode="decimal"
            value={form.hysteresis}
            onChange={(event) => set('hysteresis', event.target.value)}
          />
        </label>
        <label>
          Seed
          <input inputMode="numeric" value={form.seed} onChange={(event) => set('seed', event.target.value)} />
        </label>
        <label>
          Time budget (s)
          <input
            inputMode="decimal"
            value={form.timeBudgetS}
            onChange={(event) => set('timeBudgetS', event.target.value)}
            placeholder="none"
          />
        </label>
      </div>
      <label className="edge-groups">
        Edge groups (optional; one a line: NAME BONUS_BYTES SRC:DST …, scored on the schedule)
        <textarea
          rows={2}
          value={form.edgeGroups}
          onChange={(event) => set('edgeGroups', event.target.value)}
          placeholder="shuffle 500000000 p0-tor0:p2-tor0 p1-tor3:p3-tor5"
        />
      </label>
      <FormProblems problems={problems} />
      <button type="submit" className="primary" disabled={submitting}>
        {submitting ? 'Starting…' : 'Run schedule'}
      </button>
    </form>
  );
}
