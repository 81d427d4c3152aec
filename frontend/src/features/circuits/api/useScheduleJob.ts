import { useJobOfKind } from '@/features/jobs';

import type { ScheduleJob } from './types';

/** A circuit schedule's job, polled until it ends; the result comes with the job. */
export function useScheduleJob(jobId: number) {
  return useJobOfKind<ScheduleJob>(jobId, 'circuits.schedule');
}
