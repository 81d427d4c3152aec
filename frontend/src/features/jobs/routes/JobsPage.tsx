import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { csvExportHref, TableToolbar, useTableState } from '@/components/table';
import { canCancelJob, useCurrentUser } from '@/features/auth';
import { useFabricChoices } from '@/features/fabrics';
import { pageOffset } from '@/lib/pagination';

import type { JobRow, JobState } from '../api/types';
import { useCancelJob } from '../api/useCancelJob';
import { useJobs } from '../api/useJobs';
import { JOB_COLUMN_KEYS, JOB_COLUMNS, JOB_SORT_FIELDS } from '../components/jobColumns';
import { JobsTable } from '../components/JobsTable';
import { isActive, JOB_STATES } from '../jobState';

export function JobsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const table = useTableState('jobs', JOB_COLUMN_KEYS, JOB_SORT_FIELDS);
  const { page, pageSize, ordering } = table;
  const state = JOB_STATES.find((candidate) => candidate === searchParams.get('state'));
  const jobs = useJobs({ state, ordering: table.orderingQuery, limit: pageSize, offset: pageOffset(page, pageSize) });
  const cancelJob = useCancelJob();
  const user = useCurrentUser();
  const fabricChoices = useFabricChoices();
  const fabricNames = useMemo(
    () => new Map((fabricChoices.data?.results ?? []).map((fabric) => [fabric.id, fabric.name])),
    [fabricChoices.data],
  );
  const { mutate: cancel } = cancelJob;
  const onCancel = useCallback((jobId: number) => cancel(jobId), [cancel]);
  const canCancel = useCallback((job: JobRow) => canCancelJob(user.data, job), [user.data]);
  const activeCount = jobs.data?.results.filter(isActive).length ?? 0;

  // A new state filter starts again at page 1, keeping the ordering and the page size.
  const setState = (next: JobState | undefined) =>
    setSearchParams((current) => {
      const params = new URLSearchParams();
      if (next) params.set('state', next);
      for (const key of ['ordering', 'page_size']) {
        const value = current.get(key);
        if (value) params.set(key, value);
      }
      return params;
    });

  return (
    <section aria-labelledby="jobs-heading">
      <h1 id="jobs-heading">Jobs</h1>
      <p className="lede">
        Background work (imports, capacity reports, planners). The list refreshes every second while a job is queued or
        running{activeCount > 0 ? ` (${activeCount} active now)` : ''}.
      </p>
      <form className="filters" aria-label="Job filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          State
          <select
            value={state ?? ''}
            onChange={(event) => setState(JOB_STATES.find((candidate) => candidate === event.target.value))}
          >
            <option value="">Any</option>
            {JOB_STATES.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
        </label>
      </form>
      <TableToolbar columns={JOB_COLUMNS} table={table} csvHref={csvExportHref('/api/jobs/', { state }, ordering)} />
      <ErrorList error={cancelJob.error} title="Could not cancel the job." />
      {jobs.isPending ? <Loading label="Loading jobs…" /> : null}
      <ErrorList error={jobs.error} title="Could not load jobs." />
      {jobs.data ? (
        jobs.data.count === 0 ? (
          <p data-testid="jobs-empty">No jobs{state ? ` in state “${state}”` : ''} yet.</p>
        ) : (
          <>
            <JobsTable
              jobs={jobs.data.results}
              fabricNames={fabricNames}
              canCancel={canCancel}
              cancellingJobId={cancelJob.isPending ? (cancelJob.variables ?? null) : null}
              onCancel={onCancel}
              table={table}
              busy={jobs.isPlaceholderData}
            />
            <Pagination
              label="Jobs pages"
              total={jobs.data.count}
              page={page}
              pageSize={pageSize}
              shown={jobs.data.results.length}
              onPageChange={table.setPage}
            />
          </>
        )
      ) : null}
    </section>
  );
}
