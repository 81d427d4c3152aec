import { ProgressBar } from '@/components/ProgressBar';
import type { Job } from '@/features/jobs/api/types';
import { displayedProgress, isActive, progressTone } from '@/features/jobs/jobState';

/** A job's state, message and progress bar; the page follows it until it ends. */
export function JobStatus({ job, label, testId }: { job: Omit<Job, 'result'>; label: string; testId: string }) {
  return (
    <div className="panel" data-testid={`${testId}-status`} data-state={job.state}>
      <p>
        <span className={`badge badge-${job.state}`}>{job.state}</span> {job.message}
      </p>
      <ProgressBar
        value={displayedProgress(job)}
        tone={progressTone(job.state)}
        label={`${label} progress`}
        testId={`${testId}-progress`}
      />
      {job.error ? <pre className="job-error">{job.error}</pre> : null}
      {isActive(job) ? <p className="muted">The page follows the job; the result appears when it ends.</p> : null}
    </div>
  );
}
