/** How an optimizer run's result reads (a `corruption.optimize` job, README "Corruption decisions"). */
import { formatLossRate } from '@/lib/format/number';

import type { OptimizerJob, OptimizerRunResult } from './api/types';

/** remaining_penalty − remaining_penalty_lower_bound, never below 0 (rounding). */
export function optimalityGap(result: Pick<OptimizerRunResult, 'remaining_penalty' | 'remaining_penalty_lower_bound'>) {
  return Math.max(0, result.remaining_penalty - result.remaining_penalty_lower_bound);
}

/** "Proven optimal", or the gap to the best possible and why the search stopped. */
export function describeOptimality(result: OptimizerRunResult): string {
  if (result.proven_optimal) return 'Proven optimal: no other set of links to disable leaves less penalty in service.';
  const budget = result.time_budget_s === null ? '' : ` within its ${result.time_budget_s} s time budget`;
  return (
    `Not proven optimal${budget}: gap ${formatLossRate(optimalityGap(result))} ` +
    `(remaining ${formatLossRate(result.remaining_penalty)} − lower bound ${formatLossRate(result.remaining_penalty_lower_bound)}).`
  );
}

/** Why the run happened: the result's reasons, else the job's params (a run still queued or running). */
export function runReasons(job: Pick<OptimizerJob, 'result' | 'params'>): string[] {
  const fromResult = job.result && !job.result.resumed ? job.result.reasons : undefined;
  return fromResult ?? job.params?.reasons ?? [];
}

/** "0.69" */
export function formatShare(value: number): string {
  return value.toFixed(2);
}
