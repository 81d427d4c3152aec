import type { Job } from '@/features/jobs/api/types';

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

/** A step series: entry i holds from time_s[i] until time_s[i + 1] (the last until the horizon). */
export interface SimulationSeries {
  /** True when the engine's steps were binned (penalty: bin mean; worst_fraction: bin minimum). */
  binned: boolean;
  time_s: number[];
  penalty: number[];
  worst_fraction: number[];
  disabled: number[];
  active_corrupting: number[];
}

export interface PolicyOutcome {
  policy: Policy;
  share: number | null;
  penalty_seconds: number;
  /** This policy's penalty integral divided by CorrOpt's; null when infinite (CorrOpt's is 0). */
  penalty_ratio_vs_corropt: number | null;
  active_corrupting_seconds: number;
  disabled_seconds: number;
  lowest_worst_fraction: number;
  counts: Record<string, number>;
  series: SimulationSeries;
}

export interface SimulationRun {
  constraint: number;
  accuracy: number;
  corropt_penalty_seconds: number;
  policies: PolicyOutcome[];
}

export interface SimulationResult {
  fabric: { id: number; name: string };
  trace: {
    source: 'generated' | 'uploaded';
    onsets: number;
    links: number;
    horizon_s: number;
    name?: string;
    hours?: number;
    mttf_hours?: number;
    seed?: number;
  };
  settings: {
    policies: Policy[];
    constraints: number[];
    accuracies: number[];
    penalty_function: PenaltyFunction;
    repair_delay_s: number;
    seed: number;
    optimizer_time_budget_s: number;
    initially_disabled: number;
    initially_down: number;
    links: number;
    max_points: number;
  };
  runs: SimulationRun[];
}

export const SIMULATION_KIND = 'corruption.simulate';

export type SimulationJob = Omit<Job, 'result'> & { result: SimulationResult | null };

/** A row of `GET /api/jobs/?brief=1` (results stay out of the list: they are large). */
export type SimulationJobBrief = Pick<Job, 'id' | 'url' | 'kind' | 'state' | 'progress'>;
