//! Trace simulator on the Facebook-style fabric (261 pods x 48 ToRs x 4
//! fabric switches, 4 planes x 48 spines: 100,224 links): one year of
//! corruption onsets at an MTTF of 10,000 hours per link, replayed under each
//! policy at c = 0.75 with the default repair model.
//!
//! A plain timed main rather than Criterion: one run takes seconds, and the
//! issue's target (under 30 s for all three policies) is about one run.
//!
//! Run: `cargo bench -p lightpath-core --bench corropt_sim`
//! Peak memory: `/usr/bin/time -v target/release/deps/corropt_sim-* --bench`
//! (maximum resident set size).

use std::ops::ControlFlow;
use std::time::Instant;

use lightpath_core::corropt::{
    Policy, SimConfig, Thresholds, generate_trace, simulate_reporting, switch_local_share,
};
use lightpath_core::fabric::generators::facebook_fabric;

const CAPACITY: f64 = 0.75;
const MTTF_HOURS: f64 = 10_000.0;
const HOURS: f64 = 365.0 * 24.0;
const SEED: u64 = 1;

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and
    // then a smoke run on a small fabric is enough.
    let full = std::env::args().any(|a| a == "--bench");
    let fabric = if full {
        facebook_fabric(261, 48, 4, 48)
    } else {
        facebook_fabric(4, 6, 4, 6)
    };
    let start = Instant::now();
    let trace = generate_trace(&fabric, MTTF_HOURS, HOURS, SEED).expect("valid parameters");
    println!(
        "fabric: {} switches, {} links; trace: {} onsets in {:.3} s",
        fabric.num_switches(),
        fabric.num_links(),
        trace.len(),
        start.elapsed().as_secs_f64()
    );
    let share = switch_local_share(CAPACITY, fabric.num_tiers() - 1);
    let thresholds = Thresholds::new(CAPACITY).expect("valid threshold");
    let mut total = 0.0;
    let mut corropt_penalty = None;
    for policy in [
        Policy::CorrOpt,
        Policy::FastChecker,
        Policy::SwitchLocal { share },
    ] {
        let config = SimConfig {
            horizon_s: Some(HOURS * 3600.0),
            seed: SEED,
            ..SimConfig::new(policy, thresholds.clone())
        };
        let start = Instant::now();
        // With a reporter, as a job runs it (the reports are what lets it stop).
        let mut reports = 0;
        let result = simulate_reporting(&fabric, &trace, &config, &mut |_| {
            reports += 1;
            ControlFlow::Continue(())
        })
        .expect("valid trace")
        .expect("never stopped");
        let seconds = start.elapsed().as_secs_f64();
        total += seconds;
        let reference = *corropt_penalty.get_or_insert(result.penalty_seconds);
        let c = result.counts;
        println!(
            "{:>12}: {seconds:7.3} s  penalty x s {:.4e} (x{:.3e} CorrOpt)  lowest worst ToR {:.4}  \
             disables {}  repairs {}  refused {}  optimizer runs {}  series {} steps  breaches {}  \
             reports {reports}",
            policy.name(),
            result.penalty_seconds,
            result.penalty_seconds / reference,
            result.lowest_worst_fraction,
            c.disables,
            c.repairs,
            c.refused_arrivals,
            c.optimizer_runs,
            result.series.len(),
            c.threshold_breaches,
        );
    }
    println!("all three policies: {total:.3} s");
}
