import { Link } from 'react-router';

import { ProgressBar } from '@/components/ProgressBar';
import { displayedProgress, progressTone } from '@/features/jobs';
import { formatPercent } from '@/lib/format';

import type { ScheduleJobBrief } from '../api/types';
import { algorithmLabel } from '../scheduleFormat';

/** A name that may have been deleted since the schedule ran: "hot pairs (deleted)". */
function deletedName(thing: { id: number; name: string | null; deleted: boolean }): string {
  const name = thing.name ?? `#${thing.id}`;
  return thing.deleted ? `${name} (deleted)` : name;
}

export function SchedulesTable({ jobs }: { jobs: ScheduleJobBrief[] }) {
  return (
    <table className="data-table" data-testid="schedules">
      <caption className="visually-hidden">Recent circuit schedules</caption>
      <thead>
        <tr>
          <th scope="col">Schedule</th>
          <th scope="col">Demand</th>
          <th scope="col">Circuit switch</th>
          <th scope="col">Algorithm</th>
          <th scope="col">State</th>
          <th scope="col" className="progress-column">
            Progress
          </th>
          <th scope="col" className="numeric">
            Optical ratio (uniform)
          </th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr key={job.id} data-testid="schedule-row">
            <th scope="row">
              <Link to={`/circuits/schedules/${job.id}`}>Schedule #{job.id}</Link>
            </th>
            <td>{deletedName(job.demand)}</td>
            <td>{job.zone ? `zone ${job.zone}` : job.circuit_switches.map(deletedName).join(', ')}</td>
            <td>
              {job.algorithm === null ? null : algorithmLabel(job.algorithm)}, {job.mode}
            </td>
            <td>
              <span className={`badge badge-${job.state}`}>{job.state}</span>
            </td>
            <td>
              <ProgressBar
                value={displayedProgress(job)}
                tone={progressTone(job.state)}
                label={`Schedule ${job.id} progress`}
              />
            </td>
            <td className="numeric">
              {job.summary
                ? `${formatPercent(job.summary.optical_ratio)} (${formatPercent(job.summary.uniform_ratio)})`
                : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
