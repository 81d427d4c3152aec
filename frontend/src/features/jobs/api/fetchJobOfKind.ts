import { ApiError, apiClient } from '@/lib/api-client';

/** Query key of a job read by a page that shows one kind: the kind is part of it, so that one page's
 * cached job of another kind is never handed to another page; `['jobs', 'detail', id]` still
 * invalidates it. */
export function jobOfKindQueryKey(jobId: number, kind: string) {
  return ['jobs', 'detail', jobId, kind] as const;
}

/**
 * GET /api/jobs/{id}/ for a page that shows one kind of job. A job of another kind (an id typed into
 * the URL, or a link to the wrong page) fails like a missing job, naming its real kind, instead of
 * handing the page a result of another shape to render.
 */
export async function fetchJobOfKind<J extends { kind: string }>(
  jobId: number,
  kind: string,
  signal?: AbortSignal,
): Promise<J> {
  const job = await apiClient.get<J>(`/api/jobs/${jobId}/`, undefined, { signal });
  if (job.kind !== kind) {
    throw new ApiError(404, [`Job ${jobId} is a ${job.kind} job, not ${kind}.`], job);
  }
  return job;
}
