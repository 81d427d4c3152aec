import { Link } from 'react-router';

import { ProgressBar } from '@/components/ProgressBar';
import { Time } from '@/components/Time';
import { displayedProgress, progressTone } from '@/features/jobs';

import type { JobRow } from '../api/types';

interface RailJobsTableProps {
  jobs: JobRow[];
  /** "Plan" or "Classes": the link text is "Plan #12". */
  noun: string;
  href: (job: JobRow) => string;
  testId: string;
}

/** Recent jobs of one kind: link, state, who and when, progress. */
export function RailJobsTable({ jobs, noun, href, testId }: RailJobsTableProps) {
  return (
    <table className="data-table" data-testid={testId}>
      <caption className="visually-hidden">Recent {noun.toLowerCase()} jobs</caption>
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">State</th>
          <th scope="col">Started by</th>
          <th scope="col">Created</th>
          <th scope="col">Message</th>
          <th scope="col" className="progress-column">
            Progress
          </th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr key={job.id} data-testid={`${testId}-row`}>
            <th scope="row">
              <Link to={href(job)}>
                {noun} #{job.id}
              </Link>
            </th>
            <td>
              <span className={`badge badge-${job.state}`}>{job.state}</span>
            </td>
            <td>{job.created_by ?? '—'}</td>
            <td>
              <Time value={job.created} />
            </td>
            <td>{job.message}</td>
            <td>
              <ProgressBar
                value={displayedProgress(job)}
                tone={progressTone(job.state)}
                label={`${noun} ${job.id} progress`}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
