import { useJobOfKind } from '@/features/jobs';

import type { OptimizerJob } from './types';

export const OPTIMIZER_JOB_KIND = 'corruption.optimize';

/** An optimizer run's job, polled until it ends (a job of another kind is an error). */
export function useOptimizerJob(jobId: number) {
  return useJobOfKind<OptimizerJob>(jobId, OPTIMIZER_JOB_KIND);
}
