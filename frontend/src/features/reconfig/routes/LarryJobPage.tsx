import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { JobStatus } from '@/features/jobs';
import { formatCount, formatGbit } from '@/lib/format';
import { useElementWidth } from '@/lib/useElementWidth';

import type { LarryResult } from '../api/types';
import { useReconfigJob } from '../api/useReconfigJob';
import { ExcludedCables } from '../components/FabricRackSet';
import { CableMatrix } from '../components/RackSetEditor';
import { UplinkChart } from '../components/UplinkChart';
import { formatPercent, formatSignificant } from '../format';
import {
  changeIndices,
  changesAt,
  describeMove,
  metricsRows,
  pointAt,
  POLICY_LABEL,
  rackName,
  uplinkDeltas,
} from '../larryData';
import { buildUplinkChart } from '../uplinkChart';
import '../reconfig.css';

export function LarryJobPage() {
  const jobId = Number(useParams().jobId);
  const job = useReconfigJob<LarryResult>(jobId, 'larry.run');

  return (
    <section aria-labelledby="run-heading">
      <p className="breadcrumb">
        <Link to="/larry">Uplinks</Link> /
      </p>
      <h1 id="run-heading">Uplink run #{jobId}</h1>
      {job.isPending ? <Loading label="Loading the run…" /> : null}
      <ErrorList error={job.error} title="Could not load the run." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Run" testId="run" />
          {job.data.state === 'succeeded' && job.data.result ? (
            <RunView jobId={jobId} result={job.data.result} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function RunView({ jobId, result }: { jobId: number; result: LarryResult }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const moved = useMemo(() => changeIndices(result), [result]);
  const [selected, setSelected] = useState(() => moved[0] ?? 0);
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const chart = useMemo(() => buildUplinkChart(result, width, selected, zoom), [result, width, selected, zoom]);
  const points = result.series.time_s.length;
  const base = `/api/jobs/${jobId}/result/`;
  const { inputs } = result;
  const next = moved.find((index) => index > selected);
  const previous = [...moved].reverse().find((index) => index < selected);

  return (
    <div ref={ref} className="run-result">
      <dl className="facts" data-testid="run-facts">
        <div>
          <dt>Rack set</dt>
          <dd>
            {result.racks.length} racks, S = {inputs.rack_set.static_uplinks} static uplinks each,{' '}
            {inputs.rack_set.cs_uplinks.length} circuit switches with {result.total_circuits} uplinks in all, links of{' '}
            {inputs.rack_set.capacity_gbps} Gbit/s
          </dd>
        </div>
        <div>
          <dt>Counters</dt>
          <dd>
            {inputs.counters.name ?? inputs.counters.source}: {inputs.counters.used_samples} of{' '}
            {inputs.counters.samples} samples used
            {inputs.period_s ? `, one period every ${inputs.period_s} s` : ', each pair of samples one period'}; θ ={' '}
            {inputs.threshold}
          </dd>
        </div>
        <div>
          <dt>Policy</dt>
          <dd>
            {POLICY_LABEL[result.policy]}; initial uplinks {result.initial_uplinks.join(', ')}
          </dd>
        </div>
      </dl>
      <div className="sim-downloads" aria-label="Downloads">
        <a href={`${base}?format=json`} download>
          Run (JSON)
        </a>
        <a href={`${base}?format=csv&table=uplinks`} download>
          Uplinks (CSV)
        </a>
        <a href={`${base}?format=csv&table=changes`} download>
          Moved circuits (CSV)
        </a>
      </div>

      <h2>Against the baselines</h2>
      <table className="data-table" data-testid="run-metrics">
        <caption>
          Over the same counters; “fraction changed” is the share of all circuit-switch uplinks moved per
          reconfiguration
        </caption>
        <thead>
          <tr>
            <th scope="col">Policy</th>
            <th scope="col" className="numeric">
              Reconfigurations
            </th>
            <th scope="col" className="numeric">
              Per hour
            </th>
            <th scope="col" className="numeric">
              Mean fraction changed
            </th>
            <th scope="col" className="numeric">
              Max fraction changed
            </th>
            <th scope="col" className="numeric">
              Overload
            </th>
          </tr>
        </thead>
        <tbody>
          {metricsRows(result).map((row) => (
            <tr key={row.policy} data-testid="metrics-row" data-policy={row.policy}>
              <th scope="row">
                {row.label}
                {row.run ? ' (this run)' : ''}
              </th>
              <td className="numeric">{formatCount(row.metrics.reconfigurations)}</td>
              <td className="numeric">{formatSignificant(row.metrics.reconfigurations_per_hour)}</td>
              <td className="numeric">{formatPercent(row.metrics.mean_fraction_changed)}</td>
              <td className="numeric">{formatPercent(row.metrics.max_fraction_changed)}</td>
              <td className="numeric">{formatGbit(row.metrics.overload_gbit)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Uplinks per rack over time</h2>
      {result.series.binned ? (
        <p className="muted">
          The run has more steps than the chart shows: each bar is one bin, with the uplinks at its last step and the
          bin’s highest demand. The downloads hold the same points.
        </p>
      ) : null}
      {points > 0 ? (
        <div className="step-control">
          <label htmlFor="step-slider">Step</label>
          <input
            id="step-slider"
            type="range"
            min={0}
            max={points - 1}
            value={selected}
            onChange={(event) => setSelected(Number(event.target.value))}
            aria-valuetext={`step ${selected} at ${result.series.time_s[selected]} s`}
          />
          <button
            type="button"
            disabled={previous === undefined}
            onClick={() => previous !== undefined && setSelected(previous)}
          >
            ← Previous move
          </button>
          <button type="button" disabled={next === undefined} onClick={() => next !== undefined && setSelected(next)}>
            Next move →
          </button>
        </div>
      ) : null}
      <p className="muted">
        Click a step to select it; drag across steps to zoom to them.{' '}
        {zoom ? (
          <button type="button" onClick={() => setZoom(null)} data-testid="reset-zoom">
            Show the whole run
          </button>
        ) : null}
      </p>
      <UplinkChart
        chart={chart}
        summary={`Uplinks per rack over time (${result.racks.length} racks, ${points} steps${zoom ? `, zoomed to steps ${zoom[0]}–${zoom[1]}` : ''})`}
        onSelect={setSelected}
        onZoom={(first, last) => setZoom(first === last ? null : [first, last])}
      />
      <StepDetail result={result} index={selected} />

      <h2>Every reconfiguration</h2>
      {result.changes.length === 0 ? (
        <p data-testid="no-changes">No circuit moved during this run.</p>
      ) : (
        <table className="data-table" data-testid="changes-table">
          <thead>
            <tr>
              <th scope="col">Time (s)</th>
              <th scope="col">Uplinks after</th>
              <th scope="col">Circuits moved</th>
            </tr>
          </thead>
          <tbody>
            {result.changes.map((change) => (
              <tr key={change.step}>
                <th scope="row">
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setSelected(pointAt(result.series, change.time_s))}
                  >
                    {change.time_s}
                  </button>
                </th>
                <td>{change.uplinks.join(', ')}</td>
                <td>{change.diff.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result.changes_truncated > 0 ? (
        <p className="muted">
          {result.changes_truncated} later reconfigurations are left out; the CSV download holds them all.
        </p>
      ) : null}
      <h2>Cabling</h2>
      <CableMatrix rackSet={inputs.rack_set} />
      {inputs.rack_set_source ? (
        <>
          <p className="muted" data-testid="built-from">
            Built from fabric {inputs.rack_set_source.fabric.name} when the run was submitted.
          </p>
          <ExcludedCables cables={inputs.rack_set_source.excluded_cables} />
        </>
      ) : null}
    </div>
  );
}

function StepDetail({ result, index }: { result: LarryResult; index: number }) {
  const changes = changesAt(result, index);
  const t = result.series.time_s[index];
  const uplinks = result.series.uplinks[index] ?? [];
  const demand = result.series.demand_gbps[index] ?? [];
  const deltas = uplinkDeltas(
    changes.flatMap((change) => change.diff),
    result.racks.length,
  );
  return (
    <section className="panel" data-testid="step-detail" aria-label="Selected step">
      <h3>
        Step {index} at {t} s{result.series.binned ? ' (bin start)' : ''}
      </h3>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Rack</th>
            <th scope="col" className="numeric">
              Demand (Gbit/s)
            </th>
            <th scope="col" className="numeric">
              Uplinks
            </th>
            <th scope="col" className="numeric">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {uplinks.map((count, rack) => {
            const delta = deltas[rack]!;
            return (
              <tr key={rack}>
                <th scope="row">{rackName(result.racks, rack)}</th>
                <td className="numeric">{demand[rack]?.toFixed(1)}</td>
                <td className="numeric">{count}</td>
                <td className="numeric">{delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h4>Circuits that moved</h4>
      {changes.length === 0 ? (
        <p className="muted" data-testid="no-moves">
          None at this step.
        </p>
      ) : (
        <ul className="moves-list" data-testid="moved-circuits">
          {changes.flatMap((change) =>
            change.diff.map((move) => (
              <li key={`${change.step}-${move.cs}-${move.uplink}`} data-testid="moved-circuit">
                {result.series.binned ? `${change.time_s} s: ` : ''}
                {describeMove(move, result.racks)}
              </li>
            )),
          )}
        </ul>
      )}
    </section>
  );
}
