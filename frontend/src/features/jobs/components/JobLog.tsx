import { useState } from 'react';

import { errorMessages } from '@/lib/api-client';
import { Time } from '@/components/Time';

import { useJobLog } from '../api/useJobLog';

interface JobLogProps {
  jobId: number;
  /** Whether the job still runs: its log is polled until it ends. */
  active: boolean;
  /** Whether the log is open (and read) while the user has not opened or closed it: follows the job, so a log
   * looks the same whether the page was open when the job ended or opened afterwards. */
  defaultOpen: boolean;
  /** Prefix of the test id `<testId>-log`. */
  testId: string;
}

/** What the job's handler and the job framework wrote while it ran: time (UTC), level, message. */
export function JobLog({ jobId, active, defaultOpen, testId }: JobLogProps) {
  // null until the user opens or closes the log; from then on their choice holds.
  const [chosenOpen, setChosenOpen] = useState<boolean | null>(null);
  const open = chosenOpen ?? defaultOpen;
  const log = useJobLog(jobId, active, open);
  const entries = log.data ?? [];
  return (
    <details
      data-testid={`${testId}-log`}
      open={open}
      // The toggle event also fires when `open` follows defaultOpen; only a change the page did not make is a choice.
      onToggle={(event) => {
        if (event.currentTarget.open !== open) setChosenOpen(event.currentTarget.open);
      }}
    >
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
                  <td>
                    <Time value={entry.created_at} />
                  </td>
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
