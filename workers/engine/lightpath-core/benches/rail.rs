//! RAIL in the engine on the k = 32 fat tree of the seed (512 ToRs, 16,384
//! links), plus k = 16 and k = 64 for how the cost grows.
//!
//! Run: `cargo bench -p lightpath-core --bench rail`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightpath_core::FabricGraph;
use lightpath_core::fabric::generators::fat_tree;
use lightpath_core::rail::{
    DEFAULT_BOUNDS, DEFAULT_REPAIR_ABOVE, LinkLengths, PlanConfig, build_classes, pair_fractions,
    plan_stretch, worst_path,
};

/// SplitMix64: a seeded generator, so every run sees the same links.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Log-uniform in [10^lo, 10^hi).
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        10f64.powf(lo + (hi - lo) * self.unit())
    }
}

/// Per-direction loss rates: good links at 1e-10..1e-8, 1 % of directions
/// gray at 1e-7..0.2 (some above the 10 % repair threshold).
fn losses(graph: &FabricGraph, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = SplitMix(seed);
    let mut draw = || {
        if rng.unit() < 0.01 {
            rng.log_uniform(-7.0, -0.7)
        } else {
            rng.log_uniform(-10.0, -8.0)
        }
    };
    let n = graph.num_links();
    let up = (0..n).map(|_| draw()).collect();
    let down = (0..n).map(|_| draw()).collect();
    (up, down)
}

fn worst(c: &mut Criterion) {
    let mut group = c.benchmark_group("rail_worst_path");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for k in [16u32, 32, 64] {
        let g = fat_tree(k);
        let (up, down) = losses(&g, 7);
        let usable = vec![true; g.num_links()];
        group.bench_with_input(BenchmarkId::new("fat_tree", k), &k, |b, _| {
            b.iter(|| worst_path(black_box(&g), &usable, &up, &down).unwrap())
        });
    }
    group.finish();
}

fn classes(c: &mut Criterion) {
    let mut group = c.benchmark_group("rail_classes");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for k in [16u32, 32] {
        let g = fat_tree(k);
        let (up, down) = losses(&g, 11);
        let alive = vec![true; g.num_links()];
        group.bench_with_input(
            BenchmarkId::new("three_classes_1pct_gray", k),
            &k,
            |b, _| {
                b.iter(|| {
                    build_classes(
                        black_box(&g),
                        &alive,
                        &up,
                        &down,
                        &DEFAULT_BOUNDS,
                        DEFAULT_REPAIR_ABOVE,
                    )
                    .unwrap()
                })
            },
        );
    }
    group.finish();
}

fn fractions(c: &mut Criterion) {
    let mut group = c.benchmark_group("rail_pair_fractions");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for k in [16u32, 32] {
        let g = fat_tree(k);
        let (up, down) = losses(&g, 13);
        let usable = vec![true; g.num_links()];
        let good = |loss: &[f64]| {
            loss.iter()
                .map(|&p| if p <= 1e-8 { 1.0 } else { 0.0 })
                .collect::<Vec<f64>>()
        };
        let (gu, gd) = (good(&up), good(&down));
        group.bench_with_input(BenchmarkId::new("all_tor_pairs", k), &k, |b, _| {
            b.iter(|| {
                pair_fractions(black_box(&g), &usable, &gu, &gd, &[0.0001, 0.01, 0.5]).unwrap()
            })
        });
    }
    group.finish();
}

fn stretch(c: &mut Criterion) {
    let mut group = c.benchmark_group("rail_stretch_plan");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    let g = fat_tree(32);
    let mut rng = SplitMix(17);
    let lengths = LinkLengths::PerLink {
        length_m: (0..g.num_links()).map(|_| 500.0 * rng.unit()).collect(),
        speed_gbps: vec![10; g.num_links()],
    };
    let config = PlanConfig::seed(Some(0.95));
    group.bench_function("per_link_with_pairs_and_sweeps_k32", |b| {
        b.iter(|| plan_stretch(black_box(&g), &lengths, &config).unwrap())
    });
    let uniform = LinkLengths::Uniform {
        min_m: 0.0,
        max_m: 500.0,
        speed_gbps: 10,
    };
    let mut table = PlanConfig::seed(Some(0.95));
    table.pair_stats = false;
    group.bench_function("expected_value_with_sweeps_k32", |b| {
        b.iter(|| plan_stretch(black_box(&g), &uniform, &table).unwrap())
    });
    group.finish();
}

criterion_group!(benches, worst, classes, fractions, stretch);
criterion_main!(benches);
