import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';
import { JobStatus } from '@/features/jobs';

import { useAssignableUsers } from '../api/useAssignableUsers';
import { useNewestPlanId, usePlanJob, useSubmitPlan } from '../api/useMaintenancePlan';
import { PlanDayForm } from '../components/PlanDayForm';
import { PlanResultView } from '../components/PlanResultView';
import { mayPlan } from '../roles';
import '../maintenance.css';

function positiveId(raw: string | null): number | undefined {
  const id = Number(raw);
  return raw && Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * /work-orders/plan?fabric=..&job=..: plan the day's visits and read the fabric's newest plan (or the
 * one just asked for, followed until it ends).
 */
export function PlanPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const user = useCurrentUser();
  const planner = mayPlan(user.data);
  const fabrics = useFabricChoices();
  const users = useAssignableUsers(planner);
  const submit = useSubmitPlan();
  const fabric = positiveId(searchParams.get('fabric'));
  const askedJob = positiveId(searchParams.get('job'));
  const newest = useNewestPlanId(askedJob === undefined ? fabric : undefined);
  const shownJob = askedJob ?? newest.data ?? undefined;

  // The first fabric is the one shown until another is chosen (most sites run one).
  const firstFabric = fabrics.data?.results[0]?.id;
  useEffect(() => {
    if (fabric === undefined && firstFabric !== undefined) {
      setSearchParams({ fabric: String(firstFabric) }, { replace: true });
    }
  }, [fabric, firstFabric, setSearchParams]);

  return (
    <section aria-labelledby="plan-heading" className="plan-page">
      <p className="breadcrumb">
        <Link to="/work-orders">Work orders</Link>
      </p>
      <h1 id="plan-heading">Plan the day</h1>
      <p className="lede">
        The planner orders the fabric’s open work orders into each technician’s day so that no ToR drops under its
        floor, with the least expected penalty-hours of corruption left in service. Each technician sees theirs on
        Today.
      </p>
      {planner ? (
        <div className="panel">
          <ErrorList error={fabrics.error} title="Could not load fabrics." />
          <ErrorList error={users.error} title="Could not load the technicians." />
          <PlanDayForm
            fabrics={fabrics.data?.results ?? []}
            fabric={fabric}
            onFabricChange={(next) => setSearchParams(next === undefined ? {} : { fabric: String(next) })}
            users={users.data?.results ?? []}
            submitting={submit.isPending}
            onSubmit={(chosen, params) =>
              submit.mutate(
                { fabric: chosen, params },
                { onSuccess: (job) => setSearchParams({ fabric: String(chosen), job: String(job.id) }) },
              )
            }
          />
          <ErrorList error={submit.error} title="The server refused the plan." />
        </div>
      ) : (
        <p className="notice" data-testid="plan-readonly">
          Operators, planners and admins plan the day; you can read the newest plan below.
        </p>
      )}
      <section className="panel" aria-labelledby="plan-result-heading">
        <h2 id="plan-result-heading">{askedJob ? `Plan #${askedJob}` : 'Newest plan'}</h2>
        {newest.isPending && askedJob === undefined && fabric !== undefined ? (
          <Loading label="Looking for plans…" />
        ) : null}
        <ErrorList error={newest.error} title="Could not look for plans." />
        {fabric !== undefined && askedJob === undefined && newest.data === null ? (
          <p data-testid="plan-none">No plan of this fabric yet: plan the day above.</p>
        ) : null}
        {shownJob !== undefined ? <PlanJobView jobId={shownJob} /> : null}
      </section>
    </section>
  );
}

function PlanJobView({ jobId }: { jobId: number }) {
  const job = usePlanJob(jobId);
  if (job.error) return <ErrorList error={job.error} title="Could not load the plan." />;
  const data = job.data;
  if (!data) return <Loading label="Loading the plan…" />;
  return (
    <>
      {data.state !== 'succeeded' ? (
        <JobStatus job={data} label="Plan" testId="plan-job" appears="the timeline appears" />
      ) : null}
      {data.state === 'succeeded' && data.result ? (
        <PlanResultView plan={data.result} plannedAt={data.finished} />
      ) : null}
    </>
  );
}
