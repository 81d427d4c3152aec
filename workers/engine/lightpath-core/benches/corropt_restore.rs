//! The capacity restoration on the Facebook-style fabric (261 pods x 48 ToRs
//! x 4 fabric switches, 4 planes x 48 spines: 100,224 links) at c = 0.75:
//! 200 links disabled for corruption crowded into 4 pods are the candidates,
//! and a repair in pod 0 takes a footprint down.
//!
//! Footprints: a breakout cable of one ToR (its 4 up-links: nothing can save
//! it, the "none exists" answer); a breakout port of a fabric switch (its
//! links to 4 ToRs); a line card of a fabric switch (its links to 16 ToRs).
//!
//! Run: `cargo bench -p lightpath-core --bench corropt_restore`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use lightpath_core::corropt::{CorrOptState, CorruptingLink, LinkState, Penalty, Thresholds};
use lightpath_core::fabric::generators::facebook_fabric;

const PODS: u32 = 261;
const TORS_PER_POD: u32 = 48;
const PLANES: u32 = 4;

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

    /// Log-uniform loss rate in [1e-8, 1e-2).
    fn loss_rate(&mut self) -> f64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        10f64.powf(-8.0 + 6.0 * u)
    }
}

fn restoration(c: &mut Criterion) {
    let graph = facebook_fabric(PODS, TORS_PER_POD, PLANES, 48);
    let tors = graph.tors().len() as u32;
    let pod_of = |l: u32| {
        let lower = graph.lower(l);
        if graph.tier(lower) == 0 {
            lower / TORS_PER_POD
        } else {
            (lower - tors) / PLANES
        }
    };
    let crowded: Vec<u32> = (0..graph.num_links() as u32)
        .filter(|&l| pod_of(l) < 4)
        .collect();
    let mut rng = SplitMix(2017);
    let mut chosen = std::collections::HashSet::new();
    let mut candidates = Vec::new();
    while candidates.len() < 200 {
        let link = crowded[(rng.next() % crowded.len() as u64) as usize];
        if chosen.insert(link) {
            candidates.push(CorruptingLink::new(link, rng.loss_rate()));
        }
    }
    let mut states = vec![LinkState::Enabled; graph.num_links()];
    for c in &candidates {
        states[c.link as usize] = LinkState::Disabled;
    }
    let state = CorrOptState::new(&graph, states, &Thresholds::new(0.75).unwrap()).unwrap();

    // ToR t's link to fabric switch j of its pod is t * PLANES + j.
    let to_fabric_switch_0 = |t: u32| t * PLANES;
    let fabric_switch_0 = graph.upper(to_fabric_switch_0(0));
    let footprints: Vec<(&str, Vec<u32>)> = vec![
        ("breakout_one_tor_4_links", graph.up_links(0).to_vec()),
        (
            "breakout_fabric_port_4_links",
            (0..4).map(to_fabric_switch_0).collect(),
        ),
        (
            "line_card_16_links",
            (0..16).map(to_fabric_switch_0).collect(),
        ),
    ];

    let mut group = c.benchmark_group("corropt_restore_200_candidates_c075");
    for (name, footprint) in &footprints {
        assert!(
            footprint
                .iter()
                .all(|&l| graph.upper(l) == fabric_switch_0 || graph.lower(l) == 0)
        );
        let alone: Vec<(u32, LinkState)> = footprint
            .iter()
            .map(|&l| (l, LinkState::Disabled))
            .collect();
        let blocking = state.clone().evaluate(&alone).unwrap().blocking.len();
        let start = Instant::now();
        let r = state
            .restore(footprint, &candidates, Penalty::Linear, None)
            .unwrap();
        eprintln!(
            "restore {name} ({:.1?}): alone it starves {blocking} ToRs; enable {} links \
             (added penalty {:.3e}, bound {:.3e}), unreachable {:?}, {} nodes, proven optimal: {}",
            start.elapsed(),
            r.enable.len(),
            r.added_penalty,
            r.added_penalty_lower_bound,
            r.unreachable
                .iter()
                .map(|u| (u.tor, u.paths_best, u.floor))
                .collect::<Vec<_>>(),
            r.nodes,
            r.proven_optimal,
        );
        group.bench_function(*name, |b| {
            b.iter(|| {
                state
                    .restore(
                        black_box(footprint),
                        black_box(&candidates),
                        Penalty::Linear,
                        None,
                    )
                    .unwrap()
            })
        });
    }
    group.bench_function("recover", |b| {
        b.iter(|| {
            state
                .recover(black_box(&candidates), Penalty::Linear, None)
                .unwrap()
        })
    });
    let start = Instant::now();
    let r = state.recover(&candidates, Penalty::Linear, None).unwrap();
    eprintln!(
        "recover ({:.1?}): {} ToRs under their requirement; enable {} links (added penalty {:.3e}), \
         {} unreachable, {} nodes, proven optimal: {}",
        start.elapsed(),
        state.tors_below_threshold().len(),
        r.enable.len(),
        r.added_penalty,
        r.unreachable.len(),
        r.nodes,
        r.proven_optimal,
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = restoration
}
criterion_main!(benches);
