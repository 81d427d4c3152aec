import { Link } from 'react-router';

import { ProgressBar } from '@/components/ProgressBar';
import type { TableColumn } from '@/components/table';
import { Time } from '@/components/Time';

import type { JobRow } from '../api/types';
import { jobPagePath } from '../jobPages';
import { displayedProgress, isActive, progressTone } from '../jobState';

export interface JobColumnsOptions {
  fabricNames: Map<number, string>;
  /** Whether this user may cancel this job (the API's rule, see canCancelJob). */
  canCancel: (job: JobRow) => boolean;
  cancellingJobId: number | null;
  onCancel: (jobId: number) => void;
  shownLogs: ReadonlySet<number>;
  toggleLog: (jobId: number) => void;
}

export const jobLogRowId = (jobId: number) => `job-${jobId}-log-row`;

function jobLink(job: JobRow) {
  const path = jobPagePath(job);
  return path === null ? `#${job.id}` : <Link to={path}>#{job.id}</Link>;
}

/** The Jobs list's columns: kinds in words, the error only where there is one. */
export function jobColumns(options: JobColumnsOptions): TableColumn<JobRow>[] {
  const { fabricNames, canCancel, cancellingJobId, onCancel, shownLogs, toggleLog } = options;
  return [
    { key: 'id', label: 'Job', sortField: 'id', required: true, rowHeader: true, cell: jobLink },
    {
      key: 'log',
      label: 'Log',
      labelHidden: true,
      required: true,
      csv: false,
      // Every job's log opens here, below its row: imports and capacity reports have no page of their own.
      cell: (job) => {
        const shown = shownLogs.has(job.id);
        return (
          <button
            type="button"
            className="job-log-toggle"
            aria-expanded={shown}
            aria-controls={shown ? jobLogRowId(job.id) : undefined}
            aria-label={`Log of job ${job.id}`}
            onClick={() => toggleLog(job.id)}
          >
            Log
          </button>
        );
      },
    },
    {
      key: 'kind',
      label: 'Kind',
      sortField: 'kind',
      cell: (job) => <span title={job.kind}>{job.kind_title}</span>,
    },
    {
      key: 'fabric',
      label: 'Fabric',
      sortField: 'fabric',
      cell: (job) => (job.fabric === null ? '' : (fabricNames.get(job.fabric) ?? `fabric ${job.fabric}`)),
    },
    {
      key: 'state',
      label: 'State',
      sortField: 'state',
      cell: (job) => (
        <span className={`badge badge-${job.state}`} data-testid="job-state">
          {job.state}
        </span>
      ),
    },
    {
      key: 'progress',
      label: 'Progress',
      className: 'progress-column',
      cell: (job) => (
        <ProgressBar
          value={displayedProgress(job)}
          tone={progressTone(job.state)}
          label={`Job ${job.id} progress`}
          testId="job-progress"
        />
      ),
    },
    { key: 'message', label: 'Message', cell: (job) => job.message },
    {
      key: 'error',
      label: 'Error',
      // Blank, not a red dash, when nothing went wrong.
      cell: (job) => (job.error ? <span className="job-error">{job.error}</span> : null),
    },
    {
      key: 'created',
      label: 'Created',
      sortField: 'created',
      cell: (job) => (
        <>
          <Time value={job.created} />
          {job.created_by ? <div className="muted">by {job.created_by}</div> : null}
        </>
      ),
    },
    {
      key: 'finished',
      label: 'Finished',
      sortField: 'finished',
      cell: (job) => (job.finished ? <Time value={job.finished} /> : null),
    },
    {
      key: 'action',
      label: 'Action',
      csv: false,
      cell: (job) =>
        isActive(job) && canCancel(job) ? (
          <button
            type="button"
            className="danger"
            onClick={() => onCancel(job.id)}
            disabled={cancellingJobId === job.id}
            aria-label={`Cancel job ${job.id}`}
          >
            {cancellingJobId === job.id ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : null,
    },
  ];
}

/** The columns as the chooser lists them (their labels need no data). */
export const JOB_COLUMNS = jobColumns({
  fabricNames: new Map(),
  canCancel: () => false,
  cancellingJobId: null,
  onCancel: () => {},
  shownLogs: new Set(),
  toggleLog: () => {},
});
export const JOB_COLUMN_KEYS = JOB_COLUMNS.map((column) => column.key);
export const JOB_SORT_FIELDS = JOB_COLUMNS.flatMap((column) => column.sortField ?? []);
