import type { Job } from './api/types';

/** The page that shows a job of each kind with its result. Imports and capacity reports have none:
 * their effect shows on the fabric's own page. */
const PAGE_BY_KIND: Record<string, string> = {
  'corruption.simulate': '/simulations',
  'corruption.optimize': '/optimizer',
  'rail.plan': '/planning/plans',
  'rail.classes': '/planning/classes',
  'circuits.schedule': '/circuits/schedules',
  'sharebackup.plan': '/sharebackup',
  'larry.run': '/larry',
};

/** Kinds whose effect shows on their fabric's own page (its links, its capacity): their number leads there. */
const FABRIC_PAGE_KINDS: ReadonlySet<string> = new Set(['fabric.import', 'fabric.capacity_report']);

/**
 * Where a job's number leads: the page of its kind with its result, or its fabric's page for a kind
 * whose effect shows there (trial 30: "#1", an import, was plain text beside the links "#2" and on);
 * null for a job with neither.
 */
export function jobPagePath(job: Pick<Job, 'id' | 'kind' | 'fabric'>): string | null {
  const base = PAGE_BY_KIND[job.kind];
  if (base !== undefined) return `${base}/${job.id}`;
  return FABRIC_PAGE_KINDS.has(job.kind) && job.fabric !== null ? `/fabrics/${job.fabric}` : null;
}
