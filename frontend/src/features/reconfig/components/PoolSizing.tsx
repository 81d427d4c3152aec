import { type FormEvent, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { type FabricChoice, FabricSelect } from '@/components/FabricSelect';
import { FormProblems } from '@/components/FormProblems';
import { formatCount } from '@/lib/format';

import type { MonteCarloPoint, SizeAnswer } from '../api/types';
import { usePoolSize } from '../api/useCalculators';
import { formatProbability, formatSignificant } from '../format';
import { buildSizeRequest, INITIAL_SIZE_FORM, type SizeFormState } from '../forms';

/**
 * Backup-pool sizing: per-switch unavailability from MTBF/MTTR (given, or from a fabric's repair
 * tickets), the smallest n per group that meets the target, and a Monte Carlo cross-check.
 */
export function PoolSizing({ fabrics }: { fabrics: FabricChoice[] }) {
  const [form, setForm] = useState<SizeFormState>(INITIAL_SIZE_FORM);
  const [problems, setProblems] = useState<string[]>([]);
  const size = usePoolSize();
  const set = <K extends keyof SizeFormState>(key: K, value: SizeFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildSizeRequest(form);
    setProblems(built.errors);
    if (built.value) size.mutate(built.value);
  };

  return (
    <>
      <form className="sim-form" aria-label="Backup-pool sizing" onSubmit={submit} noValidate>
        <div className="sim-form-row">
          <label>
            k
            <input inputMode="numeric" value={form.k} onChange={(event) => set('k', event.target.value)} />
          </label>
          <label>
            Pods
            <input inputMode="numeric" value={form.pods} onChange={(event) => set('pods', event.target.value)} />
          </label>
          <label>
            Target P(some group has no free backup)
            <input inputMode="decimal" value={form.target} onChange={(event) => set('target', event.target.value)} />
          </label>
        </div>
        <div className="sim-form-row">
          <label>
            MTBF per switch (hours)
            <input
              inputMode="decimal"
              value={form.mtbfHours}
              onChange={(event) => set('mtbfHours', event.target.value)}
            />
          </label>
          <label>
            MTTR (hours)
            <input
              inputMode="decimal"
              value={form.mttrHours}
              onChange={(event) => set('mttrHours', event.target.value)}
            />
          </label>
          <FabricSelect
            fabrics={fabrics}
            label="Or from the repair tickets of"
            emptyOption="no fabric (use the values given)"
            value={form.fabric}
            onChange={(fabric) => set('fabric', fabric)}
          />
          {form.fabric !== '' ? (
            <label>
              Ticket window (days)
              <input
                inputMode="numeric"
                value={form.windowDays}
                onChange={(event) => set('windowDays', event.target.value)}
              />
            </label>
          ) : null}
        </div>
        <fieldset className="filter-group sim-trace">
          <legend>Monte Carlo check</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={form.monteCarlo}
              onChange={(event) => set('monteCarlo', event.target.checked)}
            />
            Simulate
          </label>
          {form.monteCarlo ? (
            <>
              <label>
                Seed
                <input inputMode="numeric" value={form.seed} onChange={(event) => set('seed', event.target.value)} />
              </label>
              <label>
                Horizon (hours)
                <input
                  inputMode="decimal"
                  value={form.horizonHours}
                  onChange={(event) => set('horizonHours', event.target.value)}
                />
              </label>
            </>
          ) : null}
        </fieldset>
        <FormProblems problems={problems} />
        <button type="submit" disabled={size.isPending}>
          {size.isPending ? 'Sizing…' : 'Size the pools'}
        </button>
      </form>
      <ErrorList error={size.error} title="The server refused the sizing." />
      {size.data ? <PoolSizeAnswer answer={size.data} /> : null}
    </>
  );
}

function PoolSizeAnswer({ answer }: { answer: SizeAnswer }) {
  const { sizing, reliability, monte_carlo: monteCarlo } = answer;
  const simulated = new Map(monteCarlo?.points.map((point) => [point.backups, point]) ?? []);
  return (
    <div className="size-answer" data-testid="pool-size">
      <p className="size-headline">
        <strong data-testid="pool-size-n">
          n = {sizing.backups} backup{sizing.backups === 1 ? '' : 's'} per group
        </strong>{' '}
        keeps P(some of the {sizing.groups} groups of {sizing.group_slots} has no free backup) at{' '}
        {formatProbability(sizing.curve.at(-1)?.p_any ?? 0)}, target {formatProbability(answer.inputs.target)}; about{' '}
        {formatSignificant(sizing.degraded_hours_per_year, 2)} hours a year with some group out of backups.
      </p>
      <p className="muted">
        Per-switch unavailability q = MTTR / (MTBF + MTTR) = {formatProbability(sizing.unavailability)} from{' '}
        {reliability.source === 'tickets' ? 'the fabric’s repair tickets' : 'the values given'}: MTBF{' '}
        {formatCount(Math.round(reliability.mtbf_hours))} h, MTTR {formatSignificant(reliability.mttr_hours)} h
        {answer.inputs.fabric !== null ? ` (${reliability.note})` : ''}.
      </p>
      <table className="data-table" data-testid="pool-size-curve">
        <caption className="visually-hidden">Risk per number of backups</caption>
        <thead>
          <tr>
            <th scope="col" className="numeric">
              Backups n
            </th>
            <th scope="col" className="numeric">
              P(a group runs out)
            </th>
            <th scope="col" className="numeric">
              P(any group runs out)
            </th>
            {monteCarlo ? (
              <th scope="col" className="numeric">
                Monte Carlo (± standard error)
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {sizing.curve.map((point) => {
            const sim = simulated.get(point.backups);
            return (
              <tr key={point.backups}>
                <th scope="row" className="numeric">
                  {point.backups}
                </th>
                <td className="numeric">{formatProbability(point.p_group)}</td>
                <td className="numeric">{formatProbability(point.p_any)}</td>
                {monteCarlo ? <td className="numeric">{sim ? monteCarloText(sim) : '—'}</td> : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {monteCarlo ? (
        <p className="muted">
          Monte Carlo: each of a group’s slots alternates exponential up and down times over{' '}
          {formatCount(monteCarlo.horizon_hours)} hours (seed {monteCarlo.seed}
          {monteCarlo.horizon_capped ? '; the server shortened the horizon to bound the run time' : ''}); it estimates
          P(a group runs out), with its standard error from batch means.
        </p>
      ) : null}
    </div>
  );
}

function monteCarloText(point: MonteCarloPoint): string {
  if (point.within_4_se === null) return 'never ran out in the horizon: too rare to check';
  const agreement = point.within_4_se ? 'agrees' : 'differs by more than 4 s.e.';
  return `${formatProbability(point.estimate)} ± ${formatProbability(point.standard_error)} (${agreement})`;
}
