import { Link, useNavigate, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { defaultFabric } from '@/components/defaultFabric';
import { Loading } from '@/components/Loading';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';

import { PLAN_KIND } from '../api/types';
import { useRailJobs } from '../api/useRailJobs';
import { useSubmitRailJob } from '../api/useSubmitRailJob';
import { useTransceiverModels } from '../api/useTransceiverModels';
import { PlanForm } from '../components/PlanForm';
import { RailJobsTable } from '../components/RailJobsTable';
import { canRunPlanning } from '../roles';
import '../planning.css';

const RECENT = 15;

export function PlanningPage() {
  const user = useCurrentUser();
  const fabrics = useFabricChoices();
  const catalog = useTransceiverModels();
  const jobs = useRailJobs(PLAN_KIND, { limit: RECENT });
  const submit = useSubmitRailJob();
  const navigate = useNavigate();
  const mayRun = canRunPlanning(user.data);
  const [searchParams] = useSearchParams();
  const initialFabric = defaultFabric(fabrics.data?.results ?? [], searchParams.get('fabric'));

  return (
    <section aria-labelledby="planning-heading">
      <h1 id="planning-heading">RAIL stretch planner</h1>
      <p className="lede">
        Cost a fabric’s optics with cheap short-reach transceivers run beyond their rated reach (“stretch”), against a
        baseline that keeps every part within its rated reach. The network reliability bound (NRB) is the expected share
        of good paths the plan keeps. <Link to="/planning/classes">Reliability classes and FEC</Link> work from measured
        loss rates instead.
      </p>
      {mayRun ? (
        <div className="panel">
          <h2>New plan</h2>
          <ErrorList error={fabrics.error} title="Could not load fabrics." />
          <ErrorList error={catalog.error} title="Could not load the transceiver catalog." />
          {fabrics.isPending ? <Loading label="Loading fabrics…" /> : null}
          {fabrics.isPending ? null : (
            <PlanForm
              key={initialFabric ?? 'generated'}
              fabrics={fabrics.data?.results ?? []}
              initialFabric={initialFabric}
              catalog={catalog.data?.results ?? []}
              catalogLoading={catalog.isPending}
              submitting={submit.isPending}
              onSubmit={(fabric, params) =>
                submit.mutate(
                  { kind: PLAN_KIND, fabric, params },
                  { onSuccess: (job) => void navigate(`/planning/plans/${job.id}`) },
                )
              }
            />
          )}
          <ErrorList error={submit.error} title="The server refused the plan." />
        </div>
      ) : (
        <p className="notice" data-testid="planning-readonly">
          Planners, operators and admins run plans; you can open the results below.
        </p>
      )}
      <h2>Recent plans</h2>
      {jobs.isPending ? <Loading label="Loading plans…" /> : null}
      <ErrorList error={jobs.error} title="Could not load plans." />
      {jobs.data && jobs.data.results.length === 0 ? <p data-testid="plans-empty">No plans yet.</p> : null}
      {jobs.data && jobs.data.results.length > 0 ? (
        <RailJobsTable
          jobs={jobs.data.results}
          noun="Plan"
          href={(job) => `/planning/plans/${job.id}`}
          testId="plans-table"
        />
      ) : null}
    </section>
  );
}
