//! Path counting on production-sized fabrics.
//!
//! Run: `cargo bench -p lightpath-core --bench path_counting`
//! (sample size and measurement time are kept small so a run takes ~30 s).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lightpath_core::FabricGraph;
use lightpath_core::fabric::generators::{facebook_fabric, fat_tree};

/// 261 pods x 48 ToRs x 4 fabric switches, 4 planes x 48 spines: 100,224 links.
fn facebook() -> FabricGraph {
    facebook_fabric(261, 48, 4, 48)
}

/// Every 100th link unusable: a heavily degraded but realistic mask.
fn degraded_mask(graph: &FabricGraph) -> Vec<bool> {
    (0..graph.num_links()).map(|l| l % 100 != 0).collect()
}

fn up_paths(c: &mut Criterion) {
    let mut group = c.benchmark_group("up_paths");
    for (name, graph) in [
        ("fat_tree_k32", fat_tree(32)),
        ("fat_tree_k64", fat_tree(64)),
        ("facebook_261_pods", facebook()),
    ] {
        let mask = degraded_mask(&graph);
        group.bench_function(name, |b| b.iter(|| graph.up_paths(black_box(&mask))));
    }
    group.finish();
}

fn facebook_operations(c: &mut Criterion) {
    let graph = facebook();
    let mask = degraded_mask(&graph);
    let mut group = c.benchmark_group("facebook_261_pods");
    group.bench_function("build", |b| {
        // The arrays a caller would pass in, rebuilt from the generated graph.
        let tiers = graph.switch_tiers().to_vec();
        let lower: Vec<u32> = (0..graph.num_links() as u32)
            .map(|l| graph.lower(l))
            .collect();
        let upper: Vec<u32> = (0..graph.num_links() as u32)
            .map(|l| graph.upper(l))
            .collect();
        b.iter(|| FabricGraph::new(3, tiers.clone(), lower.clone(), upper.clone()))
    });
    group.bench_function("tor_capacity", |b| {
        b.iter(|| graph.tor_capacity(black_box(&mask)))
    });
    group.bench_function("incremental_disable_enable_uplink", |b| {
        // A fabric-to-spine link: its fabric switch and that pod's 48 ToRs change.
        let link = graph.up_links(graph.tors().len() as u32)[0];
        let mut state = lightpath_core::PathCounts::new(&graph, mask.clone()).unwrap();
        b.iter(|| {
            state.set_link_usable(&graph, link, false).unwrap();
            state.set_link_usable(&graph, link, true).unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = up_paths, facebook_operations
}
criterion_main!(benches);
