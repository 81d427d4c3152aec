//! ShareBackup and Larry in the engine (issue #8): the failover planner on
//! k = 16 and k = 48 event logs, backup-pool sizing, and the Larry
//! controller over an hour of 500 ms periods.
//!
//! Run: `cargo bench -p lightpath-core --bench reconfig`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightpath_core::reconfig::larry::{self, ControllerConfig, CounterSample, Policy, RackSet};
use lightpath_core::reconfig::pool::{self, SplitMix64};
use lightpath_core::reconfig::sharebackup::{self, FatTree};

fn planner(c: &mut Criterion) {
    let mut group = c.benchmark_group("sharebackup_plan");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(10);
    for (k, events) in [(16, 100), (16, 1000), (48, 100), (48, 1000)] {
        let tree = FatTree::new(k, k, 1).expect("valid");
        let log = sharebackup::synthetic_log(&tree, events, 42);
        group.bench_with_input(BenchmarkId::new(format!("k{k}"), events), &log, |b, log| {
            b.iter(|| {
                sharebackup::plan(&tree, black_box(log), 0.5)
                    .expect("valid")
                    .to_json()
                    .len()
            });
        });
    }
    let tree = FatTree::new(48, 48, 1).expect("valid");
    let schedule =
        sharebackup::plan(&tree, &sharebackup::synthetic_log(&tree, 100, 42), 0.5).expect("valid");
    group.bench_function("verify_k48_100", |b| {
        b.iter(|| sharebackup::verify(black_box(&schedule)).len())
    });
    group.finish();
}

fn sizing(c: &mut Criterion) {
    let mut group = c.benchmark_group("pool_sizing");
    group.bench_function("size_k48_target_1e-9", |b| {
        b.iter(|| pool::size_pool(24, 120, black_box(50_000.0), 24.0, 1e-9).expect("valid"));
    });
    group.sample_size(10);
    group.bench_function("monte_carlo_g24_1e7h", |b| {
        b.iter(|| pool::monte_carlo_exhaustion(24, 50_000.0, 24.0, 1, black_box(1e7), 1));
    });
    group.finish();
}

/// An hour of 500 ms counters for m racks: a base load with bursts that
/// move between racks every few minutes.
fn hour_of_counters(m: usize, seed: u64) -> Vec<CounterSample> {
    let mut rng = SplitMix64::new(seed);
    let mut acc = vec![0u64; m];
    let mut samples = vec![CounterSample {
        time_s: 0.0,
        ingress_bytes: acc.clone(),
        egress_bytes: acc.clone(),
    }];
    let mut hot = 0usize;
    for step in 1..=7200usize {
        if step % 480 == 0 {
            hot = (rng.next_u64() % m as u64) as usize;
        }
        for (t, a) in acc.iter_mut().enumerate() {
            let gbps = if t == hot { 900.0 } else { 150.0 } * (0.8 + 0.4 * rng.next_unit());
            *a += (gbps * 1e9 / 8.0 * 0.5) as u64;
        }
        samples.push(CounterSample {
            time_s: step as f64 * 0.5,
            ingress_bytes: acc.clone(),
            egress_bytes: acc.clone(),
        });
    }
    samples
}

fn controller(c: &mut Criterion) {
    let mut group = c.benchmark_group("larry_hour");
    group.sample_size(10);
    for m in [4usize, 8] {
        // The seed's simulation: 100G links, S = 6, L = 8, R = 2 (u = 8, 2× oversubscribed).
        let rack_set = RackSet::uniform(m, 6, 8, 2, 100.0);
        let samples = hour_of_counters(m, 7);
        for policy in [Policy::Conservative, Policy::Proportional] {
            let config = ControllerConfig {
                threshold: 0.85,
                policy,
            };
            group.bench_function(format!("m{m}_{policy:?}"), |b| {
                b.iter(|| {
                    larry::run(&rack_set, black_box(&samples), &config)
                        .expect("valid")
                        .metrics
                        .reconfigurations
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, planner, sizing, controller);
criterion_main!(benches);
