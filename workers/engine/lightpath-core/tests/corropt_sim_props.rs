//! Simulator properties on random small fabrics and traces:
//! - the fast checker and CorrOpt never take a ToR below its threshold, and
//!   neither does switch-local with share `c^(1/r)` on uniform fabrics;
//! - re-running only where a repair can change a decision gives the same
//!   result as re-running over every corrupting link, for every policy;
//! - the same holds from a random initial state with links disabled (awaiting
//!   repair) or down;
//! - the same inputs give the same output;
//! - on a fixed mid-size scenario, CorrOpt leaves no more penalty than the
//!   fast checker, which leaves far less than switch-local.

mod common;

use common::fabric;
use lightpath_core::FabricGraph;
use lightpath_core::corropt::{
    LinkState, Onset, Penalty, Policy, SimConfig, SimResult, Thresholds, compare_policies,
    generate_trace, simulate, switch_local_share,
};
use lightpath_core::fabric::generators::{facebook_fabric, fat_tree};
use proptest::prelude::*;

/// A uniform Clos: a fat tree or a small Facebook-style fabric.
fn uniform_fabric() -> impl Strategy<Value = FabricGraph> {
    prop_oneof![
        (2u32..=4).prop_map(|half| fat_tree(2 * half)),
        (1u32..=3, 1u32..=4, 1u32..=4, 1u32..=5)
            .prop_map(|(pods, tors, planes, spines)| facebook_fabric(pods, tors, planes, spines)),
    ]
}

fn penalty() -> impl Strategy<Value = Penalty> {
    prop_oneof![
        Just(Penalty::Linear),
        Just(Penalty::Log),
        Just(Penalty::Step)
    ]
}

/// A week of onsets at an MTTF of 20 to 500 hours per link: from a few to a
/// few dozen per link, so repairs and arrivals interleave.
fn trace(graph: &FabricGraph, mttf_hours: f64, seed: u64) -> Vec<Onset> {
    generate_trace(graph, mttf_hours, 168.0, seed).unwrap()
}

fn config(policy: Policy, capacity: f64, penalty: Penalty, seed: u64) -> SimConfig {
    SimConfig {
        penalty,
        seed,
        repair_delay_s: 12.0 * 3600.0,
        horizon_s: Some(168.0 * 3600.0),
        ..SimConfig::new(policy, Thresholds::new(capacity).unwrap())
    }
}

fn run(graph: &FabricGraph, trace: &[Onset], config: &SimConfig) -> SimResult {
    simulate(graph, trace, config).unwrap()
}

/// Same decisions: identical counts and link-count series, penalties equal
/// up to summation order.
fn assert_same_run(a: &SimResult, b: &SimResult) {
    assert_eq!(a.counts.disables, b.counts.disables);
    assert_eq!(a.series.time_s, b.series.time_s);
    assert_eq!(a.series.active_corrupting, b.series.active_corrupting);
    assert_eq!(a.series.disabled, b.series.disabled);
    assert_eq!(a.series.worst_fraction, b.series.worst_fraction);
    let scale = a.penalty_seconds.abs().max(1e-300);
    assert!((a.penalty_seconds - b.penalty_seconds).abs() <= 1e-9 * scale);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn checker_and_corropt_never_breach_and_restricted_reruns_match_full_ones(
        graph in fabric(),
        mttf_hours in 20.0f64..500.0,
        capacity in 0.0f64..=1.0,
        penalty in penalty(),
        seed in any::<u64>(),
    ) {
        let trace = trace(&graph, mttf_hours, seed);
        for policy in [Policy::FastChecker, Policy::CorrOpt] {
            let config = config(policy, capacity, penalty, seed);
            let result = run(&graph, &trace, &config);
            prop_assert_eq!(result.counts.threshold_breaches, 0);
            prop_assert_eq!(result.counts.onsets, trace.len() as u64);
            let full = run(&graph, &trace, &SimConfig { exhaustive_reruns: true, ..config });
            assert_same_run(&result, &full);
        }
    }

    #[test]
    fn from_a_given_state_nothing_breaches_and_restricted_reruns_match_full_ones(
        (graph, states) in fabric().prop_flat_map(|graph| {
            let n = graph.num_links();
            let states = prop::collection::vec(
                prop::sample::select(vec![
                    LinkState::Enabled,
                    LinkState::Enabled,
                    LinkState::Enabled,
                    LinkState::Disabled,
                    LinkState::Down,
                ]),
                n,
            );
            (Just(graph), states)
        }),
        mttf_hours in 20.0f64..500.0,
        capacity in 0.0f64..=1.0,
        share in 0.0f64..=1.0,
        penalty in penalty(),
        seed in any::<u64>(),
    ) {
        let trace = trace(&graph, mttf_hours, seed);
        let disabled = states.iter().filter(|&&s| s == LinkState::Disabled).count() as u32;
        for policy in [Policy::FastChecker, Policy::CorrOpt, Policy::SwitchLocal { share }] {
            let config = SimConfig {
                initial_states: Some(states.clone()),
                ..config(policy, capacity, penalty, seed)
            };
            let result = run(&graph, &trace, &config);
            prop_assert_eq!(result.series.disabled[0], disabled);
            if !matches!(policy, Policy::SwitchLocal { .. }) {
                prop_assert_eq!(result.counts.threshold_breaches, 0);
            }
            let full = run(&graph, &trace, &SimConfig { exhaustive_reruns: true, ..config });
            assert_same_run(&result, &full);
        }
    }

    #[test]
    fn switch_local_reruns_per_switch_match_full_ones_at_any_share(
        graph in fabric(),
        mttf_hours in 20.0f64..500.0,
        share in 0.0f64..=1.0,
        seed in any::<u64>(),
    ) {
        // The rule is per switch, so this holds even where the share lets
        // ToRs fall under their threshold.
        let trace = trace(&graph, mttf_hours, seed);
        let config = config(Policy::SwitchLocal { share }, 0.75, Penalty::Linear, seed);
        let result = run(&graph, &trace, &config);
        let full = run(&graph, &trace, &SimConfig { exhaustive_reruns: true, ..config });
        assert_same_run(&result, &full);
    }

    #[test]
    fn switch_local_at_c_to_the_one_over_r_keeps_uniform_fabrics_above_c(
        graph in uniform_fabric(),
        mttf_hours in 20.0f64..500.0,
        capacity in prop::sample::select(vec![0.25, 0.5, 0.6, 0.75, 0.9]),
        seed in any::<u64>(),
    ) {
        let trace = trace(&graph, mttf_hours, seed);
        let share = switch_local_share(capacity, graph.num_tiers() - 1);
        let config = config(Policy::SwitchLocal { share }, capacity, Penalty::Linear, seed);
        let result = run(&graph, &trace, &config);
        prop_assert_eq!(result.counts.threshold_breaches, 0);
        prop_assert!(result.lowest_worst_fraction >= capacity);
        let full = run(&graph, &trace, &SimConfig { exhaustive_reruns: true, ..config });
        assert_same_run(&result, &full);
    }

    #[test]
    fn worst_fraction_never_goes_below_the_threshold(
        graph in uniform_fabric(),
        mttf_hours in 20.0f64..500.0,
        capacity in 0.0f64..=1.0,
        seed in any::<u64>(),
    ) {
        // No link is down in the simulation, so with one threshold for all
        // ToRs the worst fraction itself is the invariant.
        let trace = trace(&graph, mttf_hours, seed);
        for policy in [Policy::FastChecker, Policy::CorrOpt] {
            let result = run(&graph, &trace, &config(policy, capacity, Penalty::Linear, seed));
            for &f in &result.series.worst_fraction {
                prop_assert!(f >= capacity - 1e-12, "{:?}: worst fraction {} < {}", policy, f, capacity);
            }
        }
    }
}

#[test]
fn same_inputs_same_output_and_the_seed_drives_the_repairs() {
    let graph = facebook_fabric(3, 4, 4, 4);
    let trace = trace(&graph, 100.0, 5);
    for policy in [
        Policy::CorrOpt,
        Policy::FastChecker,
        Policy::SwitchLocal { share: 0.75 },
    ] {
        let config = config(policy, 0.75, Penalty::Linear, 9);
        let first = run(&graph, &trace, &config);
        assert_eq!(first, run(&graph, &trace, &config));
        let other_seed = run(&graph, &trace, &SimConfig { seed: 10, ..config });
        assert_ne!(first.series, other_seed.series);
    }
}

/// A 16-pod Facebook-style fabric (8 ToRs and 4 fabric switches per pod, 4
/// planes of 8 spines: 1,024 links) for 30 days at an MTTF of 500 hours per
/// link (about 1,500 onsets) and c = 0.75. With this seed the optimizer's
/// gain shows at run level (in most seeds CorrOpt and the fast checker tie,
/// as in the reference's 90% of hours without gain).
///
/// The reference (section 3.6) reports CorrOpt far below switch-local at
/// c = 75%, and the optimizer cutting penalty below the fast checker's in
/// some hours and never doing worse in the rest. Neither order is a theorem
/// for whole runs: a policy's choice now changes which links are free to
/// disable later. What is guaranteed is per decision (the optimizer is
/// exact, so right after each repair CorrOpt leaves no more penalty than
/// the fast checker would from the same state); this fixed scenario checks
/// that the run-level order comes out as the reference reports.
#[test]
fn corropt_at_most_fast_checker_at_most_switch_local_on_a_mid_size_fabric() {
    let graph = facebook_fabric(16, 8, 4, 8);
    let trace = generate_trace(&graph, 500.0, 30.0 * 24.0, 2).unwrap();
    let base = SimConfig {
        seed: 2,
        horizon_s: Some(30.0 * 86_400.0),
        ..SimConfig::new(Policy::CorrOpt, Thresholds::new(0.75).unwrap())
    };
    let share = switch_local_share(0.75, 2);
    let cmp = compare_policies(
        &graph,
        &trace,
        &base,
        &[
            Policy::CorrOpt,
            Policy::FastChecker,
            Policy::SwitchLocal { share },
        ],
    )
    .unwrap();
    let [corropt, checker, local] = [0, 1, 2].map(|i| cmp.results[i].penalty_seconds);
    println!(
        "onsets {}: corropt {corropt:.6e}, fast checker {checker:.6e}, switch-local {local:.6e}",
        trace.len()
    );
    assert!(corropt <= checker, "{corropt} > {checker}");
    assert!(checker <= local, "{checker} > {local}");
    assert!(cmp.penalty_ratio[2] > 2.0, "{:?}", cmp.penalty_ratio);
    assert_eq!(cmp.penalty_ratio[0], 1.0);
}
