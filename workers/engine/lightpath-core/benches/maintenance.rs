//! The maintenance planner on the Facebook-style fabric the CorrOpt benches
//! use (261 pods x 48 ToRs x 4 fabric switches, 4 planes x 48 spines:
//! 100,224 links) at c = 0.75, with 200 ToR up-links disabled for
//! corruption (their ToRs sit at their floor, so a repair there needs a
//! restoration or a wait):
//! - 1,000 work orders, 20 technicians, an 8-hour shift: the heuristic
//!   (greedy list and local search for the time budget), with its gap;
//! - 10 work orders in two pods (breakout cables share ToRs), 3
//!   technicians: branch and bound to a proven optimum.
//!
//! Work orders: 60% one ToR up-link (clean 15 min, reseat 30 min,
//! transceiver 1 h), 25% a breakout cable (the links of one fabric switch
//! port to 4 ToRs of its pod, 2 h), 15% a fabric-to-spine cable (2 h); 70%
//! with an enabled corrupting link (penalty rate `Log` of a log-uniform
//! loss rate in [1e-8, 1e-3)), success 0.8 (recommendation followed, 70%)
//! or 0.5. Travel: same rack 0, same row 5 min, elsewhere 15 min.
//!
//! Run: `cargo bench -p lightpath-core --bench maintenance`
//! (prints each plan's cost, first in first out's, the bound and the gap).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lightpath_core::FabricGraph;
use lightpath_core::corropt::{CorrOptState, LinkState, Penalty, Thresholds};
use lightpath_core::fabric::generators::facebook_fabric;
use lightpath_core::maintenance::{
    Crew, Location, MaintenancePlan, PlanOptions, Restoration, TravelModel, WorkOrder, plan,
};

const PODS: u32 = 261;
const TORS_PER_POD: u32 = 48;
const PLANES: u32 = 4;
const SPINES_PER_PLANE: u32 = 48;
const TRAVEL: TravelModel = TravelModel {
    same_rack_s: 0,
    same_row_s: 300,
    elsewhere_s: 900,
};

/// SplitMix64: a seeded generator, so instances are the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The fabric's link states: 200 ToR up-links (of distinct ToRs) disabled.
fn states(graph: &FabricGraph, rng: &mut SplitMix) -> Vec<LinkState> {
    let mut states = vec![LinkState::Enabled; graph.num_links()];
    let tors = graph.tors().len() as u32;
    let mut hit = std::collections::HashSet::new();
    while hit.len() < 200 {
        let tor = rng.below(tors);
        if hit.insert(tor) {
            let link = graph.up_links(tor)[rng.below(PLANES) as usize];
            states[link as usize] = LinkState::Disabled;
        }
    }
    states
}

/// `count` work orders in the first `pods` pods.
fn orders(
    graph: &FabricGraph,
    states: &[LinkState],
    rng: &mut SplitMix,
    count: usize,
    pods: u32,
) -> Vec<WorkOrder> {
    let tors = PODS * TORS_PER_POD;
    let mut used = std::collections::HashSet::new();
    let mut orders = Vec::with_capacity(count);
    while orders.len() < count {
        let pod = rng.below(pods);
        let plane = rng.below(PLANES);
        let kind = rng.below(100);
        let fabric_switch = tors + pod * PLANES + plane;
        let (footprint, duration_s, location) = if kind < 60 {
            let tor = pod * TORS_PER_POD + rng.below(TORS_PER_POD);
            let link = graph.up_links(tor)[plane as usize];
            let minutes = [15, 30, 60][rng.below(3) as usize];
            (
                vec![link],
                minutes * 60,
                Location {
                    rack: tor,
                    row: pod,
                },
            )
        } else if kind < 85 {
            // One fabric switch port broken out to 4 consecutive ToRs.
            let first = rng.below(TORS_PER_POD / 4) * 4;
            let links = (first..first + 4)
                .map(|t| graph.up_links(pod * TORS_PER_POD + t)[plane as usize])
                .collect();
            let rack = fabric_switch;
            (links, 7200, Location { rack, row: pod })
        } else {
            let link = graph.up_links(fabric_switch)[rng.below(SPINES_PER_PLANE) as usize];
            let spine = graph.upper(link);
            (
                vec![link],
                7200,
                Location {
                    rack: spine,
                    row: PODS + plane,
                },
            )
        };
        if footprint.iter().any(|&l| !used.insert(l)) {
            continue;
        }
        // A disabled sibling on a footprint ToR: re-enable it during the repair.
        let restored: Vec<u32> = footprint
            .iter()
            .map(|&l| graph.lower(l))
            .filter(|&s| graph.tier(s) == 0)
            .flat_map(|tor| graph.up_links(tor).iter().copied())
            .filter(|&l| states[l as usize] == LinkState::Disabled && !footprint.contains(&l))
            .collect();
        let corrupting_enabled =
            states[footprint[0] as usize] == LinkState::Enabled && rng.below(10) < 7;
        let loss_rate = 10f64.powf(-8.0 + 5.0 * rng.unit());
        orders.push(WorkOrder {
            id: orders.len() as u64 + 1,
            footprint,
            duration_s,
            success_probability: if rng.below(10) < 7 { 0.8 } else { 0.5 },
            location,
            penalty_rate: if corrupting_enabled {
                Penalty::Log.of(loss_rate)
            } else {
                0.0
            },
            restoration: (!restored.is_empty()).then(|| Restoration {
                links: restored,
                penalty_rate: Penalty::Log.of(10f64.powf(-8.0 + 5.0 * rng.unit())),
            }),
        });
    }
    orders
}

fn report(name: &str, plan: &MaintenancePlan) {
    eprintln!(
        "{name}: {} visits, {} unscheduled, expected {:.1} penalty-hours, FIFO {:.1} \
         (ratio {:.3}), lower bound {:.1}, gap {:.2}%, proven optimal {} ({} nodes)",
        plan.visits.len(),
        plan.unscheduled.len(),
        plan.expected_penalty_hours,
        plan.fifo_penalty_hours,
        plan.expected_penalty_hours / plan.fifo_penalty_hours,
        plan.lower_bound,
        100.0 * plan.gap(),
        plan.proven_optimal,
        plan.nodes,
    );
}

fn planner(c: &mut Criterion) {
    let graph = facebook_fabric(PODS, TORS_PER_POD, PLANES, SPINES_PER_PLANE);
    let thresholds = Thresholds::new(0.75).unwrap();
    let mut rng = SplitMix(18);
    let states = states(&graph, &mut rng);
    let mut state = CorrOptState::new(&graph, states.clone(), &thresholds).unwrap();
    let mut group = c.benchmark_group("maintenance_planner");
    group.sample_size(10);

    let many = orders(&graph, &states, &mut rng, 1000, PODS);
    let crew = Crew {
        technicians: 20,
        shift_s: 8 * 3600,
    };
    for (name, budget) in [
        ("1000_orders_greedy_only", 0),
        ("1000_orders_budget_3s", 3000),
    ] {
        let options = PlanOptions {
            time_budget: Duration::from_millis(budget),
            ..PlanOptions::default()
        };
        report(
            name,
            &plan(&mut state, &many, crew, TRAVEL, options).unwrap(),
        );
        group.bench_function(name, |b| {
            b.iter(|| black_box(plan(&mut state, &many, crew, TRAVEL, options).unwrap()))
        });
    }

    let few = orders(&graph, &states, &mut rng, 10, 2);
    let crew = Crew {
        technicians: 3,
        shift_s: 8 * 3600,
    };
    let options = PlanOptions {
        time_budget: Duration::from_secs(60),
        ..PlanOptions::default()
    };
    let exact = plan(&mut state, &few, crew, TRAVEL, options).unwrap();
    report("10_orders_exact", &exact);
    assert!(exact.proven_optimal);
    group.bench_function("10_orders_exact", |b| {
        b.iter(|| black_box(plan(&mut state, &few, crew, TRAVEL, options).unwrap()))
    });
    group.finish();

    // How the exact search grows with the orders (one timed run each, more
    // orders of the same kind in the same two pods, 20 s at most).
    let mut more = few.clone();
    let extra = orders(&graph, &states, &mut rng, 8, 2);
    for (i, order) in extra.into_iter().enumerate() {
        let clash = |o: &WorkOrder| o.footprint.iter().any(|l| order.footprint.contains(l));
        if !more.iter().any(clash) {
            more.push(WorkOrder {
                id: 100 + i as u64,
                ..order
            });
        }
    }
    for count in [6, 8, 10, 12, 14, 16] {
        let Some(subset) = more.get(..count) else {
            break;
        };
        let options = PlanOptions {
            exact_up_to: count,
            time_budget: Duration::from_secs(20),
            ..PlanOptions::default()
        };
        let started = std::time::Instant::now();
        let exact = plan(&mut state, subset, crew, TRAVEL, options).unwrap();
        eprintln!(
            "exact search, {count} orders: {:.1} ms, {} nodes, proven optimal {}",
            started.elapsed().as_secs_f64() * 1e3,
            exact.nodes,
            exact.proven_optimal,
        );
    }
}

criterion_group!(benches, planner);
criterion_main!(benches);
