import { useMemo, useState } from 'react';

import { DataTable, type TableState } from '@/components/table';

import type { JobRow } from '../api/types';
import { isActive } from '../jobState';
import { JobLog } from './JobLog';
import { jobColumns, jobLogRowId } from './jobColumns';

import '../jobs.css';

interface JobsTableProps {
  jobs: JobRow[];
  fabricNames: Map<number, string>;
  /** Whether this user may cancel this job (the API's rule, see canCancelJob). */
  canCancel: (job: JobRow) => boolean;
  cancellingJobId: number | null;
  onCancel: (jobId: number) => void;
  /** The Jobs page's sorting and chosen columns. */
  table?: TableState;
  busy?: boolean;
}

export function JobsTable({ jobs, fabricNames, canCancel, cancellingJobId, onCancel, table, busy }: JobsTableProps) {
  const [shownLogs, setShownLogs] = useState<ReadonlySet<number>>(new Set());
  const columns = useMemo(
    () =>
      jobColumns({
        fabricNames,
        canCancel,
        cancellingJobId,
        onCancel,
        shownLogs,
        toggleLog: (jobId) =>
          setShownLogs((shown) => {
            const next = new Set(shown);
            if (!next.delete(jobId)) next.add(jobId);
            return next;
          }),
      }),
    [fabricNames, canCancel, cancellingJobId, onCancel, shownLogs],
  );
  // Scrolls on its own on a phone instead of widening the page, as the links table does.
  return (
    <DataTable
      caption="Jobs"
      testId="jobs-table"
      columns={columns}
      rows={jobs}
      rowKey={(job) => job.id}
      table={table}
      busy={busy}
      rowProps={(job) => ({ 'data-testid': 'job-row', 'data-job-id': job.id, 'data-state': job.state })}
      afterRow={(job, columnCount) =>
        shownLogs.has(job.id) ? (
          <tr id={jobLogRowId(job.id)} className="job-log-row">
            <td colSpan={columnCount}>
              <div role="region" aria-label={`Log of job ${job.id}`} className="job-log-region">
                <JobLog jobId={job.id} active={isActive(job)} defaultOpen testId={`job-${job.id}`} />
              </div>
            </td>
          </tr>
        ) : null
      }
    />
  );
}
