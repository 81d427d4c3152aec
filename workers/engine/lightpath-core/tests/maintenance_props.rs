//! Property tests of the maintenance planner on random small fabrics, link
//! states and work orders:
//! - an independent checker replays every plan minute by minute, counting
//!   each ToR's up-paths itself: no instant puts a ToR under its floor, no
//!   technician is in two places, every visit fits the shift and the travel;
//!   it recomputes the expected penalty-hours from the visits;
//! - every order left unscheduled says why, and the reason holds (longer
//!   than the shift exactly when it is, no penalty only at rate 0);
//! - the plan never costs more than first in first out, and never less
//!   than its lower bound, exact or heuristic; the heuristic's bound never
//!   exceeds the exact optimum;
//! - up to 6 orders, the exact plan equals brute force over every list of
//!   (order, technician) the planner decodes, also when most orders have no
//!   penalty (the search places those once, after the priced ones are
//!   decided) or a crowded fabric leaves some never safe (the search takes
//!   them out of the lists it tries).

mod common;

use std::time::Duration;

use common::fabric_sized;
use lightpath_core::FabricGraph;
use lightpath_core::corropt::{CorrOptState, LinkState, Thresholds};
use lightpath_core::maintenance::{
    Crew, LeaveReason, Location, MaintenancePlan, PlanOptions, Planner, Restoration, TravelModel,
    WorkOrder,
};
use proptest::prelude::*;
use proptest::sample::Index;

const SERVICE_S: u64 = 172_800;
/// Fractions exact in binary, so that the checker's `ceil` needs no snapping.
const FRACTIONS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const RATES: [f64; 5] = [0.0, 0.5, 1.0, 3.0, 10.0];
const PROBABILITIES: [f64; 4] = [0.0, 0.5, 0.8, 1.0];

#[derive(Debug, Clone)]
struct Instance {
    graph: FabricGraph,
    states: Vec<LinkState>,
    threshold: f64,
    orders: Vec<WorkOrder>,
    crew: Crew,
    travel: TravelModel,
}

/// A work order drawn before it is fitted to the fabric's links.
#[derive(Debug, Clone)]
struct Draft {
    footprint: Vec<Index>,
    restoration: Option<(Vec<Index>, usize)>,
    minutes: u64,
    probability: usize,
    rate: usize,
    rack: u32,
}

fn draft() -> impl Strategy<Value = Draft> {
    (
        prop::collection::vec(any::<Index>(), 1..=3),
        prop::option::of((prop::collection::vec(any::<Index>(), 1..=2), 0..RATES.len())),
        1u64..=12,
        0..PROBABILITIES.len(),
        0..RATES.len(),
        0u32..4,
    )
        .prop_map(
            |(footprint, restoration, quarters, probability, rate, rack)| Draft {
                footprint,
                restoration,
                minutes: 15 * quarters,
                probability,
                rate,
                rack,
            },
        )
}

fn instance(
    orders: std::ops::RangeInclusive<usize>,
    technicians: u32,
) -> impl Strategy<Value = Instance> {
    (
        fabric_sized(2..=3, 2..=8),
        prop::collection::vec(0u8..10, 24),
        0..FRACTIONS.len(),
        prop::collection::vec(draft(), orders),
        1..=technicians,
        4u64..=16,
        (0u64..=10, 0u64..=30),
    )
        .prop_map(
            |(graph, state_draws, fraction, drafts, technicians, quarters, (row_m, far_m))| {
                let states: Vec<LinkState> = (0..graph.num_links())
                    .map(|l| match state_draws[l % state_draws.len()] {
                        0 | 1 => LinkState::Disabled,
                        2 => LinkState::Down,
                        _ => LinkState::Enabled,
                    })
                    .collect();
                let all: Vec<u32> = (0..graph.num_links() as u32).collect();
                let disabled: Vec<u32> = all
                    .iter()
                    .copied()
                    .filter(|&l| states[l as usize] == LinkState::Disabled)
                    .collect();
                let orders = drafts
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let mut footprint: Vec<u32> =
                            d.footprint.iter().map(|x| *x.get(&all)).collect();
                        footprint.sort_unstable();
                        footprint.dedup();
                        let restoration = d.restoration.as_ref().and_then(|(links, rate)| {
                            let mut links: Vec<u32> = if disabled.is_empty() {
                                Vec::new()
                            } else {
                                links.iter().map(|x| *x.get(&disabled)).collect()
                            };
                            links.sort_unstable();
                            links.dedup();
                            links.retain(|l| !footprint.contains(l));
                            (!links.is_empty()).then(|| Restoration {
                                links,
                                penalty_rate: RATES[*rate] / 10.0,
                            })
                        });
                        WorkOrder {
                            // Ids not in input order, so first in first out reorders.
                            id: 100 - 7 * i as u64 % 13,
                            footprint,
                            duration_s: 60 * d.minutes,
                            success_probability: PROBABILITIES[d.probability],
                            location: Location {
                                rack: d.rack,
                                row: d.rack / 2,
                            },
                            penalty_rate: RATES[d.rate],
                            restoration,
                        }
                    })
                    .collect();
                Instance {
                    graph,
                    states,
                    threshold: FRACTIONS[fraction],
                    orders,
                    crew: Crew {
                        technicians,
                        shift_s: quarters * 15 * 60,
                    },
                    travel: TravelModel {
                        same_rack_s: 0,
                        same_row_s: 60 * row_m,
                        elsewhere_s: 60 * (row_m + far_m),
                    },
                }
            },
        )
        .prop_filter("ids must be distinct", |inst| {
            let mut ids: Vec<u64> = inst.orders.iter().map(|o| o.id).collect();
            ids.sort_unstable();
            ids.windows(2).all(|w| w[0] != w[1])
        })
}

impl Instance {
    fn state(&self) -> CorrOptState<'_> {
        CorrOptState::new(
            &self.graph,
            self.states.clone(),
            &Thresholds::new(self.threshold).unwrap(),
        )
        .unwrap()
    }

    fn plan(&self, options: PlanOptions) -> MaintenancePlan {
        let mut state = self.state();
        let plan = Planner::new(&mut state, &self.orders, self.crew, self.travel, options)
            .unwrap()
            .plan()
            .unwrap();
        assert_eq!(
            state.link_states(),
            &self.states[..],
            "the state is left as it was"
        );
        plan
    }
}

/// Most orders without a penalty rate (every other one, and those drawn 0),
/// on a fabric at a high threshold where many footprints are never safe.
fn mostly_unpriced(
    orders: std::ops::RangeInclusive<usize>,
    technicians: u32,
) -> impl Strategy<Value = Instance> {
    (instance(orders, technicians), 2..FRACTIONS.len()).prop_map(|(mut inst, fraction)| {
        for order in inst.orders.iter_mut().step_by(2) {
            order.penalty_rate = 0.0;
        }
        inst.threshold = inst.threshold.max(FRACTIONS[fraction]);
        inst
    })
}

/// At threshold 1 without restorations, every ToR's floor is what it has,
/// so an order is never safe when its footprint takes an up-path from a ToR:
/// all orders but the first are given such a footprint (an enabled link
/// whose loss the checker sees cut a ToR's up-paths).
fn mostly_never_safe(
    orders: std::ops::RangeInclusive<usize>,
    technicians: u32,
) -> impl Strategy<Value = Instance> {
    (instance(orders, technicians), any::<Index>())
        .prop_map(|(mut inst, pick)| {
            inst.threshold = 1.0;
            let usable: Vec<bool> = inst
                .states
                .iter()
                .map(|&s| s == LinkState::Enabled)
                .collect();
            let paths = up_paths(&inst.graph, &usable);
            let cuts = |l: u32| {
                let mut without = usable.clone();
                without[l as usize] = false;
                let fewer = up_paths(&inst.graph, &without);
                inst.graph
                    .tors()
                    .iter()
                    .any(|&t| fewer[t as usize] < paths[t as usize])
            };
            let cutting: Vec<u32> = (0..inst.graph.num_links() as u32)
                .filter(|&l| usable[l as usize] && cuts(l))
                .collect();
            for (i, order) in inst.orders.iter_mut().enumerate() {
                order.restoration = None;
                if i > 0 && !cutting.is_empty() {
                    order.footprint =
                        vec![cutting[(pick.index(cutting.len()) + i) % cutting.len()]];
                }
            }
            (inst, cutting.is_empty())
        })
        .prop_filter("a link whose loss cuts an up-path", |(_, none)| !none)
        .prop_map(|(inst, _)| inst)
}

fn options(exact_up_to: usize) -> PlanOptions {
    PlanOptions {
        service_time_s: SERVICE_S,
        exact_up_to,
        time_budget: Duration::from_secs(if exact_up_to == 0 { 0 } else { 120 }),
        seed: 7,
    }
}

/// Up-paths of every switch over the links `usable`, counted from the top
/// tier down (the checker's own count, not the engine's).
fn up_paths(graph: &FabricGraph, usable: &[bool]) -> Vec<u64> {
    let mut counts = vec![0u64; graph.num_switches()];
    for tier in (0..graph.num_tiers()).rev() {
        for &s in graph.switches_in_tier(tier) {
            counts[s as usize] = if tier + 1 == graph.num_tiers() {
                1
            } else {
                graph
                    .up_links(s)
                    .iter()
                    .filter(|&&l| usable[l as usize])
                    .map(|&l| counts[graph.upper(l) as usize])
                    .sum()
            };
        }
    }
    counts
}

/// Replays `plan` and panics at the first broken rule.
fn check(inst: &Instance, plan: &MaintenancePlan) {
    let graph = &inst.graph;
    let by_id = |id: u64| inst.orders.iter().find(|o| o.id == id).unwrap();
    // Every order once: visited or unscheduled.
    let mut ids: Vec<u64> = plan.visits.iter().map(|v| v.work_order).collect();
    ids.extend(&plan.unscheduled);
    ids.sort_unstable();
    let mut all: Vec<u64> = inst.orders.iter().map(|o| o.id).collect();
    all.sort_unstable();
    assert_eq!(ids, all, "each order is visited once or unscheduled");
    // Each unscheduled order says why, and the reason holds.
    let waiting: Vec<u64> = plan.left_for_later.iter().map(|l| l.work_order).collect();
    assert_eq!(waiting, plan.unscheduled);
    for left in &plan.left_for_later {
        let o = by_id(left.work_order);
        let longer = o.duration_s > inst.crew.shift_s;
        assert_eq!(
            left.reason == LeaveReason::LongerThanShift,
            longer,
            "{left:?}"
        );
        if left.reason == LeaveReason::NoPenalty {
            assert_eq!(o.penalty_rate, 0.0, "{left:?}");
        }
        if left.reason == LeaveReason::RestorationDearer {
            assert!(o.penalty_rate > 0.0, "dearer than nothing: {left:?}");
        }
        assert!(!left.detail.is_empty());
    }
    for tech in 0..inst.crew.technicians {
        let mut visits: Vec<_> = plan
            .visits
            .iter()
            .filter(|v| v.technician == tech)
            .collect();
        visits.sort_by_key(|v| v.start_s);
        for pair in visits.windows(2) {
            let walk = inst.travel.between(
                by_id(pair[0].work_order).location,
                by_id(pair[1].work_order).location,
            );
            assert!(
                pair[1].start_s >= pair[0].end_s + walk,
                "technician {tech} rushes: {pair:?}"
            );
        }
    }
    for v in &plan.visits {
        let o = by_id(v.work_order);
        assert!(v.technician < inst.crew.technicians);
        assert_eq!(v.end_s - v.start_s, o.duration_s);
        assert!(v.end_s <= inst.crew.shift_s);
        assert_eq!(v.links_down, o.footprint);
        let allowed = o
            .restoration
            .as_ref()
            .map(|r| r.links.clone())
            .unwrap_or_default();
        assert!(v.restored.is_empty() || v.restored == allowed);
    }
    // No technician is told to enable a link another visit has out.
    for a in &plan.visits {
        for b in &plan.visits {
            let overlap = a.start_s < b.end_s && b.start_s < a.end_s;
            if overlap && a.work_order != b.work_order {
                assert!(
                    a.restored.iter().all(|l| !b.links_down.contains(l)),
                    "{a:?} restores a link {b:?} has out"
                );
            }
        }
    }
    // Capacity, minute by minute.
    let base: Vec<bool> = inst
        .states
        .iter()
        .map(|&s| s == LinkState::Enabled)
        .collect();
    let design = up_paths(graph, &vec![true; graph.num_links()]);
    let before = up_paths(graph, &base);
    for minute in 0..inst.crew.shift_s / 60 {
        let t = minute * 60;
        let active: Vec<_> = plan
            .visits
            .iter()
            .filter(|v| v.start_s <= t && t < v.end_s)
            .collect();
        let mut usable = base.clone();
        for v in &active {
            for &l in &v.restored {
                usable[l as usize] = true;
            }
        }
        for v in &active {
            for &l in &v.links_down {
                usable[l as usize] = false;
            }
        }
        let now = up_paths(graph, &usable);
        for &tor in graph.tors() {
            let required = (inst.threshold * design[tor as usize] as f64).ceil() as u64;
            let floor = required.min(before[tor as usize]);
            assert!(
                now[tor as usize] >= floor,
                "minute {minute}: ToR {tor} has {} up-paths, floor {floor}; active {active:?}",
                now[tor as usize]
            );
        }
    }
    // The expected penalty-hours, from the formula.
    let (shift_h, service_h) = (inst.crew.shift_s as f64 / 3600.0, SERVICE_S as f64 / 3600.0);
    let mut expected = 0.0;
    for v in &plan.visits {
        let o = by_id(v.work_order);
        let end_h = v.end_s as f64 / 3600.0;
        expected += o.penalty_rate * (end_h + (1.0 - o.success_probability) * service_h);
        if !v.restored.is_empty() {
            let rate = o.restoration.as_ref().unwrap().penalty_rate;
            expected += rate * o.duration_s as f64 / 3600.0;
        }
    }
    for &id in &plan.unscheduled {
        expected += by_id(id).penalty_rate * (shift_h + service_h);
    }
    let tolerance = 1e-9 * expected.max(1.0);
    assert!(
        (plan.expected_penalty_hours - expected).abs() <= tolerance,
        "{} vs {expected}",
        plan.expected_penalty_hours
    );
    assert!(plan.expected_penalty_hours <= plan.fifo_penalty_hours + tolerance);
    assert!(plan.lower_bound <= plan.expected_penalty_hours + tolerance);
}

/// Every permutation of `items`, by Heap's algorithm.
fn permutations(items: &mut Vec<u64>, k: usize, out: &mut Vec<Vec<u64>>) {
    if k <= 1 {
        out.push(items.clone());
        return;
    }
    for i in 0..k {
        permutations(items, k - 1, out);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        items.swap(j, k - 1);
    }
}

/// The least cost over every list of (order, technician) the planner decodes.
fn brute_force(inst: &Instance) -> f64 {
    let mut state = inst.state();
    let mut planner = Planner::new(
        &mut state,
        &inst.orders,
        inst.crew,
        inst.travel,
        options(10),
    )
    .unwrap();
    let mut ids: Vec<u64> = inst.orders.iter().map(|o| o.id).collect();
    let mut orders = Vec::new();
    permutations(&mut ids, inst.orders.len(), &mut orders);
    let techs = inst.crew.technicians as usize;
    let assignments = techs.pow(inst.orders.len() as u32);
    let mut best = f64::INFINITY;
    for order in &orders {
        for mut code in 0..assignments {
            let list: Vec<(u64, u32)> = order
                .iter()
                .map(|&id| {
                    let tech = (code % techs) as u32;
                    code /= techs;
                    (id, tech)
                })
                .collect();
            let cost = planner.schedule_list(&list).unwrap().expected_penalty_hours;
            best = best.min(cost);
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn exact_plans_are_safe_at_every_minute_and_never_worse_than_fifo(inst in instance(1..=8, 3)) {
        let plan = inst.plan(options(10));
        prop_assert!(plan.proven_optimal);
        check(&inst, &plan);
    }

    #[test]
    fn heuristic_plans_are_safe_and_bounded(inst in instance(1..=14, 3)) {
        let plan = inst.plan(options(0));
        prop_assert!(!plan.proven_optimal);
        check(&inst, &plan);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_heuristic_lower_bound_never_exceeds_the_exact_optimum(inst in instance(1..=7, 3)) {
        let exact = inst.plan(options(10));
        prop_assert!(exact.proven_optimal);
        let heuristic = inst.plan(options(0));
        let optimum = exact.expected_penalty_hours;
        prop_assert!(heuristic.lower_bound <= optimum + 1e-9 * optimum.max(1.0),
            "bound {} optimum {optimum}", heuristic.lower_bound);
    }

    #[test]
    fn the_exact_plan_equals_brute_force(inst in instance(1..=5, 2)) {
        let plan = inst.plan(options(10));
        let best = brute_force(&inst);
        prop_assert!((plan.expected_penalty_hours - best).abs() <= 1e-9 * best.max(1.0),
            "planner {} brute force {best}", plan.expected_penalty_hours);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn the_exact_plan_equals_brute_force_on_six_orders(inst in instance(6..=6, 2)) {
        let plan = inst.plan(options(10));
        let best = brute_force(&inst);
        prop_assert!((plan.expected_penalty_hours - best).abs() <= 1e-9 * best.max(1.0),
            "planner {} brute force {best}", plan.expected_penalty_hours);
    }

    #[test]
    fn the_exact_plan_equals_brute_force_with_three_technicians(inst in instance(1..=4, 3)) {
        let plan = inst.plan(options(10));
        let best = brute_force(&inst);
        prop_assert!((plan.expected_penalty_hours - best).abs() <= 1e-9 * best.max(1.0),
            "planner {} brute force {best}", plan.expected_penalty_hours);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_exact_plan_equals_brute_force_when_most_orders_are_unpriced(
        inst in mostly_unpriced(3..=6, 2),
    ) {
        let plan = inst.plan(options(10));
        prop_assert!(plan.proven_optimal);
        check(&inst, &plan);
        let best = brute_force(&inst);
        prop_assert!((plan.expected_penalty_hours - best).abs() <= 1e-9 * best.max(1.0),
            "planner {} brute force {best}", plan.expected_penalty_hours);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Orders no visit can ever start count no saving in the bounds: with
    /// one order that can be placed, the heuristic's bound is that plan's
    /// cost (its visit starts at 0), so the gap is 0.
    #[test]
    fn orders_never_safe_leave_no_gap(inst in mostly_never_safe(2..=10, 3)) {
        let heuristic = inst.plan(options(0));
        check(&inst, &heuristic);
        let ids: Vec<u64> = inst.orders[1..].iter().map(|o| o.id).collect();
        for left in &heuristic.left_for_later {
            if ids.contains(&left.work_order) {
                prop_assert!(
                    matches!(left.reason, LeaveReason::NeverSafe | LeaveReason::LongerThanShift),
                    "{left:?}"
                );
            }
        }
        prop_assert!(ids.iter().all(|id| heuristic.unscheduled.contains(id)));
        prop_assert!(heuristic.gap() <= 1e-9, "gap {}", heuristic.gap());
        let exact = inst.plan(options(10));
        prop_assert!(exact.proven_optimal);
        prop_assert_eq!(exact.gap(), 0.0);
        let optimum = exact.expected_penalty_hours;
        prop_assert!((heuristic.lower_bound - optimum).abs() <= 1e-9 * optimum.max(1.0),
            "bound {} optimum {optimum}", heuristic.lower_bound);
    }
}
