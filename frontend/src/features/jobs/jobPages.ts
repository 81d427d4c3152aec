import type { Job } from './api/types';

/** The page that shows a job of each kind with its result. Imports and capacity reports have none:
 * their effect shows on the fabric's own pages. */
const PAGE_BY_KIND: Record<string, string> = {
  'corruption.simulate': '/simulations',
  'corruption.optimize': '/optimizer',
  'rail.plan': '/planning/plans',
  'rail.classes': '/planning/classes',
  'circuits.schedule': '/circuits/schedules',
  'sharebackup.plan': '/sharebackup',
  'larry.run': '/larry',
};

export function jobPagePath(job: Pick<Job, 'id' | 'kind'>): string | null {
  const base = PAGE_BY_KIND[job.kind];
  return base === undefined ? null : `${base}/${job.id}`;
}
