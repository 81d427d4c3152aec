import type { PolicyOutcome, Policy, SimulationResult } from './api/types';

function outcome(
  policy: Policy,
  penaltySeconds: number,
  ratio: number | null,
  series: Partial<PolicyOutcome['series']> = {},
): PolicyOutcome {
  return {
    policy,
    share: policy === 'switch-local' ? 0.87 : null,
    penalty_seconds: penaltySeconds,
    penalty_ratio_vs_corropt: ratio,
    active_corrupting_seconds: 0,
    disabled_seconds: 0,
    lowest_worst_fraction: 0.75,
    counts: { disables: 1, refused_arrivals: 0, repairs: 1, threshold_breaches: 0 },
    series: {
      binned: false,
      time_s: [0, 3600],
      penalty: [0, 0.001],
      worst_fraction: [1, 0.75],
      disabled: [0, 1],
      active_corrupting: [0, 1],
      ...series,
    },
  };
}

/** Two constraints x two accuracies on a 10-hour window; switch-local loses 100x at 0.75 and infinitely more at 0.5. */
export function testSimulationResult(): SimulationResult {
  const runs = [0.5, 0.75].flatMap((constraint) =>
    [0.5, 0.8].map((accuracy) => ({
      constraint,
      accuracy,
      corropt_penalty_seconds: constraint === 0.5 ? 0 : 2,
      policies: [
        outcome('corropt', constraint === 0.5 ? 0 : 2, 1),
        outcome('fast-checker', constraint === 0.5 ? 0 : 2, 1),
        outcome('switch-local', constraint === 0.5 ? 36 : 200, constraint === 0.5 ? null : 100, {
          penalty: [0.01, 0.02],
          worst_fraction: [1, 1],
        }),
      ],
    })),
  );
  return {
    fabric: { id: 3, name: 'demo-fb' },
    trace: { source: 'generated', onsets: 12, links: 9, horizon_s: 36000, hours: 10, mttf_hours: 100, seed: 1 },
    settings: {
      policies: ['corropt', 'fast-checker', 'switch-local'],
      constraints: [0.5, 0.75],
      accuracies: [0.5, 0.8],
      penalty_function: 'linear',
      repair_delay_s: 172800,
      seed: 0,
      optimizer_time_budget_s: 2,
      initially_disabled: 0,
      initially_down: 0,
      links: 192,
      max_points: 400,
    },
    runs,
  };
}
