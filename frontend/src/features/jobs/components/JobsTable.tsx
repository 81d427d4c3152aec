import { Fragment, useState } from 'react';
import { Link } from 'react-router';

import { ProgressBar } from '@/components/ProgressBar';
import { Time } from '@/components/Time';

import type { JobRow } from '../api/types';
import { jobPagePath } from '../jobPages';
import { displayedProgress, isActive, progressTone } from '../jobState';
import { JobLog } from './JobLog';

import '../jobs.css';

interface JobsTableProps {
  jobs: JobRow[];
  fabricNames: Map<number, string>;
  /** Whether this user may cancel this job (the API's rule, see canCancelJob). */
  canCancel: (job: JobRow) => boolean;
  cancellingJobId: number | null;
  onCancel: (jobId: number) => void;
}

function jobLink(job: JobRow) {
  const path = jobPagePath(job);
  return path === null ? `#${job.id}` : <Link to={path}>#{job.id}</Link>;
}

const COLUMNS = 11;

export function JobsTable({ jobs, fabricNames, canCancel, cancellingJobId, onCancel }: JobsTableProps) {
  // Every job's log opens here, below its row: imports and capacity reports have no page of their own.
  const [shownLogs, setShownLogs] = useState<ReadonlySet<number>>(new Set());
  const toggleLog = (jobId: number) =>
    setShownLogs((shown) => {
      const next = new Set(shown);
      if (!next.delete(jobId)) next.add(jobId);
      return next;
    });
  // Scrolls on its own on a phone instead of widening the page, as the links table does.
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="jobs-table">
        <caption className="visually-hidden">Jobs</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">
              <span className="visually-hidden">Log</span>
            </th>
            <th scope="col">Kind</th>
            <th scope="col">Fabric</th>
            <th scope="col">State</th>
            <th scope="col" className="progress-column">
              Progress
            </th>
            <th scope="col">Message</th>
            <th scope="col">Error</th>
            <th scope="col">Created</th>
            <th scope="col">Finished</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const logShown = shownLogs.has(job.id);
            const logId = `job-${job.id}-log-row`;
            return (
              <Fragment key={job.id}>
                <tr data-testid="job-row" data-job-id={job.id} data-state={job.state}>
                  <th scope="row">{jobLink(job)}</th>
                  <td>
                    <button
                      type="button"
                      className="job-log-toggle"
                      aria-expanded={logShown}
                      aria-controls={logShown ? logId : undefined}
                      aria-label={`Log of job ${job.id}`}
                      onClick={() => toggleLog(job.id)}
                    >
                      Log
                    </button>
                  </td>
                  <td>
                    <code>{job.kind}</code>
                  </td>
                  <td>{job.fabric === null ? '—' : (fabricNames.get(job.fabric) ?? job.fabric)}</td>
                  <td>
                    <span className={`badge badge-${job.state}`} data-testid="job-state">
                      {job.state}
                    </span>
                  </td>
                  <td>
                    <ProgressBar
                      value={displayedProgress(job)}
                      tone={progressTone(job.state)}
                      label={`Job ${job.id} progress`}
                      testId="job-progress"
                    />
                  </td>
                  <td>{job.message || '—'}</td>
                  <td className="job-error">{job.error || '—'}</td>
                  <td>
                    <Time value={job.created} />
                    {job.created_by ? <div className="muted">by {job.created_by}</div> : null}
                  </td>
                  <td>
                    <Time value={job.finished} />
                  </td>
                  <td>
                    {isActive(job) && canCancel(job) ? (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => onCancel(job.id)}
                        disabled={cancellingJobId === job.id}
                        aria-label={`Cancel job ${job.id}`}
                      >
                        {cancellingJobId === job.id ? 'Cancelling…' : 'Cancel'}
                      </button>
                    ) : null}
                  </td>
                </tr>
                {logShown ? (
                  <tr id={logId} className="job-log-row">
                    <td colSpan={COLUMNS}>
                      <div role="region" aria-label={`Log of job ${job.id}`} className="job-log-region">
                        <JobLog jobId={job.id} active={isActive(job)} defaultOpen testId={`job-${job.id}`} />
                      </div>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
