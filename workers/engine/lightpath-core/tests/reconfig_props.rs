//! Property tests of the reconfiguration planners: ShareBackup schedules
//! pass the independent verifier and replay byte for byte; the Larry
//! feasibility check agrees with a brute-force cut condition; controller
//! steps keep the seed's invariants.

#![allow(clippy::needless_range_loop)] // index loops read clearer over parallel per-rack vectors
use lightpath_core::reconfig::larry::{self, ControllerConfig, CounterSample, Policy, RackSet};
use lightpath_core::reconfig::sharebackup::{self, FatTree};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sharebackup_schedules_verify_and_replay(
        half in 1u32..=4, pods_frac in 0.0f64..1.0, backups in 0u32..=2, len in 0usize..40, seed in any::<u64>()
    ) {
        let k = 2 * half;
        let pods = 1 + ((f64::from(k - 1)) * pods_frac) as u32;
        let tree = FatTree::new(k, pods, backups).unwrap();
        let log = sharebackup::synthetic_log(&tree, len, seed);
        let schedule = sharebackup::plan(&tree, &log, 0.5).unwrap();
        prop_assert_eq!(sharebackup::verify(&schedule), Vec::<String>::new());
        for plan in &schedule.events {
            // Never borrowed across groups; degraded exactly when a slot has no working switch.
            prop_assert_eq!(plan.status == "degraded", !plan.degraded_groups.is_empty());
            prop_assert_eq!(plan.fallback.is_empty(), plan.degraded_groups.is_empty());
        }
        let again = sharebackup::plan(&tree, &log, 0.5).unwrap();
        prop_assert_eq!(schedule.to_json(), again.to_json());
    }
}

/// Gale/Hall: feasible iff every set A of racks asks at most
/// Σ_c min(R_c, cables from A to c).
fn brute_force_feasible(rs: &RackSet, request: &[u32]) -> bool {
    let usable = rs.usable();
    let m = rs.racks();
    (0u32..1 << m).all(|mask| {
        let members: Vec<usize> = (0..m).filter(|t| mask & (1 << t) != 0).collect();
        let wanted: u32 = members.iter().map(|&t| request[t]).sum();
        let reach: u32 = (0..rs.circuit_switches())
            .map(|c| rs.cs_uplinks[c].min(members.iter().map(|&t| usable[t][c]).sum()))
            .sum();
        wanted <= reach
    })
}

fn rack_set() -> impl Strategy<Value = RackSet> {
    (2usize..=5, 1usize..=4).prop_flat_map(|(m, n)| {
        (
            prop::collection::vec(prop::collection::vec(0u32..=3, n), m),
            prop::collection::vec(0u32..=4, n),
            prop::collection::vec((0..m, 0..n), 0..4),
        )
            .prop_map(|(cables, cs_uplinks, excluded)| {
                let mut usable = cables.clone();
                let excluded = excluded
                    .into_iter()
                    .filter(|&(t, c)| {
                        let ok = usable[t][c] > 0;
                        if ok {
                            usable[t][c] -= 1;
                        }
                        ok
                    })
                    .map(|(t, c)| [t, c])
                    .collect();
                RackSet {
                    static_uplinks: 2,
                    cables,
                    cs_uplinks,
                    capacity_gbps: 100.0,
                    excluded,
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn feasibility_matches_the_cut_condition(rs in rack_set(), raw in prop::collection::vec(0u32..=6, 5)) {
        let request = &raw[..rs.racks()];
        let answer = larry::check(&rs, request).unwrap();
        prop_assert_eq!(answer.feasible, brute_force_feasible(&rs, request));
        // The circuits are matchings over usable cables, and the granted
        // uplinks equal the cut capacity when infeasible.
        let usable = rs.usable();
        for (c, circuits) in answer.circuits.iter().enumerate() {
            prop_assert!(circuits.len() as u32 <= rs.cs_uplinks[c]);
            let mut ports: Vec<u32> = circuits.iter().map(|p| p[0]).collect();
            ports.dedup();
            prop_assert_eq!(ports.len(), circuits.len());
        }
        for t in 0..rs.racks() {
            for c in 0..rs.circuit_switches() {
                prop_assert!(answer.assignment[t][c] <= usable[t][c]);
            }
        }
        if let Some(cut) = answer.min_cut {
            prop_assert_eq!(cut.capacity, answer.granted.iter().map(|&g| u64::from(g)).sum::<u64>());
        }
    }

    #[test]
    fn controller_steps_keep_the_invariants(
        rs in rack_set(), rates in prop::collection::vec(prop::collection::vec(0.0f64..800.0, 5), 1..12)
    ) {
        let m = rs.racks();
        let mut acc = vec![0u64; m];
        let mut samples = vec![CounterSample { time_s: 0.0, ingress_bytes: acc.clone(), egress_bytes: acc.clone() }];
        for (i, r) in rates.iter().enumerate() {
            for t in 0..m {
                acc[t] += (r[t] * 1e9 / 8.0 * 0.5) as u64;
            }
            samples.push(CounterSample { time_s: (i + 1) as f64 * 0.5, ingress_bytes: acc.clone(), egress_bytes: vec![0; m] });
        }
        let usable = rs.usable();
        let total: u32 = rs.cs_uplinks.iter().sum();
        for policy in [Policy::Conservative, Policy::Proportional] {
            let run = larry::run(&rs, &samples, &ControllerConfig { threshold: 0.85, policy }).unwrap();
            let mut previous = run.initial_uplinks.clone();
            for step in &run.steps {
                let extra: Vec<u32> = step.uplinks.iter().map(|u| u - rs.static_uplinks).collect();
                prop_assert!(extra.iter().sum::<u32>() <= total);
                for t in 0..m {
                    prop_assert!(extra[t] <= usable[t].iter().sum::<u32>());
                }
                prop_assert!(larry::check(&rs, &extra).unwrap().feasible);
                if policy == Policy::Conservative {
                    let need = |t: usize| (step.demand_gbps[t] / 85.0).ceil() as u32;
                    let all_under = (0..m).all(|t| need(t) < previous[t]);
                    if all_under {
                        prop_assert!(step.diff.is_empty());
                    }
                    let some_under = (0..m).any(|t| need(t) < previous[t]);
                    for t in 0..m {
                        if some_under && step.uplinks[t] < previous[t] {
                            prop_assert!(step.uplinks[t] >= need(t), "donor {} pushed below its need", t);
                        }
                    }
                }
                if step.uplinks == previous && policy == Policy::Conservative {
                    prop_assert!(step.diff.is_empty());
                }
                previous = step.uplinks.clone();
            }
        }
    }
}

proptest! {
    #[test]
    fn pool_risk_is_monotone_and_sizing_is_minimal(
        g in 1u32..=32, groups in 1u32..=200, mtbf in 10.0f64..1e6, mttr in 0.1f64..500.0, exponent in 1i32..12
    ) {
        use lightpath_core::reconfig::pool;
        let q = pool::unavailability(mtbf, mttr);
        for n in 0..g {
            prop_assert!(pool::group_exhaustion(g, q, n + 1) <= pool::group_exhaustion(g, q, n));
            prop_assert!(pool::group_exhaustion(g, q * 0.5, n) <= pool::group_exhaustion(g, q, n) + 1e-15);
        }
        let target = 10f64.powi(-exponent);
        let sizing = pool::size_pool(g, groups, mtbf, mttr, target).unwrap();
        let last = sizing.curve.last().unwrap();
        prop_assert!(last.p_any <= target || sizing.backups == g);
        if sizing.curve.len() > 1 {
            prop_assert!(sizing.curve[sizing.curve.len() - 2].p_any > target);
        }
    }
}
