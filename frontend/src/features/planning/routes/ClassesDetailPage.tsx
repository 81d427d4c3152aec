import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { JobStatus } from '@/features/jobs';

import { CLASSES_KIND, type ClassesJob } from '../api/types';
import { useRailJob } from '../api/useRailJob';
import { ClassesResultView } from '../components/ClassesResultView';
import '../planning.css';

export function ClassesDetailPage() {
  const jobId = Number(useParams().jobId);
  const job = useRailJob<ClassesJob>(jobId, CLASSES_KIND);

  return (
    <section aria-labelledby="classes-job-heading">
      <p className="breadcrumb">
        <Link to="/planning">Planning</Link> / <Link to="/planning/classes">Reliability classes</Link> /
      </p>
      <h1 id="classes-job-heading">Reliability classes #{jobId}</h1>
      {job.isPending ? <Loading label="Loading the classes…" /> : null}
      <ErrorList error={job.error} title="Could not load the classes." />
      {job.data ? (
        <>
          <JobStatus job={job.data} label="Classes" testId="classes" appears="results appear" />
          {job.data.state === 'succeeded' && job.data.result ? (
            <ClassesResultView jobId={jobId} result={job.data.result} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
