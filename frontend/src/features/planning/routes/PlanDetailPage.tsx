import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { JobStatus } from '@/features/jobs';

import { usePlan } from '../api/usePlan';
import { PlanResultView } from '../components/PlanResultView';
import { planLabel } from '../planData';
import '../planning.css';

export function PlanDetailPage() {
  const jobId = Number(useParams().jobId);
  const job = usePlan(jobId);
  const result = job.data?.state === 'succeeded' ? job.data.result : null;

  return (
    <section aria-labelledby="plan-heading">
      <p className="breadcrumb">
        <Link to="/planning">Planning</Link> /
      </p>
      <h1 id="plan-heading">
        Plan #{jobId}
        {result?.inputs.name ? `: ${planLabel(jobId, result.inputs)}` : ''}
      </h1>
      {job.isPending ? <Loading label="Loading the plan…" /> : null}
      <ErrorList error={job.error} title="Could not load the plan." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Plan" testId="plan" appears="results appear" />
          {result ? <PlanResultView jobId={jobId} result={result} /> : null}
        </>
      ) : null}
    </section>
  );
}
