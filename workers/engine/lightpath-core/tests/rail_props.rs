//! RAIL against brute force: the worst path and the per-pair fractions
//! equal plain enumeration of every ECMP path (shortest valley-free paths)
//! on random fat trees, on Clos fabrics whose spines have several children
//! in one pod, and on arbitrary layered fabrics; classes are nested and meet
//! their bounds; stretch costing is monotone; FEC picks the largest n.

mod common;

use lightpath_core::FabricGraph;
use lightpath_core::fabric::generators::fat_tree;
use lightpath_core::rail::fec::{self, FecScheme, xor_residual};
use lightpath_core::rail::{
    LinkLengths, PlanConfig, build_classes, pair_fractions, plan_stretch, worst_path,
};
use proptest::prelude::*;

/// Every upward path from `tor`, as link lists (the ToR alone excluded).
fn up_paths(g: &FabricGraph, usable: &[bool], tor: u32) -> Vec<(u32, Vec<u32>)> {
    let mut out = Vec::new();
    let mut stack = vec![(tor, Vec::new())];
    while let Some((s, links)) = stack.pop() {
        for &l in g.up_links(s) {
            if usable[l as usize] {
                let mut next = links.clone();
                next.push(l);
                out.push((g.upper(l), next.clone()));
                stack.push((g.upper(l), next));
            }
        }
    }
    out
}

/// Every ECMP path of every ordered ToR pair: (src, dst, up links, down links).
type Path = (u32, u32, Vec<u32>, Vec<u32>);

fn ecmp_paths(g: &FabricGraph, usable: &[bool]) -> Vec<Vec<Path>> {
    let ups: Vec<Vec<(u32, Vec<u32>)>> = g.tors().iter().map(|&t| up_paths(g, usable, t)).collect();
    let mut pairs = Vec::new();
    for (i, &a) in g.tors().iter().enumerate() {
        for (j, &b) in g.tors().iter().enumerate() {
            if a == b {
                continue;
            }
            let mut paths = Vec::new();
            for tier in 1..g.num_tiers() {
                for (s, up) in &ups[i] {
                    if g.tier(*s) != tier {
                        continue;
                    }
                    for (s2, down) in &ups[j] {
                        if s2 == s {
                            let mut down = down.clone();
                            down.reverse();
                            paths.push((a, b, up.clone(), down));
                        }
                    }
                }
                if !paths.is_empty() {
                    break;
                }
            }
            pairs.push(paths);
        }
    }
    pairs
}

/// `1 - prod(1 - p)`, summed in logs: `1 - (1 - 1e-8)` is off by 5e-17.
fn path_loss(p: &Path, up: &[f64], down: &[f64]) -> f64 {
    let log_kept: f64 = p.2.iter().map(|&l| (-up[l as usize]).ln_1p()).sum::<f64>()
        + p.3
            .iter()
            .map(|&l| (-down[l as usize]).ln_1p())
            .sum::<f64>();
    -log_kept.exp_m1()
}

fn product_kept(p: &Path, up: &[f64], down: &[f64]) -> f64 {
    p.2.iter().map(|&l| 1.0 - up[l as usize]).product::<f64>()
        * p.3.iter().map(|&l| 1.0 - down[l as usize]).product::<f64>()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300) || (a - b).abs() < 1e-15
}

/// Checks `worst_path` against enumeration, including that the reported
/// path is one of the enumerated ECMP paths.
fn check_worst(
    g: &FabricGraph,
    usable: &[bool],
    up: &[f64],
    down: &[f64],
) -> Result<(), TestCaseError> {
    let pairs = ecmp_paths(g, usable);
    let brute = pairs
        .iter()
        .flatten()
        .map(|p| path_loss(p, up, down))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    let found = worst_path(g, usable, up, down).unwrap();
    match (brute, found) {
        (None, None) => {}
        (Some(b), Some(w)) => {
            prop_assert!(close(w.loss, b), "engine {} brute {}", w.loss, b);
            let ups: Vec<u32> = w.hops.iter().filter(|h| h.upward).map(|h| h.link).collect();
            let downs: Vec<u32> = w
                .hops
                .iter()
                .filter(|h| !h.upward)
                .map(|h| h.link)
                .collect();
            let listed = pairs
                .iter()
                .flatten()
                .any(|p| p.0 == w.src && p.1 == w.dst && p.2 == ups && p.3 == downs);
            prop_assert!(listed, "reported path {:?} is not an ECMP path", w);
            prop_assert!(close(
                path_loss(&(w.src, w.dst, ups, downs), up, down),
                w.loss
            ));
        }
        (b, w) => prop_assert!(false, "brute {:?} engine {:?}", b, w),
    }
    Ok(())
}

/// A three-tier Clos: `pods` pods of ToRs fully meshed to the pod's fabric
/// switches, each fabric switch linked to a random set of spines, so a spine
/// often has several children in one pod; some links then removed.
fn clos() -> impl Strategy<Value = FabricGraph> {
    (1u32..=3, 1u32..=3, 1u32..=3, 1u32..=3)
        .prop_flat_map(|(pods, tors, fabric, spines)| {
            let uplinks = prop::collection::vec(
                prop::collection::vec(any::<bool>(), spines as usize),
                (pods * fabric) as usize,
            );
            (Just((pods, tors, fabric, spines)), uplinks)
        })
        .prop_map(|((pods, tors, fabric, spines), uplinks)| {
            let first_fabric = pods * tors;
            let first_spine = first_fabric + pods * fabric;
            let mut tiers = vec![0; first_fabric as usize];
            tiers.resize(first_spine as usize, 1);
            tiers.resize((first_spine + spines) as usize, 2);
            let (mut lower, mut upper) = (Vec::new(), Vec::new());
            for p in 0..pods {
                for t in 0..tors {
                    for f in 0..fabric {
                        lower.push(p * tors + t);
                        upper.push(first_fabric + p * fabric + f);
                    }
                }
            }
            for (f, row) in uplinks.iter().enumerate() {
                for (s, &linked) in row.iter().enumerate() {
                    // Always link spine 0 so every pod reaches the top.
                    if linked || s == 0 {
                        lower.push(first_fabric + f as u32);
                        upper.push(first_spine + s as u32);
                    }
                }
            }
            FabricGraph::new(3, tiers, lower, upper).unwrap()
        })
}

/// Per-link values for a fabric: usable mask and two loss arrays, drawn
/// from a few levels so that gray links and ties both occur.
fn losses(g: FabricGraph) -> impl Strategy<Value = (FabricGraph, Vec<bool>, Vec<f64>, Vec<f64>)> {
    losses_with(g, 0.85)
}

/// As [`losses`], with links usable with probability `keep`.
fn losses_with(
    g: FabricGraph,
    keep: f64,
) -> impl Strategy<Value = (FabricGraph, Vec<bool>, Vec<f64>, Vec<f64>)> {
    let n = g.num_links();
    let level = prop::sample::select(vec![0.0, 1e-9, 1e-8, 2e-8, 1e-5, 1e-3, 0.02, 0.3, 1.0]);
    (
        Just(g),
        prop::collection::vec(prop::bool::weighted(keep), n),
        prop::collection::vec(level.clone(), n),
        prop::collection::vec(level, n),
    )
}

fn fat_trees() -> impl Strategy<Value = FabricGraph> {
    prop::sample::select(vec![2u32, 4, 6, 8]).prop_map(fat_tree)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn worst_path_on_fat_trees((g, usable, up, down) in fat_trees().prop_flat_map(losses)) {
        check_worst(&g, &vec![true; g.num_links()], &up, &down)?;
        check_worst(&g, &usable, &up, &down)?;
    }

    #[test]
    fn worst_path_on_clos_with_several_children_in_a_pod((g, usable, up, down) in clos().prop_flat_map(losses)) {
        check_worst(&g, &vec![true; g.num_links()], &up, &down)?;
        check_worst(&g, &usable, &up, &down)?;
    }

    #[test]
    fn worst_path_on_sparse_pods(
        g in prop::sample::select(vec![6u32, 8]).prop_map(fat_tree),
        usable in prop::collection::vec(prop::bool::weighted(0.5), 8 * 8 * 8 / 2),
        gray in any::<prop::sample::Index>(),
        upward in any::<bool>(),
    ) {
        // Half the links gone: pod-mates often share no aggregation switch
        // and route over the cores (the split pairs of `worst`). One gray
        // link makes the worst path one through it.
        let n = g.num_links();
        let usable = &usable[..n];
        let (mut up, mut down) = (vec![0.0; n], vec![0.0; n]);
        let l = gray.index(n);
        if upward { up[l] = 0.5 } else { down[l] = 0.5 }
        check_worst(&g, usable, &up, &down)?;
    }

    #[test]
    fn worst_path_on_any_layered_fabric((g, usable, up, down) in common::fabric_sized(2..=4, 1..=10).prop_flat_map(losses)) {
        check_worst(&g, &usable, &up, &down)?;
    }

    #[test]
    fn pair_fractions_equal_enumeration((g, usable, up, down) in clos().prop_flat_map(losses)) {
        let value_up: Vec<f64> = up.iter().map(|p| 1.0 - p).collect();
        let value_down: Vec<f64> = down.iter().map(|p| 1.0 - p).collect();
        let f = pair_fractions(&g, &usable, &value_up, &value_down, &[0.0]).unwrap();
        let pairs = ecmp_paths(&g, &usable);
        let mut worst: Option<f64> = None;
        let mut connected = 0;
        for paths in &pairs {
            if paths.is_empty() {
                continue;
            }
            connected += 1;
            let mean = paths.iter().map(|p| product_kept(p, &up, &down)).sum::<f64>() / paths.len() as f64;
            worst = Some(worst.map_or(mean, |w| w.min(mean)));
        }
        prop_assert_eq!(f.connected_pairs, connected);
        match (f.worst_pair, worst) {
            (Some((x, _, _)), Some(y)) => prop_assert!((x - y).abs() < 1e-12, "{} {}", x, y),
            (None, None) => {}
            other => prop_assert!(false, "{:?}", other),
        }
    }

    #[test]
    fn classes_are_nested_and_meet_their_bounds((g, usable, up, down) in clos().prop_flat_map(losses)) {
        let bounds = [1e-8, 1e-3, 0.1];
        let c = build_classes(&g, &usable, &up, &down, &bounds, 0.25).unwrap();
        for (k, class) in c.classes.iter().enumerate() {
            let pairs = ecmp_paths(&g, &class.members);
            let worst = pairs.iter().flatten().map(|p| path_loss(p, &up, &down)).fold(0.0, f64::max);
            prop_assert!(worst <= bounds[k] * (1.0 + 1e-12), "class {} worst {}", k, worst);
            // The reported worst path is the class's true worst (the finder's
            // incremental updates between removals are exact).
            match &class.worst {
                Some(w) => prop_assert!(close(w.loss, worst), "reported {} brute {}", w.loss, worst),
                None => prop_assert!(pairs.iter().all(|p| p.is_empty())),
            }
            for l in 0..g.num_links() {
                prop_assert!(!class.members[l] || usable[l]);
                prop_assert!(!class.members[l] || (up[l] <= 0.25 && down[l] <= 0.25));
                if k + 1 < bounds.len() {
                    prop_assert!(!class.members[l] || c.classes[k + 1].members[l]);
                }
            }
        }
    }

    #[test]
    fn stretch_is_monotone(
        lengths in prop::collection::vec(0.0f64..2_000.0, 32),
        nrbs in (0.5f64..1.0, 0.5f64..1.0),
    ) {
        let g = fat_tree(4);
        let per_link = LinkLengths::PerLink { length_m: lengths.clone(), speed_gbps: vec![10; 32] };
        let (low, high) = if nrbs.0 < nrbs.1 { nrbs } else { (nrbs.1, nrbs.0) };
        let mut config = PlanConfig::seed(Some(low));
        config.sweep_max_lengths_m = vec![];
        let lower = plan_stretch(&g, &per_link, &config).unwrap();
        config.nrb = Some(high);
        let higher = plan_stretch(&g, &per_link, &config).unwrap();
        prop_assert!(lower.plan.total_usd <= higher.plan.total_usd + 1e-6);
        prop_assert!(higher.plan.total_usd <= higher.baseline.total_usd + 1e-6);
        for (c, &l) in lower.links.iter().zip(&lengths) {
            let t = &config.catalog[c.plan];
            prop_assert!(t.reach_at(Some(low)).0 >= l);
            prop_assert_eq!(c.stretched, l > t.rated_reach_m);
            prop_assert!(c.p_good >= low.powf(0.25) - 1e-15);
        }
        let expected = plan_stretch(&g, &LinkLengths::Uniform { min_m: 0.0, max_m: 2_000.0, speed_gbps: 10 }, &config).unwrap();
        prop_assert!(expected.plan.total_usd <= expected.baseline.total_usd + 1e-6);
        let f = lower.good_paths.unwrap();
        prop_assert!(f.mean.unwrap() >= low - 1e-12);
    }

    #[test]
    fn path_coding_equals_enumeration((g, usable, up, down) in clos().prop_flat_map(losses)) {
        let t = 1e-3;
        let c = fec::code_paths(&g, &usable, &up, &down, t).unwrap();
        let (mut paths, mut uncoded, mut unusable, mut overhead) = (0.0, 0.0, 0.0, 0.0);
        for p in ecmp_paths(&g, &usable).iter().flatten() {
            paths += 1.0;
            let choice = fec::choose(path_loss(p, &up, &down), t).unwrap();
            match choice.scheme {
                FecScheme::None => uncoded += 1.0,
                FecScheme::Unusable => unusable += 1.0,
                _ => {}
            }
            overhead += choice.overhead;
        }
        prop_assert_eq!(c.paths, paths);
        prop_assert_eq!(c.uncoded, uncoded);
        prop_assert_eq!(c.unusable, unusable);
        let mean = if paths > unusable { overhead / (paths - unusable) } else { 0.0 };
        prop_assert!((c.mean_overhead - mean).abs() < 1e-12);
    }

    #[test]
    fn fec_takes_the_largest_n(p in 1e-6f64..0.2, t in 1e-6f64..0.05) {
        let c = fec::choose(p, t).unwrap();
        match c.scheme {
            FecScheme::None => prop_assert!(p < t),
            FecScheme::Xor { n } => {
                prop_assert!(p >= t);
                prop_assert!(xor_residual(n, p) <= t);
                prop_assert!(xor_residual(n + 1, p) > t);
            }
            FecScheme::Replicate3 => prop_assert!(p >= t && xor_residual(1, p) > t && p <= 0.1),
            FecScheme::Unusable => prop_assert!(p > 0.1 && xor_residual(1, p) > t),
        }
    }
}
