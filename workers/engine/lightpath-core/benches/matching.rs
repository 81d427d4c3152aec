//! Circuit schedules in the engine (issue #7): exact matching on dense and
//! sparse demand, greedy for comparison, and a one-hour plan of a 320-rack
//! zone at 1 s slots.
//!
//! Run: `cargo bench -p lightpath-core --bench matching`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightpath_core::matching::slot::{self, Candidate};
use lightpath_core::matching::{ScheduleConfig, Window, max_weight_matching, plan};

/// SplitMix64: a seeded generator, so every run sees the same demand.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Complete graph with integer weights uniform in 1..=1e6 (the instance the
/// Python comparison script builds with the same seed).
pub fn dense(n: u32, seed: u64) -> Vec<(u32, u32, i64)> {
    let mut rng = SplitMix(seed);
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            edges.push((a, b, (rng.next() % 1_000_000) as i64 + 1));
        }
    }
    edges
}

/// Random graph with `n * degree / 2` distinct edges.
fn sparse(n: u32, degree: u32, seed: u64) -> Vec<(u32, u32, i64)> {
    let mut rng = SplitMix(seed);
    let mut seen = std::collections::HashSet::new();
    let target = (n as usize * degree as usize) / 2;
    let mut edges = Vec::new();
    while edges.len() < target {
        let a = (rng.next() % n as u64) as u32;
        let b = (rng.next() % n as u64) as u32;
        if a != b && seen.insert((a.min(b), a.max(b))) {
            edges.push((a.min(b), a.max(b), (rng.next() % 1_000_000) as i64 + 1));
        }
    }
    edges
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("matching_exact_dense");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for n in [250u32, 500, 1000] {
        let edges = dense(n, 7);
        group.bench_with_input(BenchmarkId::from_parameter(n), &edges, |b, edges| {
            b.iter(|| max_weight_matching(n as usize, black_box(edges)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("matching_exact_sparse_degree10");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for n in [1000u32, 2000, 4000] {
        let edges = sparse(n, 10, 11);
        group.bench_with_input(BenchmarkId::from_parameter(n), &edges, |b, edges| {
            b.iter(|| max_weight_matching(n as usize, black_box(edges)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("matching_greedy_dense");
    group.sample_size(10);
    let n = 1000u32;
    let candidates: Vec<Candidate> = dense(n, 7)
        .into_iter()
        .map(|(a, b, weight)| Candidate {
            a,
            b,
            rank: 1,
            weight,
        })
        .collect();
    let ports = vec![1u32; n as usize];
    group.bench_function("1000", |b| {
        b.iter(|| slot::greedy(black_box(&ports), black_box(&candidates)))
    });
    group.finish();
}

/// One hour of 1 s windows on a 320-rack zone: every rack talks to 8
/// partners that drift slowly (a partner is replaced with probability 0.05
/// per window), with volumes of 10 MB to 2 GB per window.
fn hour_windows(racks: u32, windows: usize, seed: u64) -> Vec<Window> {
    let mut rng = SplitMix(seed);
    let mut partners: Vec<Vec<u32>> = (0..racks)
        .map(|_| (0..8).map(|_| (rng.next() % racks as u64) as u32).collect())
        .collect();
    (0..windows)
        .map(|_| {
            let mut window = Vec::new();
            for (src, list) in partners.iter_mut().enumerate() {
                for dst in list.iter_mut() {
                    if rng.next().is_multiple_of(20) {
                        *dst = (rng.next() % racks as u64) as u32;
                    }
                    if *dst != src as u32 {
                        let bytes = 10_000_000 + rng.next() % 2_000_000_000;
                        window.push((src as u32, *dst, bytes));
                    }
                }
            }
            window
        })
        .collect()
}

fn hour_plan(c: &mut Criterion) {
    let mut group = c.benchmark_group("matching_plan_hour");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(20));
    let windows = hour_windows(320, 3601, 5);
    let config = ScheduleConfig::new(320);
    group.bench_function("320_racks_3600_slots", |b| {
        b.iter(|| plan(black_box(&config), black_box(&windows)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, exact, hour_plan);
criterion_main!(benches);
