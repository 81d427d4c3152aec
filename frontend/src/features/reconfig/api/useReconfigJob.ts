import { useJobOfKind } from '@/features/jobs';

import type { ReconfigJob } from './types';

/** A failover plan's or an uplink run's job, polled until it ends. */
export function useReconfigJob<R>(jobId: number, kind: 'sharebackup.plan' | 'larry.run') {
  return useJobOfKind<ReconfigJob<R>>(jobId, kind);
}
