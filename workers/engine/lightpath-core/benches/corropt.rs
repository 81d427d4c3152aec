//! CorrOpt deciders on the Facebook-style fabric (261 pods x 48 ToRs x 4
//! fabric switches, 4 planes x 48 spines: 100,224 links) at c = 0.75.
//!
//! Run: `cargo bench -p lightpath-core --bench corropt`
//! (small sample sizes; a run takes well under a minute).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use lightpath_core::FabricGraph;
use lightpath_core::corropt::{CorrOptState, CorruptingLink, LinkState, Penalty, Thresholds};
use lightpath_core::fabric::generators::facebook_fabric;

fn facebook() -> FabricGraph {
    facebook_fabric(261, 48, 4, 48)
}

/// SplitMix64: a seeded generator, so placements are the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Log-uniform loss rate in [1e-8, 1e-2).
    fn loss_rate(&mut self) -> f64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        10f64.powf(-8.0 + 6.0 * u)
    }
}

/// `count` distinct corrupting links drawn from `pool`.
fn corrupting(rng: &mut SplitMix, pool: &[u32], count: usize) -> Vec<CorruptingLink> {
    let mut chosen = std::collections::HashSet::new();
    let mut links = Vec::with_capacity(count);
    while links.len() < count {
        let link = pool[rng.below(pool.len() as u64) as usize];
        if chosen.insert(link) {
            links.push(CorruptingLink::new(link, rng.loss_rate()));
        }
    }
    links
}

fn fast_checker(c: &mut Criterion) {
    let graph = facebook();
    let thresholds = Thresholds::new(0.75).unwrap();
    let mut group = c.benchmark_group("corropt_fast_checker");
    let first_fabric_switch = graph.tors().len() as u32;
    // A fabric-to-spine link: its down-cone is one fabric switch and 48 ToRs.
    let spine_link = graph.up_links(first_fabric_switch)[0];
    let tor_link = graph.up_links(0)[0];
    for (name, link) in [
        ("disable_spine_link", spine_link),
        ("disable_tor_link", tor_link),
    ] {
        let mut state = CorrOptState::all_enabled(&graph, &thresholds).unwrap();
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let start = Instant::now();
                    let d = state
                        .check(CorruptingLink::new(link, 1e-4), Penalty::Linear)
                        .unwrap();
                    total += start.elapsed();
                    assert!(d.disabled);
                    state.set_link_state(link, LinkState::Enabled).unwrap();
                }
                total
            })
        });
    }
    // ToR 0 already lost one up-link (144 of 192 paths = its floor), so the
    // spine link is refused and the counts are rolled back.
    let mut state = CorrOptState::all_enabled(&graph, &thresholds).unwrap();
    state
        .set_link_state(graph.up_links(0)[1], LinkState::Disabled)
        .unwrap();
    group.bench_function("refuse_spine_link", |b| {
        b.iter(|| {
            let d = state
                .check(CorruptingLink::new(spine_link, 1e-4), Penalty::Linear)
                .unwrap();
            assert!(!d.disabled);
            d
        })
    });
    group.finish();
}

fn optimizer(c: &mut Criterion) {
    let graph = facebook();
    let thresholds = Thresholds::new(0.75).unwrap();
    let state = CorrOptState::all_enabled(&graph, &thresholds).unwrap();
    let all: Vec<u32> = (0..graph.num_links() as u32).collect();
    let spread = corrupting(&mut SplitMix(2017), &all, 200);
    // The same 200 links crowded into 4 pods: large segments, a hard search.
    let pods: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&l| {
            let lower = graph.lower(l);
            let pod = if graph.tier(lower) == 0 {
                lower / 48
            } else {
                (lower - graph.tors().len() as u32) / 4
            };
            pod < 4
        })
        .collect();
    let crowded = corrupting(&mut SplitMix(2017), &pods, 200);

    // Step penalties put many links on equal penalty, the hardest case for
    // the bound; reported once with its anytime answer.
    for (name, links, penalty) in [
        ("spread", &spread, Penalty::Linear),
        ("crowded_4_pods", &crowded, Penalty::Linear),
        ("crowded_4_pods_step_penalty", &crowded, Penalty::Step),
    ] {
        let start = Instant::now();
        let opt = state
            .optimize(links, penalty, Some(Duration::from_secs(1)))
            .unwrap();
        eprintln!(
            "optimizer {name} ({:.1?}): {} disabled, {} kept, pruned {}, {} segments (largest {}), \
             {} nodes, proven optimal: {}, remaining {:.3e} >= bound {:.3e}",
            start.elapsed(),
            opt.disable.len(),
            opt.keep_enabled.len(),
            opt.pruned,
            opt.segments,
            opt.largest_segment,
            opt.nodes,
            opt.proven_optimal,
            opt.remaining_penalty,
            opt.remaining_penalty_lower_bound,
        );
    }

    let mut group = c.benchmark_group("corropt_optimizer_200_links_c075");
    group.bench_function("spread", |b| {
        b.iter(|| {
            state
                .optimize(black_box(&spread), Penalty::Linear, None)
                .unwrap()
        })
    });
    group.bench_function("crowded_4_pods_budget_1s", |b| {
        b.iter(|| {
            state
                .optimize(
                    black_box(&crowded),
                    Penalty::Linear,
                    Some(Duration::from_secs(1)),
                )
                .unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = fast_checker, optimizer
}
criterion_main!(benches);
