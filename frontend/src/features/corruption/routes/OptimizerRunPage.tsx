import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { useFabric } from '@/features/fabrics';
import { JobStatus } from '@/features/jobs';
import { formatLossRate } from '@/lib/format/number';
import { formatCount, formatTime } from '@/lib/format';

import type { OptimizerJob, OptimizerRow, OptimizerRunResult } from '../api/types';
import { useDecisions } from '../api/useDecisions';
import { useOptimizerJob } from '../api/useOptimizerJob';
import { formatFraction } from '../decisionLog';
import { describeOptimality, formatShare, runReasons } from '../optimizerRun';
import '../corruption.css';

/** /optimizer/:jobId: what one run of CorrOpt's optimizer did (Jobs and Decisions link here). */
export function OptimizerRunPage() {
  const { jobId: rawId } = useParams();
  const jobId = Number(rawId);
  if (!Number.isInteger(jobId) || jobId <= 0) {
    return (
      <section>
        <h1>Optimizer run not found</h1>
        <p>
          “{rawId}” is not a job id. <Link to="/jobs">Back to jobs</Link>
        </p>
      </section>
    );
  }
  return <OptimizerRun jobId={jobId} />;
}

function OptimizerRun({ jobId }: { jobId: number }) {
  const job = useOptimizerJob(jobId);
  const fabricId = job.data?.fabric ?? null;
  const fabric = useFabric(fabricId ?? 0, { enabled: fabricId !== null });
  const fabricName = fabric.data?.name ?? (fabricId === null ? null : `fabric ${fabricId}`);

  return (
    <section aria-labelledby="run-heading" className="optimizer-run">
      <p className="breadcrumb">
        <Link to="/jobs">Jobs</Link>
        {fabricId !== null ? (
          <>
            {' / '}
            <Link to={`/fabric-health?fabric=${fabricId}`}>Health of {fabricName}</Link>
            {' / '}
            <Link to={`/decisions?fabric=${fabricId}&kind=optimizer`}>Optimizer decisions</Link>
          </>
        ) : null}
      </p>
      <h1 id="run-heading">
        Optimizer run #{jobId}
        {fabricName ? ` on ${fabricName}` : ''}
      </h1>
      {job.isPending ? <Loading label="Loading the run…" /> : null}
      <ErrorList error={job.error} title="Could not load the run." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Optimizer run" testId="optimizer" appears="what it did appears" />
          <Reasons job={job.data} />
          {job.data.state === 'succeeded' && job.data.result ? (
            job.data.result.resumed ? (
              <>
                <p className="notice">
                  The worker of this run was lost after it had committed; the job was answered from its decisions, so
                  its penalties and optimality were not recorded.
                </p>
                <RowsTables
                  fabricId={job.data.result.fabric}
                  disabled={job.data.result.disabled}
                  kept={job.data.result.kept}
                  stillKept={null}
                />
              </>
            ) : (
              <RunResult result={job.data.result} />
            )
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function Reasons({ job }: { job: OptimizerJob }) {
  const reasons = runReasons(job);
  return (
    <section className="panel" aria-labelledby="reasons-heading">
      <h2 id="reasons-heading">Why it ran</h2>
      {reasons.length === 0 ? (
        <p className="muted">No reason was recorded.</p>
      ) : (
        <ul data-testid="optimizer-reasons">
          {reasons.map((reason, index) => (
            <li key={index}>{reason}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RunResult({ result }: { result: OptimizerRunResult }) {
  return (
    <>
      <section className="panel" aria-labelledby="outcome-heading">
        <h2 id="outcome-heading">Outcome</h2>
        <dl className="facts" data-testid="optimizer-facts">
          <div>
            <dt>Corrupting links considered</dt>
            <dd data-testid="optimizer-candidates">{result.candidates}</dd>
          </div>
          <div>
            <dt>Disabled</dt>
            <dd data-testid="optimizer-disabled-count">{result.disabled.length}</dd>
          </div>
          <div>
            <dt>Kept in service</dt>
            <dd>{result.kept.length + result.still_kept}</dd>
          </div>
          <div>
            <dt>Penalty before (loss rate)</dt>
            <dd data-testid="optimizer-penalty-before">{formatLossRate(result.penalty_before)}</dd>
          </div>
          <div>
            <dt>Penalty remaining after</dt>
            <dd data-testid="optimizer-penalty-after">{formatLossRate(result.remaining_penalty)}</dd>
          </div>
          <div>
            <dt>Time budget</dt>
            <dd>{result.time_budget_s === null ? 'none (ran to optimality)' : `${result.time_budget_s} s`}</dd>
          </div>
          <div>
            <dt>Engine time</dt>
            <dd>{formatCount(Math.round(result.engine_ms))} ms</dd>
          </div>
          <div>
            <dt>Worst ToR after</dt>
            <dd>{result.worst_tor ? `${result.worst_tor.name} at ${formatShare(result.worst_tor.fraction)}` : '—'}</dd>
          </div>
        </dl>
        <p
          className={result.proven_optimal ? 'optimality optimality-proven' : 'optimality'}
          data-testid="optimizer-optimality"
        >
          {describeOptimality(result)}
        </p>
        {result.tors_below_threshold.length > 0 ? (
          <p data-testid="optimizer-tors-below">
            ToRs under their constraint after the run (they lose nothing more): {result.tors_below_threshold.join(', ')}
            .
          </p>
        ) : (
          <p className="muted">No ToR is under its constraint after the run.</p>
        )}
      </section>
      <RowsTables
        fabricId={result.fabric}
        disabled={result.disabled}
        kept={result.kept}
        stillKept={result.still_kept}
      />
    </>
  );
}

function RowsTables({
  fabricId,
  disabled,
  kept,
  stillKept,
}: {
  fabricId: number;
  disabled: OptimizerRow[];
  kept: OptimizerRow[];
  stillKept: number | null;
}) {
  return (
    <>
      <section className="panel" aria-labelledby="run-disabled-heading">
        <h2 id="run-disabled-heading">Links disabled</h2>
        {disabled.length === 0 ? (
          <p data-testid="optimizer-disabled-empty">The run disabled no link.</p>
        ) : (
          <RowsTable rows={disabled} caption="Links this run disabled, largest penalty first" kind="disabled" />
        )}
      </section>
      <section className="panel" aria-labelledby="run-kept-heading">
        <h2 id="run-kept-heading">Links kept for capacity</h2>
        {kept.length === 0 ? (
          <p data-testid="optimizer-kept-empty">No new decision kept a link in service.</p>
        ) : (
          <RowsTable
            rows={kept}
            caption="Corrupting links kept in service, with the ToR that blocks each"
            kind="kept"
          />
        )}
        {stillKept ? (
          <>
            <p data-testid="optimizer-still-kept">
              {stillKept === 1 ? '1 more link stays' : `${stillKept} more links stay`} kept for the same ToR as before
              (no new decision). Kept for capacity now:
            </p>
            <KeptNow fabricId={fabricId} except={new Set(kept.map((row) => row.link))} />
          </>
        ) : null}
      </section>
    </>
  );
}

function RowsTable({ rows, caption, kind }: { rows: OptimizerRow[]; caption: string; kind: 'disabled' | 'kept' }) {
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid={`optimizer-${kind}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col" className="numeric">
              Penalty (loss rate)
            </th>
            {kind === 'kept' ? <th scope="col">Blocking ToR</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.decision} data-testid="optimizer-row" data-link-id={row.link}>
              <td>
                <Link to={`/links/${row.link}`}>{row.link_name}</Link>
              </td>
              <td className="numeric">{formatLossRate(row.penalty)}</td>
              {kind === 'kept' ? <td>{row.blocking_tor_name ?? '—'}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The fabric's links kept for capacity now, from earlier decisions (the run left them as they were). */
function KeptNow({ fabricId, except }: { fabricId: number; except: Set<number> }) {
  const decisions = useDecisions({ fabric: fabricId, kept_for_capacity: true }, { limit: 500, offset: 0 });
  const rows = (decisions.data?.results ?? []).filter((decision) => !except.has(decision.link));
  return (
    <>
      {decisions.isPending ? <Loading label="Loading the links kept for capacity…" /> : null}
      <ErrorList error={decisions.error} title="Could not load the decisions." />
      {rows.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table" data-testid="optimizer-kept-now">
            <caption className="visually-hidden">
              Corrupting links kept for capacity now, with the ToR that blocks each
            </caption>
            <thead>
              <tr>
                <th scope="col">Link</th>
                <th scope="col" className="numeric">
                  Penalty (loss rate)
                </th>
                <th scope="col">Blocking ToR</th>
                <th scope="col">Decided</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((decision) => (
                <tr key={decision.id} data-testid="optimizer-kept-now-row" data-link-id={decision.link}>
                  <td>
                    <Link to={`/links/${decision.link}`}>{decision.link_name}</Link>
                  </td>
                  <td className="numeric">{formatLossRate(decision.penalty)}</td>
                  <td>
                    {decision.blocking_tor_name ?? '—'}
                    {typeof decision.blocking_tor_constraint === 'number' ? (
                      <span className="muted">
                        {' '}
                        (constraint now {formatFraction(decision.blocking_tor_constraint)})
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {decision.job !== null ? (
                      <Link to={`/optimizer/${decision.job}`}>optimizer run #{decision.job}</Link>
                    ) : (
                      'fast checker'
                    )}
                    <span className="muted"> {formatTime(decision.created)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
