//! The worked example of the CorrOpt paper's Figure 3.10 (shared reference,
//! section 3.3): why switch-local checking is either unsafe or wasteful.
//!
//! ToR T has 5 up-links to A..E, each of which has 5 up-links to 5 spines, so
//! T has 25 paths and needs 15 at c = 0.6. The 16 corrupting links: T's
//! up-links to A, B, D and E; all 5 up-links of A and of B; 2 of C's. T->D and
//! T->E are the worst (2e-4), the rest corrupt at 1e-4. The paper leaves the
//! exact layout open; this one reproduces all three of its numbers.

use lightpath_core::FabricGraph;
use lightpath_core::corropt::{
    CorrOptState, CorruptingLink, Penalty, Thresholds, switch_local_share,
};

const T: u32 = 0;
const A: u32 = 1;
const B: u32 = 2;
const C: u32 = 3;
const D: u32 = 4;
const E: u32 = 5;

/// T = 0, A..E = 1..5, spines 6..10. Links 0..5 are T -> A..E; link
/// `5 + 5 * (x - 1) + j` is fabric switch x -> spine j.
fn figure_3_10() -> FabricGraph {
    let mut tiers = vec![0];
    tiers.extend([1; 5]);
    tiers.extend([2; 5]);
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for x in A..=E {
        lower.push(T);
        upper.push(x);
    }
    for x in A..=E {
        for j in 0..5 {
            lower.push(x);
            upper.push(6 + j);
        }
    }
    FabricGraph::new(3, tiers, lower, upper).unwrap()
}

fn tor_link(x: u32) -> u32 {
    x - 1
}

fn spine_link(x: u32, j: u32) -> u32 {
    5 + 5 * (x - 1) + j
}

fn corrupting() -> Vec<CorruptingLink> {
    let mut links = vec![
        CorruptingLink::new(tor_link(D), 2e-4),
        CorruptingLink::new(tor_link(E), 2e-4),
        CorruptingLink::new(tor_link(A), 1e-4),
        CorruptingLink::new(tor_link(B), 1e-4),
    ];
    for x in [A, B] {
        for j in 0..5 {
            links.push(CorruptingLink::new(spine_link(x, j), 1e-4));
        }
    }
    for j in 0..2 {
        links.push(CorruptingLink::new(spine_link(C, j), 1e-4));
    }
    links
}

fn state(g: &FabricGraph) -> CorrOptState<'_> {
    CorrOptState::all_enabled(g, &Thresholds::new(0.6).unwrap()).unwrap()
}

#[test]
fn the_example_has_16_corrupting_links_and_needs_15_of_25_paths() {
    let g = figure_3_10();
    let s = state(&g);
    assert_eq!(corrupting().len(), 16);
    assert_eq!(s.design_paths(T), 25);
    assert_eq!(s.required_paths(T), 15);
}

#[test]
fn switch_local_with_s_equal_c_disables_8_but_leaves_t_9_of_25() {
    let g = figure_3_10();
    let mut s = state(&g);
    let decisions = s.switch_local(&corrupting(), Penalty::Linear, 0.6).unwrap();
    assert_eq!(decisions.iter().filter(|d| d.disabled).count(), 8);
    assert_eq!(s.up_paths()[T as usize], 9);
    assert_eq!(s.tors_below_threshold(), vec![T]);
}

#[test]
fn switch_local_with_s_sqrt_c_is_safe_but_disables_only_4() {
    let g = figure_3_10();
    let mut s = state(&g);
    let share = switch_local_share(0.6, 2);
    let decisions = s
        .switch_local(&corrupting(), Penalty::Linear, share)
        .unwrap();
    assert_eq!(decisions.iter().filter(|d| d.disabled).count(), 4);
    assert!(s.up_paths()[T as usize] >= 15);
    assert!(s.tors_below_threshold().is_empty());
}

#[test]
fn optimizer_disables_12_and_meets_the_constraint() {
    let g = figure_3_10();
    let mut s = state(&g);
    let opt = s.optimize(&corrupting(), Penalty::Linear, None).unwrap();
    assert!(opt.proven_optimal);
    assert_eq!(opt.disable.len(), 12);
    let mut kept = vec![tor_link(D), tor_link(E), spine_link(C, 0), spine_link(C, 1)];
    kept.sort_unstable();
    assert_eq!(opt.keep_enabled, kept);
    assert!((opt.remaining_penalty - 6e-4).abs() < 1e-15);
    s.apply(&opt).unwrap();
    assert_eq!(s.up_paths()[T as usize], 15);
    assert!(s.tors_below_threshold().is_empty());
}

#[test]
fn fast_checker_alone_gets_stuck_after_the_two_worst_links() {
    // Greedy in decreasing penalty takes T->D and T->E (25 -> 15 paths), after
    // which every other corrupting link would cost T a path.
    let g = figure_3_10();
    let mut s = state(&g);
    let decisions = s.check_batch(&corrupting(), Penalty::Linear).unwrap();
    let disabled: Vec<u32> = decisions
        .iter()
        .filter(|d| d.disabled)
        .map(|d| d.link)
        .collect();
    assert_eq!(disabled, vec![tor_link(D), tor_link(E)]);
    assert!(
        decisions
            .iter()
            .filter(|d| !d.disabled)
            .all(|d| d.refusal.is_some())
    );
}
