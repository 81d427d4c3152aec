import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { displayedProgress, isActive, progressTone } from '@/features/jobs/jobState';

import type { PlanJob } from '../api/types';
import { useRailJob } from '../api/useRailJob';
import { PlanResultView } from '../components/PlanResultView';
import { planLabel } from '../planData';

import '../planning.css';

export function PlanDetailPage() {
  const jobId = Number(useParams().jobId);
  const job = useRailJob<PlanJob>(jobId);
  const result = job.data?.state === 'succeeded' ? job.data.result : null;

  return (
    <section aria-labelledby="plan-heading">
      <p className="breadcrumb">
        <Link to="/planning">Planning</Link> /
      </p>
      <h1 id="plan-heading">
        Plan #{jobId}
        {result?.inputs.name ? `: ${planLabel(jobId, result.inputs)}` : ''}
      </h1>
      {job.isPending ? <Loading label="Loading the plan…" /> : null}
      <ErrorList error={job.error} title="Could not load the plan." />
      {job.data ? (
        <>
          <div className="panel" data-testid="plan-status" data-state={job.data.state}>
            <p>
              <span className={`badge badge-${job.data.state}`}>{job.data.state}</span> {job.data.message}
            </p>
            <ProgressBar
              value={displayedProgress(job.data)}
              tone={progressTone(job.data.state)}
              label="Plan progress"
              testId="plan-progress"
            />
            {job.data.error ? <pre className="job-error">{job.data.error}</pre> : null}
            {isActive(job.data) ? (
              <p className="muted">The page follows the job; results appear when it ends.</p>
            ) : null}
          </div>
          {result ? <PlanResultView jobId={jobId} result={result} /> : null}
        </>
      ) : null}
    </section>
  );
}
