import { Link, useNavigate, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { defaultFabric } from '@/components/defaultFabric';
import { Loading } from '@/components/Loading';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';

import { CLASSES_KIND } from '../api/types';
import { useRailJobs } from '../api/useRailJobs';
import { useSubmitRailJob } from '../api/useSubmitRailJob';
import { ClassesForm } from '../components/ClassesForm';
import { FecCalculator } from '../components/FecCalculator';
import { RailJobsTable } from '../components/RailJobsTable';
import { canRunPlanning } from '../roles';
import '../planning.css';

const RECENT = 15;

export function ClassesPage() {
  const user = useCurrentUser();
  const fabrics = useFabricChoices();
  const jobs = useRailJobs(CLASSES_KIND, { limit: RECENT });
  const submit = useSubmitRailJob();
  const navigate = useNavigate();
  const mayRun = canRunPlanning(user.data);
  const [searchParams] = useSearchParams();
  const initialFabric = defaultFabric(fabrics.data?.results ?? [], searchParams.get('fabric'));

  return (
    <section aria-labelledby="classes-heading">
      <p className="breadcrumb">
        <Link to="/planning">Planning</Link> /
      </p>
      <h1 id="classes-heading">Reliability classes</h1>
      <p className="lede">
        From each link direction’s measured loss rate, build nested classes of links whose every ECMP path loses at most
        the class’s bound (the seed’s virtual topologies): routing announces a class’s prefix only over its links. Links
        above the repair threshold are in no class. Each class reports its worst path and how its paths would be coded
        end to end.
      </p>
      {mayRun ? (
        <div className="panel">
          <h2>New classes</h2>
          <ErrorList error={fabrics.error} title="Could not load fabrics." />
          {fabrics.isPending ? <Loading label="Loading fabrics…" /> : null}
          {fabrics.isPending ? null : (
            <ClassesForm
              key={initialFabric ?? 'none'}
              fabrics={fabrics.data?.results ?? []}
              initialFabric={initialFabric}
              submitting={submit.isPending}
              onSubmit={(fabric, params) =>
                submit.mutate(
                  { kind: CLASSES_KIND, fabric, params },
                  { onSuccess: (job) => void navigate(`/planning/classes/${job.id}`) },
                )
              }
            />
          )}
          <ErrorList error={submit.error} title="The server refused the classes job." />
        </div>
      ) : (
        <p className="notice" data-testid="classes-readonly">
          Planners, operators and admins build classes; you can open the results below.
        </p>
      )}
      <div className="panel">
        <h2>FEC calculator</h2>
        <FecCalculator />
      </div>
      <h2>Recent classes</h2>
      {jobs.isPending ? <Loading label="Loading classes jobs…" /> : null}
      <ErrorList error={jobs.error} title="Could not load classes jobs." />
      {jobs.data && jobs.data.results.length === 0 ? <p data-testid="classes-empty">No classes built yet.</p> : null}
      {jobs.data && jobs.data.results.length > 0 ? (
        <RailJobsTable
          jobs={jobs.data.results}
          noun="Classes"
          href={(job) => `/planning/classes/${job.id}`}
          testId="classes-table"
        />
      ) : null}
    </section>
  );
}
