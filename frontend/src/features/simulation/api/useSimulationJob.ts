import { useJobOfKind } from '@/features/jobs';

import type { SimulationJob } from './types';

/** A what-if simulation's job, polled until it ends. */
export function useSimulationJob(jobId: number) {
  return useJobOfKind<SimulationJob>(jobId, 'corruption.simulate');
}
