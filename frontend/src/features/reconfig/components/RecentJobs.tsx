import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { displayedProgress, progressTone } from '@/features/jobs';

import { useReconfigJobs } from '../api/useReconfigJobs';

const RECENT = 10;

/** The newest jobs of one kind, each linking to its result page. */
export function RecentJobs({ kind, noun, path }: { kind: string; noun: string; path: string }) {
  const jobs = useReconfigJobs(kind, { limit: RECENT });
  return (
    <>
      {jobs.isPending ? <Loading label={`Loading ${noun}s…`} /> : null}
      <ErrorList error={jobs.error} title={`Could not load ${noun}s.`} />
      {jobs.data && jobs.data.results.length === 0 ? <p>No {noun}s yet.</p> : null}
      {jobs.data && jobs.data.results.length > 0 ? (
        <table className="data-table" data-testid="recent-jobs">
          <caption className="visually-hidden">Recent {noun}s</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">State</th>
              <th scope="col" className="progress-column">
                Progress
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.results.map((job) => (
              <tr key={job.id}>
                <th scope="row">
                  <Link to={`${path}/${job.id}`}>
                    {noun[0]!.toUpperCase() + noun.slice(1)} #{job.id}
                  </Link>
                </th>
                <td>
                  <span className={`badge badge-${job.state}`}>{job.state}</span>
                </td>
                <td>
                  <ProgressBar
                    value={displayedProgress(job)}
                    tone={progressTone(job.state)}
                    label={`Job ${job.id} progress`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
