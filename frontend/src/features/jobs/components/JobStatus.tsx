import { ProgressBar } from '@/components/ProgressBar';

import type { Job } from '../api/types';
import { displayedProgress, isActive, progressTone } from '../jobState';
import { JobLog } from './JobLog';

interface JobStatusProps {
  job: Omit<Job, 'result'>;
  /** What the job is, capitalised: "Plan" gives the bar the name "Plan progress". */
  label: string;
  /** Prefix of the test ids `<testId>-status` and `<testId>-progress`. */
  testId: string;
  /** What appears when the job ends, for the line shown while it runs. */
  appears?: string;
}

/** A job page's status panel: state, message, progress bar and error; the page follows the job until it ends. */
export function JobStatus({ job, label, testId, appears = 'the result appears' }: JobStatusProps) {
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
      {isActive(job) ? <p className="muted">The page follows the job; {appears} when it ends.</p> : null}
      {/* Open while the job runs and when it failed or was cancelled (its last lines say why); closed once it
          succeeded, whose page shows the result: the same whether the page watched the job end or opened later. */}
      <JobLog jobId={job.id} active={isActive(job)} defaultOpen={job.state !== 'succeeded'} testId={testId} />
    </div>
  );
}
