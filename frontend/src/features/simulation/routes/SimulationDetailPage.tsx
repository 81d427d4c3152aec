import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { JobStatus } from '@/features/jobs';
import { useElementWidth } from '@/lib/useElementWidth';

import type { SimulationResult, SimulationRun } from '../api/types';
import { useSimulationJob } from '../api/useSimulationJob';
import { PolicyTimeChart } from '../components/PolicyTimeChart';
import { RatioChart } from '../components/RatioChart';
import { RepairAccuracyTable } from '../components/RepairAccuracyTable';
import { SimulationSummaryTable } from '../components/SimulationSummaryTable';
import { buildPenaltyChart, buildRatioChart, buildWorstFractionChart } from '../components/simulationCharts';
import { downloadLinks, findRun, formatFraction, formatNumber, timeUnit } from '../simulationData';

const CHART_HEIGHT = 300;

export function SimulationDetailPage() {
  const jobId = Number(useParams().jobId);
  const job = useSimulationJob(jobId);

  return (
    <section aria-labelledby="simulation-heading">
      <p className="breadcrumb">
        <Link to="/simulations">Simulations</Link> /
      </p>
      <h1 id="simulation-heading">Simulation #{jobId}</h1>
      {job.isPending ? <Loading label="Loading the simulation…" /> : null}
      <ErrorList error={job.error} title="Could not load the simulation." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Simulation" testId="simulation" appears="charts appear" />
          {job.data.state === 'succeeded' && job.data.result ? (
            <SimulationResultView jobId={jobId} result={job.data.result} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function SimulationResultView({ jobId, result }: { jobId: number; result: SimulationResult }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const [constraint, setConstraint] = useState(result.settings.constraints.at(-1) ?? 0);
  const [accuracy, setAccuracy] = useState(result.settings.accuracies.at(-1) ?? 0);
  const run = findRun(result, constraint, accuracy) ?? result.runs[0];
  const ratio = useMemo(() => buildRatioChart(result, { width, height: CHART_HEIGHT }), [result, width]);
  const trace = result.trace;

  return (
    <div ref={ref} className="sim-result">
      <dl className="facts" data-testid="simulation-facts">
        <div>
          <dt>Fabric</dt>
          <dd>
            <Link to={`/fabrics/${result.fabric.id}`}>{result.fabric.name}</Link> ({result.settings.links} links;{' '}
            {result.settings.initially_disabled} disabled and {result.settings.initially_down} down at the start)
          </dd>
        </div>
        <div>
          <dt>Trace</dt>
          <dd>
            {trace.source === 'uploaded'
              ? `uploaded ${trace.name}`
              : `generated: ${trace.hours} h, mean ${trace.mttf_hours} h between onsets per link, seed ${trace.seed}`}
            ; {trace.onsets} onsets on {trace.links} links over {formatNumber(trace.horizon_s / 3600)} h
          </dd>
        </div>
        <div>
          <dt>Repairs</dt>
          <dd>
            after {result.settings.repair_delay_s / 3600} h; a failed first attempt costs another round (penalty{' '}
            {result.settings.penalty_function})
          </dd>
        </div>
      </dl>
      <div className="sim-downloads" aria-label="Downloads">
        {downloadLinks(jobId).map((link) => (
          <a key={link.href} href={link.href} download>
            {link.label}
          </a>
        ))}
      </div>

      <h2>Penalty ratio by constraint</h2>
      <RatioChart chart={ratio} />
      {result.settings.policies.includes('corropt') && result.settings.accuracies.length > 1 ? (
        <RepairAccuracyTable result={result} />
      ) : null}

      <h2>Over time</h2>
      <form className="filters" aria-label="Run shown over time" onSubmit={(event) => event.preventDefault()}>
        <label>
          Constraint
          <select value={constraint} onChange={(event) => setConstraint(Number(event.target.value))}>
            {result.settings.constraints.map((value) => (
              <option key={value} value={value}>
                {formatFraction(value)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Repair accuracy
          <select value={accuracy} onChange={(event) => setAccuracy(Number(event.target.value))}>
            {result.settings.accuracies.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
      </form>
      {run ? <RunCharts result={result} run={run} width={width} /> : <p>This result holds no runs.</p>}
      <h2>Every run</h2>
      <SimulationSummaryTable result={result} />
    </div>
  );
}

function RunCharts({ result, run, width }: { result: SimulationResult; run: SimulationRun; width: number }) {
  const penalty = useMemo(() => buildPenaltyChart(result, run, { width, height: CHART_HEIGHT }), [result, run, width]);
  const worst = useMemo(
    () => buildWorstFractionChart(result, run, { width, height: CHART_HEIGHT }),
    [result, run, width],
  );
  const binned = run.policies.some((outcome) => outcome.series.binned);
  const where = `at constraint ${formatFraction(run.constraint)}, repair accuracy ${run.accuracy}`;
  return (
    <>
      {binned ? (
        <p className="muted">
          Long series are shown in {result.settings.max_points} bins: the penalty as each bin’s mean, the worst ToR as
          its minimum. The downloads hold the same points.
        </p>
      ) : null}
      <h3>Penalty per second</h3>
      <PolicyTimeChart
        chart={penalty}
        yTitle={`Penalty (Σ I(f), ${result.settings.penalty_function}; symlog)`}
        summary={`Penalty per second over time (${timeUnit(result.trace.horizon_s).label}) per policy ${where}`}
        testId="penalty-chart"
      />
      <h3>Worst ToR capacity</h3>
      <PolicyTimeChart
        chart={worst}
        yTitle="Worst ToR's up-paths (%)"
        summary={`Worst ToR capacity fraction over time (${timeUnit(result.trace.horizon_s).label}) per policy ${where}`}
        testId="worst-chart"
      />
    </>
  );
}
