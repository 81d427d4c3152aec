import { type Job, useJobOfKind } from '@/features/jobs';

/** A RAIL job of this kind, polled until it ends. */
export function useRailJob<T extends Omit<Job, 'result'>>(jobId: number, kind: string) {
  return useJobOfKind<T>(jobId, kind);
}
