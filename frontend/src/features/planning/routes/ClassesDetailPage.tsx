import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { displayedProgress, isActive, progressTone } from '@/features/jobs/jobState';

import type { ClassesJob } from '../api/types';
import { useRailJob } from '../api/useRailJob';
import { ClassesResultView } from '../components/ClassesResultView';

import '../planning.css';

export function ClassesDetailPage() {
  const jobId = Number(useParams().jobId);
  const job = useRailJob<ClassesJob>(jobId);

  return (
    <section aria-labelledby="classes-job-heading">
      <p className="breadcrumb">
        <Link to="/planning">Planning</Link> / <Link to="/planning/classes">Reliability classes</Link> /
      </p>
      <h1 id="classes-job-heading">Reliability classes #{jobId}</h1>
      {job.isPending ? <Loading label="Loading the classes…" /> : null}
      <ErrorList error={job.error} title="Could not load the classes." />
      {job.data ? (
        <>
          <div className="panel" data-testid="classes-status" data-state={job.data.state}>
            <p>
              <span className={`badge badge-${job.data.state}`}>{job.data.state}</span> {job.data.message}
            </p>
            <ProgressBar
              value={displayedProgress(job.data)}
              tone={progressTone(job.data.state)}
              label="Classes progress"
              testId="classes-progress"
            />
            {job.data.error ? <pre className="job-error">{job.data.error}</pre> : null}
            {isActive(job.data) ? (
              <p className="muted">The page follows the job; results appear when it ends.</p>
            ) : null}
          </div>
          {job.data.state === 'succeeded' && job.data.result ? (
            <ClassesResultView jobId={jobId} result={job.data.result} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
