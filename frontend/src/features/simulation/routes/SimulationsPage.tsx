import { Link, useNavigate } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';
import { displayedProgress, progressTone } from '@/features/jobs';

import { useSimulationJobs } from '../api/useSimulationJobs';
import { useSubmitSimulation } from '../api/useSubmitSimulation';
import { SimulationForm } from '../components/SimulationForm';
import { canRunSimulations } from '../roles';

const RECENT = 15;

export function SimulationsPage() {
  const user = useCurrentUser();
  const fabrics = useFabricChoices();
  const jobs = useSimulationJobs({ limit: RECENT });
  const submit = useSubmitSimulation();
  const navigate = useNavigate();
  const mayRun = canRunSimulations(user.data);

  return (
    <section aria-labelledby="simulations-heading">
      <h1 id="simulations-heading">What-if simulations</h1>
      <p className="lede">
        Replay a corruption trace on a stored fabric, from its current link states, under switch-local checking,
        CorrOpt’s fast checker alone and full CorrOpt, once per capacity constraint and repair accuracy. The job runs in
        the background; its page shows progress, then the charts.
      </p>
      {mayRun ? (
        <div className="panel">
          <h2>New simulation</h2>
          <ErrorList error={fabrics.error} title="Could not load fabrics." />
          <SimulationForm
            fabrics={fabrics.data?.results ?? []}
            submitting={submit.isPending}
            onSubmit={(fabric, params) =>
              submit.mutate({ fabric, params }, { onSuccess: (job) => void navigate(`/simulations/${job.id}`) })
            }
          />
          <ErrorList error={submit.error} title="The server refused the simulation." />
        </div>
      ) : (
        <p className="notice" data-testid="simulation-readonly">
          Planners, operators and admins start simulations; you can open the results below.
        </p>
      )}
      <h2>Recent simulations</h2>
      {jobs.isPending ? <Loading label="Loading simulations…" /> : null}
      <ErrorList error={jobs.error} title="Could not load simulations." />
      {jobs.data && jobs.data.results.length === 0 ? <p data-testid="simulations-empty">No simulations yet.</p> : null}
      {jobs.data && jobs.data.results.length > 0 ? (
        <table className="data-table" data-testid="simulations-table">
          <caption className="visually-hidden">Recent simulations</caption>
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
              <tr key={job.id} data-testid="simulation-row">
                <th scope="row">
                  <Link to={`/simulations/${job.id}`}>Simulation #{job.id}</Link>
                </th>
                <td>
                  <span className={`badge badge-${job.state}`}>{job.state}</span>
                </td>
                <td>
                  <ProgressBar
                    value={displayedProgress(job)}
                    tone={progressTone(job.state)}
                    label={`Simulation ${job.id} progress`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
