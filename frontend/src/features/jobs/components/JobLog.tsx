import { useState } from 'react';

import { errorMessages } from '@/lib/api-client';
import { formatTime } from '@/lib/format';

import { useJobLog } from '../api/useJobLog';

interface JobLogProps {
  jobId: number;
  /** Whether the job still runs: its log is polled until it ends. */
  active: boolean;
  /** Open at first (and read at once): a running or failed job. A succeeded job's page shows its result;
   * its log is read when the user opens it. */
  initiallyOpen: boolean;
  /** Prefix of the test id `<testId>-log`. */
  testId: string;
}

/** What the job's handler and the job framework wrote while it ran: time (UTC), level, message. */
export function JobLog({ jobId, active, initiallyOpen, testId }: JobLogProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const log = useJobLog(jobId, active, open);
  const entries = log.data ?? [];
  return (
    <details data-testid={`${testId}-log`} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{log.data ? `Log (${entries.length} ${entries.length === 1 ? 'line' : 'lines'})` : 'Log'}</summary>
      {log.isError ? <p className="job-error">Could not read the log: {errorMessages(log.error).join(' ')}</p> : null}
      {entries.length === 0 && !log.isError ? (
        <p className="muted">{log.isPending ? 'Loading…' : 'No lines yet.'}</p>
      ) : null}
      {entries.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">Job log</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Level</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-level={entry.level}>
                  <td>{formatTime(entry.created_at)}</td>
                  <td className={entry.level === 'error' ? 'job-error' : undefined}>{entry.level}</td>
                  <td>{entry.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}
