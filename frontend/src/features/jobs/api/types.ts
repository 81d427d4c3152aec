/**
 * A job as the API answers it: generated from the server's OpenAPI document (jobs/api/serializers.py,
 * the kinds' results in jobs/api/results.py). No UI-only view models here.
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type JobState = Schemas['JobStateEnum'];

/** GET /api/jobs/{id}/: `result` is any kind's; a feature narrows it to its kind's component. */
export type Job = Schemas['Job'];

/** A row of GET /api/jobs/: the job without its result (results are large). */
export type JobRow = Schemas['JobList'];
