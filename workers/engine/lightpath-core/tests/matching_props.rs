//! Property tests of the circuit-schedule engine against brute force:
//! - exact matching equals the best of every matching for n <= 12;
//! - exact b-matching (several ports per rack) equals brute force on small
//!   instances;
//! - exact/2 <= greedy <= exact <= bound, and random is maximal;
//! - plans keep port limits, zones and unavailable ports, are deterministic,
//!   and `verify` accepts them and catches a broken slot;
//! - uniform demand gives the optical ratio 1/(n-1) (3/21 on the seed's
//!   7-rack figure).

use lightpath_core::matching::groups::EdgeGroup;
use lightpath_core::matching::slot::{self, Candidate, Circuit};
use lightpath_core::matching::{
    Algorithm, Mode, ReconfigMode, ScheduleConfig, Window, max_weight_matching, plan,
    plan_reporting, verify,
};
use proptest::prelude::*;

/// Brute-force best matching weight: rack 0 of the rest is either left
/// alone or matched to each remaining rack in turn.
fn brute(n: usize, weights: &[Vec<i64>]) -> i64 {
    fn go(free: &mut Vec<usize>, weights: &[Vec<i64>]) -> i64 {
        let Some(v) = free.pop() else { return 0 };
        let mut best = go(free, weights);
        for i in 0..free.len() {
            let u = free.remove(i);
            if weights[v][u] > 0 {
                best = best.max(weights[v][u] + go(free, weights));
            }
            free.insert(i, u);
        }
        free.push(v);
        best
    }
    go(&mut (0..n).collect(), weights)
}

/// Brute-force best b-matching: each pair takes 0..=min(free) circuits.
fn brute_b(ports: &[u32], candidates: &[Candidate]) -> i64 {
    let mut pairs: Vec<(u32, u32)> = candidates.iter().map(|c| (c.a, c.b)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    fn go(i: usize, pairs: &[(u32, u32)], free: &mut [u32], candidates: &[Candidate]) -> i64 {
        let Some(&(a, b)) = pairs.get(i) else {
            return 0;
        };
        let mut best = go(i + 1, pairs, free, candidates);
        let mut gained = 0;
        for r in 1..=free[a as usize].min(free[b as usize]) {
            gained += candidates
                .iter()
                .filter(|c| c.a == a && c.b == b && c.rank == r)
                .map(|c| c.weight)
                .sum::<i64>();
            free[a as usize] -= r;
            free[b as usize] -= r;
            best = best.max(gained + go(i + 1, pairs, free, candidates));
            free[a as usize] += r;
            free[b as usize] += r;
        }
        best
    }
    go(0, &pairs, &mut ports.to_vec(), candidates)
}

fn graph(max_n: usize) -> impl Strategy<Value = (usize, Vec<(u32, u32, i64)>)> {
    (2..=max_n).prop_flat_map(|n| {
        let pairs: Vec<(u32, u32)> = (0..n as u32)
            .flat_map(|a| (a + 1..n as u32).map(move |b| (a, b)))
            .collect();
        let count = pairs.len();
        (
            Just(n),
            Just(pairs),
            prop::collection::vec(prop_oneof![Just(0i64), 1i64..20, 1i64..1_000_000], count),
        )
            .prop_map(|(n, pairs, weights)| {
                let edges = pairs
                    .into_iter()
                    .zip(weights)
                    .filter(|(_, w)| *w > 0)
                    .map(|((a, b), w)| (a, b, w))
                    .collect();
                (n, edges)
            })
    })
}

fn matching_weight(edges: &[(u32, u32, i64)], mate: &[Option<u32>]) -> i64 {
    for (v, m) in mate.iter().enumerate() {
        if let Some(u) = m {
            assert_eq!(mate[*u as usize], Some(v as u32), "mate is not symmetric");
        }
    }
    edges
        .iter()
        .filter(|&&(a, b, _)| mate[a as usize] == Some(b))
        .map(|e| e.2)
        .sum()
}

fn candidates(edges: &[(u32, u32, i64)]) -> Vec<Candidate> {
    edges
        .iter()
        .map(|&(a, b, weight)| Candidate {
            a,
            b,
            rank: 1,
            weight,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn exact_equals_brute_force((n, edges) in graph(12)) {
        let mut weights = vec![vec![0i64; n]; n];
        for &(a, b, w) in &edges {
            weights[a as usize][b as usize] = w;
            weights[b as usize][a as usize] = w;
        }
        let mate = max_weight_matching(n, &edges);
        prop_assert_eq!(matching_weight(&edges, &mate), brute(n, &weights));
    }

    #[test]
    fn baselines_are_ordered_and_maximal((n, edges) in graph(14), seed in any::<u64>()) {
        let ports = vec![1u32; n];
        let cands = candidates(&edges);
        let (exact, is_exact) = slot::exact(&ports, &cands);
        prop_assert!(is_exact);
        let greedy = slot::greedy(&ports, &cands);
        let random = slot::random_maximal(&ports, &cands, seed);
        let (e, g, r) = (
            slot::weight_of(&exact, &cands),
            slot::weight_of(&greedy, &cands),
            slot::weight_of(&random, &cands),
        );
        let bound = slot::upper_bound(&ports, &cands);
        prop_assert!(e <= 2 * g, "greedy {g} below half of exact {e}");
        prop_assert!(g <= e && r <= e && e <= bound, "{g} {r} {e} {bound}");
        for circuits in [&exact, &greedy, &random] {
            prop_assert!(slot::is_maximal(&ports, circuits, &cands));
        }
        // Relabelling racks keeps the optimum.
        let relabel = |v: u32| (n as u32 - 1) - v;
        let mirrored: Vec<(u32, u32, i64)> = edges
            .iter()
            .map(|&(a, b, w)| (relabel(b), relabel(a), w))
            .collect();
        let mirrored_exact = slot::exact(&ports, &candidates(&mirrored)).0;
        prop_assert_eq!(slot::weight_of(&mirrored_exact, &candidates(&mirrored)), e);
    }

    #[test]
    fn exact_b_matching_equals_brute_force(
        (n, edges) in graph(6),
        ports in prop::collection::vec(0u32..=3, 6),
    ) {
        let ports = ports[..n].to_vec();
        // Two ranks per pair: the second circuit carries half as much.
        let cands: Vec<Candidate> = edges
            .iter()
            .flat_map(|&(a, b, w)| {
                [Candidate { a, b, rank: 1, weight: w }, Candidate { a, b, rank: 2, weight: w / 2 }]
            })
            .collect();
        let (circuits, is_exact) = slot::exact(&ports, &cands);
        prop_assert!(is_exact);
        let mut used = vec![0u32; n];
        for c in &circuits {
            used[c.a as usize] += c.count;
            used[c.b as usize] += c.count;
        }
        for (v, &count) in used.iter().enumerate() {
            prop_assert!(count <= ports[v], "rack {v} over its ports");
        }
        prop_assert_eq!(slot::weight_of(&circuits, &cands), brute_b(&ports, &cands));
        let greedy = slot::greedy(&ports, &cands);
        prop_assert!(slot::weight_of(&greedy, &cands) <= slot::weight_of(&circuits, &cands));
    }

    #[test]
    fn plans_hold_the_invariants_and_verify(
        n in 2usize..10,
        windows in prop::collection::vec(
            prop::collection::vec((0u32..10, 0u32..10, 0u64..3_000_000_000), 0..25),
            2..6,
        ),
        ports in prop::collection::vec(0u32..=2, 10),
        zones in prop::collection::vec(0u32..=1, 10),
        algorithm in prop::sample::select(vec![
            Algorithm::Exact, Algorithm::Greedy, Algorithm::RoundRobin, Algorithm::Static, Algorithm::Random,
        ]),
        global in any::<bool>(),
        drain in any::<bool>(),
        hysteresis in prop::sample::select(vec![0.0, 0.2]),
        burst_active in 1u32..3,
    ) {
        let windows: Vec<Window> = windows
            .into_iter()
            .map(|w| w.into_iter().filter(|&(s, d, _)| (s as usize) < n && (d as usize) < n && s != d).collect())
            .collect();
        let mut config = ScheduleConfig::new(n);
        config.ports = ports[..n].to_vec();
        config.zones = zones[..n].to_vec();
        config.algorithm = algorithm;
        config.reconfig = if global { ReconfigMode::Global } else { ReconfigMode::PerPort };
        config.mode = if drain { Mode::Drain } else { Mode::Replay };
        config.max_slots = 20;
        config.hysteresis = hysteresis;
        config.burst_active = burst_active;
        config.burst_reset = 2;
        let schedule = plan(&config, &windows).unwrap();
        let again = plan(&config, &windows).unwrap();
        prop_assert_eq!(&schedule.slots, &again.slots, "same input, different schedule");
        for s in &schedule.slots {
            let mut used = vec![0u32; n];
            for c in &s.circuits {
                prop_assert!(c.a < c.b);
                prop_assert_eq!(config.zones[c.a as usize], config.zones[c.b as usize]);
                used[c.a as usize] += c.count;
                used[c.b as usize] += c.count;
            }
            for (v, &count) in used.iter().enumerate() {
                prop_assert!(count <= config.ports[v]);
            }
            prop_assert!(s.weight <= s.bound);
        }
        let violations = verify(&config, &windows, &schedule.slots).unwrap();
        prop_assert!(violations.is_empty(), "{violations:?}");
        prop_assert!(schedule.metrics.optical_ratio <= 1.0);
    }
}

fn uniform_windows(n: u32, windows: usize, bytes: u64) -> Vec<Window> {
    (0..windows)
        .map(|_| {
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b, bytes)))
                .collect()
        })
        .collect()
}

#[test]
fn uniform_demand_gives_one_over_n_minus_one() {
    for n in [4u32, 8, 16] {
        let config = ScheduleConfig::new(n as usize);
        let schedule = plan(&config, &uniform_windows(n, 5, 100_000_000)).unwrap();
        let expected = 1.0 / (n as f64 - 1.0);
        assert!((schedule.metrics.optical_ratio - expected).abs() < 1e-12);
        assert!((schedule.metrics.uniform_ratio - expected).abs() < 1e-12);
        assert_eq!(schedule.metrics.gap, 0.0);
    }
}

#[test]
fn a_reported_plan_counts_every_slot_and_stops_when_asked() {
    let config = ScheduleConfig::new(8);
    let windows = uniform_windows(8, 6, 100_000_000);
    let mut seen = Vec::new();
    let reported = plan_reporting(&config, &windows, &mut |done| {
        seen.push(done);
        true
    })
    .unwrap()
    .unwrap();
    assert_eq!(seen, (1..=reported.slots.len()).collect::<Vec<_>>());
    assert_eq!(reported.slots, plan(&config, &windows).unwrap().slots);
    let mut calls = 0;
    let stopped = plan_reporting(&config, &windows, &mut |done| {
        calls += 1;
        done < 2
    })
    .unwrap();
    assert!(stopped.is_none());
    assert_eq!(calls, 2);
}

#[test]
fn edge_groups_steer_a_plan_and_it_still_verifies() {
    // The reference's Lemma 1 counter-example as demand: 0-2 and 1-3 weigh 10,
    // 0-1 and 2-3 weigh 2 but earn 10 each when scheduled (two groups).
    let window: Window = vec![
        (0, 2, 10_000_000),
        (1, 3, 10_000_000),
        (0, 1, 2_000_000),
        (2, 3, 2_000_000),
    ];
    let windows = vec![window.clone(), window];
    let mut config = ScheduleConfig::new(4);
    let plain = plan(&config, &windows).unwrap();
    let pairs = |s: &lightpath_core::matching::Slot| -> Vec<(u32, u32)> {
        s.circuits.iter().map(|c| (c.a, c.b)).collect()
    };
    assert_eq!(pairs(&plain.slots[0]), vec![(0, 2), (1, 3)]);
    assert!(plain.slots[0].exact);
    config.groups = vec![
        EdgeGroup {
            pairs: vec![(0, 1)],
            bonus: 10_000_000,
        },
        EdgeGroup {
            pairs: vec![(3, 2)],
            bonus: 10_000_000,
        },
    ];
    let grouped = plan(&config, &windows).unwrap();
    assert_eq!(pairs(&grouped.slots[0]), vec![(0, 1), (2, 3)]);
    assert!(!grouped.slots[0].exact && grouped.slots[0].maximal);
    // Both groups completed (the second written 3-2), and their bonuses reported
    // beside the bytes, slot and schedule.
    assert_eq!(grouped.slots[0].completed_groups, vec![0, 1]);
    assert_eq!(grouped.slots[0].bonus, 20_000_000);
    assert_eq!(plain.slots[0].completed_groups, Vec::<usize>::new());
    assert_eq!(
        (grouped.metrics.bonus, grouped.metrics.groups_completed),
        (20_000_000, 2)
    );
    assert!(
        verify(&config, &windows, &grouped.slots)
            .unwrap()
            .is_empty()
    );
    config.groups[0].bonus = -1;
    assert!(plan(&config, &windows).is_err());
}

#[test]
fn seven_racks_three_circuits_give_3_over_21() {
    let config = ScheduleConfig::new(7);
    let schedule = plan(&config, &uniform_windows(7, 3, 100_000_000)).unwrap();
    for s in &schedule.slots {
        assert_eq!(s.circuits.len(), 3);
    }
    assert!((schedule.metrics.optical_ratio - 3.0 / 21.0).abs() < 1e-12);
    assert!((schedule.metrics.uniform_ratio - 3.0 / 21.0).abs() < 1e-12);
}

#[test]
fn a_short_burst_gets_no_circuit_and_a_steady_flow_never_flaps() {
    // The seed's Fig. 4.2: a steady flow 0-1 and an ON/OFF flow 2-3 that is
    // on for one window in three. With one port per rack both could have a
    // circuit; the filter (active for 2 windows) must keep the burst off.
    let windows: Vec<Window> = (0..12)
        .map(|t| {
            let mut w = vec![(0, 1, 500_000_000)];
            if t % 3 == 0 {
                w.push((2, 3, 900_000_000));
            }
            w
        })
        .collect();
    let mut config = ScheduleConfig::new(4);
    config.burst_active = 2;
    config.burst_reset = 2;
    let filtered = plan(&config, &windows).unwrap();
    // The steady flow itself needs two windows before it counts.
    assert!(filtered.slots[0].circuits.is_empty());
    for s in &filtered.slots[1..] {
        assert_eq!(
            s.circuits,
            vec![Circuit {
                a: 0,
                b: 1,
                count: 1
            }]
        );
    }
    assert_eq!(filtered.metrics.flap_count, 0);
    config.burst_active = 1;
    let unfiltered = plan(&config, &windows).unwrap();
    assert!(
        unfiltered
            .slots
            .iter()
            .any(|s| s.circuits.iter().any(|c| c.a == 2))
    );
}

#[test]
fn round_robin_visit_delay_is_n_minus_2_for_uniform_demand() {
    let n = 8;
    let mut config = ScheduleConfig::new(n as usize);
    config.algorithm = Algorithm::RoundRobin;
    let schedule = plan(&config, &uniform_windows(n, 15, 1_000_000_000)).unwrap();
    assert_eq!(schedule.metrics.visit_delay_max_slots, n - 2);
}

#[test]
fn verify_reports_each_broken_invariant() {
    let mut config = ScheduleConfig::new(4);
    config.zones = vec![0, 0, 1, 1];
    config.ports = vec![1, 1, 1, 0];
    let windows = vec![
        vec![
            (0, 1, 800_000_000),
            (2, 3, 800_000_000),
            (0, 2, 100_000_000),
        ],
        vec![
            (0, 1, 800_000_000),
            (2, 3, 800_000_000),
            (0, 2, 100_000_000),
        ],
    ];
    let schedule = plan(&config, &windows).unwrap();
    assert_eq!(
        schedule.slots[0].circuits,
        vec![Circuit {
            a: 0,
            b: 1,
            count: 1
        }]
    );
    let mut broken = schedule.slots.clone();
    broken[0].circuits = vec![
        Circuit {
            a: 0,
            b: 2,
            count: 1,
        },
        Circuit {
            a: 2,
            b: 3,
            count: 1,
        },
    ];
    let violations = verify(&config, &windows, &broken).unwrap();
    let text = violations.join("\n");
    assert!(text.contains("crosses zones 0 and 1"), "{text}");
    assert!(text.contains("rack 3, whose port is unavailable"), "{text}");
    assert!(
        text.contains("rack 2 has 2 circuits but 1 available ports"),
        "{text}"
    );
    assert!(text.contains("claimed exact"), "{text}");
    assert!(text.contains("weight is"), "{text}");
}
