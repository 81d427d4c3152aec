/**
 * The what-if simulation's result, generated from the server's OpenAPI document
 * (corruption/api/serializers.py). UI-only: the job's params (`SimulationParams`, `TraceParams`: a
 * document the server checks itself) and the `*Job` narrowings of a job to this kind.
 */
import type { Job } from '@/features/jobs';
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export const POLICIES = ['corropt', 'fast-checker', 'switch-local'] as const;
export type Policy = (typeof POLICIES)[number];
export type PenaltyFunction = 'linear' | 'log' | 'step';

export type TraceParams =
  | { source: 'generated'; hours: number; mttf_hours: number; seed: number }
  | { source: 'uploaded'; name: string; csv: string };

/** The params of a `corruption.simulate` job (README "What-if simulation"). */
export interface SimulationParams {
  constraints: number[];
  accuracies: number[];
  policies: Policy[];
  penalty: PenaltyFunction;
  repair_delay_hours: number;
  seed: number;
  trace: TraceParams;
}

export type SimulationSeries = Schemas['SimulationSeries'];

export type PolicyOutcome = Schemas['PolicyOutcome'];

export type SimulationRun = Schemas['SimulationRun'];

export type SimulationResult = Schemas['SimulationResult'];

export const SIMULATION_KIND = 'corruption.simulate';

export type SimulationJob = Omit<Job, 'result'> & { result: SimulationResult | null };

/** A row of `GET /api/jobs/?brief=1` (results stay out of the list: they are large). */
export type SimulationJobBrief = Pick<Job, 'id' | 'url' | 'kind' | 'state' | 'progress'>;
