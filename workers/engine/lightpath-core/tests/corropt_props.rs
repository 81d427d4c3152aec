//! Property tests of the CorrOpt deciders on random small fabrics, link
//! states and corrupting sets, against brute force over every subset:
//! - the optimizer's remaining penalty equals the brute-force optimum, and is
//!   never worse than the fast checker's or (when that is feasible) the
//!   switch-local baseline's;
//! - no decision of the fast checker or the optimizer leaves a ToR under its
//!   floor, and switch-local never exceeds a switch's allowance;
//! - with a zero time budget the optimizer is still feasible and its bound is
//!   a true lower bound;
//! - on larger fabrics with 13 to 20 enabled candidates (fewer cases), the
//!   optimizer still equals brute force over all 2^20 subsets, walked in
//!   Gray-code order so that each subset costs one incremental recount.

mod common;

use std::time::Duration;

use common::{fabric, fabric_sized};
use lightpath_core::corropt::{
    CorrOptState, CorruptingLink, LinkState, Penalty, Refusal, Thresholds, switch_local_share,
};
use lightpath_core::fabric::generators::{facebook_fabric, fat_tree};
use lightpath_core::{FabricGraph, PathCounts};
use proptest::prelude::*;
use proptest::sample::{Index, select, subsequence};

#[derive(Debug, Clone)]
struct Instance {
    graph: FabricGraph,
    states: Vec<LinkState>,
    corrupting: Vec<CorruptingLink>,
    threshold: f64,
    override_tor: Option<(Index, f64)>,
    penalty: Penalty,
}

impl Instance {
    fn state(&self) -> CorrOptState<'_> {
        let mut t = Thresholds::new(self.threshold).unwrap();
        if let Some((which, fraction)) = self.override_tor
            && !self.graph.tors().is_empty()
        {
            t = t
                .with_override(*which.get(self.graph.tors()), fraction)
                .unwrap();
        }
        CorrOptState::new(&self.graph, self.states.clone(), &t).unwrap()
    }

    fn enabled_corrupting(&self) -> Vec<CorruptingLink> {
        self.corrupting
            .iter()
            .copied()
            .filter(|c| self.states[c.link as usize] == LinkState::Enabled)
            .collect()
    }
}

const FRACTIONS: [f64; 8] = [0.0, 0.25, 0.5, 0.6, 0.7, 0.75, 0.9, 1.0];
const RATES: [f64; 7] = [1e-8, 3e-7, 1e-6, 2e-5, 1e-4, 7e-4, 1e-2];

fn instance() -> impl Strategy<Value = Instance> {
    fabric().prop_flat_map(|graph| {
        let n = graph.num_links();
        let states = prop::collection::vec(
            prop::sample::select(vec![
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Disabled,
                LinkState::Down,
            ]),
            n,
        );
        // Between half and all of the links (at most 12) corrupt.
        let most = n.min(12);
        let links = subsequence((0..n as u32).collect::<Vec<_>>(), most / 2..=most).prop_shuffle();
        // The downward direction is clean on about half the links.
        let rates = prop::collection::vec((select(RATES.to_vec()), down_rate()), 12);
        (
            Just(graph),
            states,
            links,
            rates,
            select(FRACTIONS.to_vec()),
            prop::option::of((any::<Index>(), select(FRACTIONS.to_vec()))),
            select(vec![Penalty::Linear, Penalty::Log, Penalty::Step]),
        )
            .prop_map(
                |(graph, states, links, rates, threshold, override_tor, penalty)| Instance {
                    graph,
                    states,
                    corrupting: links
                        .iter()
                        .zip(&rates)
                        .map(|(&link, &(up, down))| CorruptingLink::both_directions(link, up, down))
                        .collect(),
                    threshold,
                    override_tor,
                    penalty,
                },
            )
    })
}

/// A downward loss rate: 0 (clean) half of the time, else one of `RATES`.
fn down_rate() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), select(RATES.to_vec())]
}

/// The penalty of a link, written out independently of the engine's
/// `CorruptingLink::penalty`: one `I` per direction.
fn link_penalty(c: &CorruptingLink, penalty: Penalty) -> f64 {
    penalty.of(c.loss_rate) + penalty.of(c.loss_rate_down)
}

/// Up-paths each ToR must keep: its requirement, or what it has if less.
fn floors(state: &CorrOptState<'_>) -> Vec<(u32, u64)> {
    state
        .fabric()
        .tors()
        .iter()
        .map(|&t| (t, state.required_paths(t).min(state.up_paths()[t as usize])))
        .collect()
}

fn meets_floors(graph: &FabricGraph, usable: &[bool], floors: &[(u32, u64)]) -> bool {
    let counts = graph.up_paths(usable).unwrap();
    floors.iter().all(|&(t, f)| counts[t as usize] >= f)
}

fn usable(states: &[LinkState]) -> Vec<bool> {
    states.iter().map(|&s| s == LinkState::Enabled).collect()
}

/// The least penalty left enabled over every feasible subset of `candidates`.
fn brute_force(state: &CorrOptState<'_>, candidates: &[CorruptingLink], penalty: Penalty) -> f64 {
    let graph = state.fabric();
    let floors = floors(state);
    let base = usable(state.link_states());
    let total: f64 = candidates.iter().map(|c| link_penalty(c, penalty)).sum();
    let mut best = f64::INFINITY;
    for mask in 0u32..1 << candidates.len() {
        let mut mask_usable = base.clone();
        let mut removed = 0.0;
        for (i, c) in candidates.iter().enumerate() {
            if mask & (1 << i) != 0 {
                mask_usable[c.link as usize] = false;
                removed += link_penalty(c, penalty);
            }
        }
        if total - removed < best && meets_floors(graph, &mask_usable, &floors) {
            best = total - removed;
        }
    }
    best
}

/// Brute force for up to 20+ candidates: every subset of `candidates`, in
/// Gray-code order (consecutive subsets differ in one link), so each costs one
/// incremental recount of that link's down-cone instead of a full count.
/// Returns the least penalty left enabled and a subset achieving it. The
/// incremental counts are themselves checked against enumeration in
/// `path_counting_props`; the caller re-checks the returned subset with a full
/// count.
fn brute_force_gray(
    state: &CorrOptState<'_>,
    candidates: &[CorruptingLink],
    penalty: Penalty,
) -> (f64, Vec<u32>) {
    let graph = state.fabric();
    let floors = floors(state);
    let mut counts = PathCounts::new(graph, usable(state.link_states())).unwrap();
    let penalties: Vec<f64> = candidates
        .iter()
        .map(|c| link_penalty(c, penalty))
        .collect();
    let total: f64 = penalties.iter().sum();
    let feasible = |counts: &PathCounts| {
        floors
            .iter()
            .all(|&(t, f)| counts.counts()[t as usize] >= f)
    };
    // The empty subset is always feasible (floors are at most the current counts).
    let (mut best, mut best_mask) = (total, 0u32);
    let (mut mask, mut removed) = (0u32, 0.0);
    for step in 1u32..1 << candidates.len() {
        let bit = step.trailing_zeros() as usize;
        mask ^= 1 << bit;
        let now_disabled = mask & (1 << bit) != 0;
        counts
            .set_link_usable(graph, candidates[bit].link, !now_disabled)
            .unwrap();
        removed += if now_disabled {
            penalties[bit]
        } else {
            -penalties[bit]
        };
        if total - removed < best && feasible(&counts) {
            best = total - removed;
            best_mask = mask;
        }
    }
    // Recompute the best subset's penalty exactly (the running sum drifts).
    let disabled: Vec<u32> = (0..candidates.len())
        .filter(|i| best_mask & (1 << i) != 0)
        .map(|i| candidates[i].link)
        .collect();
    let left = (0..candidates.len())
        .filter(|i| best_mask & (1 << i) == 0)
        .map(|i| penalties[i])
        .sum();
    (left, disabled)
}

/// 13 to 20 corrupting links, all enabled, on a 3- or 4-tier fabric of 7 to
/// 10 links per layer (other links enabled, disabled or down at random).
fn large_instance() -> impl Strategy<Value = Instance> {
    fabric_sized(3..=4, 7..=10).prop_flat_map(|graph| {
        let n = graph.num_links();
        let most = n.min(20);
        let states = prop::collection::vec(
            prop::sample::select(vec![
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Disabled,
                LinkState::Down,
            ]),
            n,
        );
        let links = subsequence((0..n as u32).collect::<Vec<_>>(), 13..=most).prop_shuffle();
        let rates = prop::collection::vec((select(RATES.to_vec()), down_rate()), 20);
        (
            Just(graph),
            states,
            links,
            rates,
            select(FRACTIONS[1..7].to_vec()),
            select(vec![Penalty::Linear, Penalty::Log, Penalty::Step]),
        )
            .prop_map(|(graph, mut states, links, rates, threshold, penalty)| {
                for &l in &links {
                    states[l as usize] = LinkState::Enabled;
                }
                Instance {
                    graph,
                    states,
                    corrupting: links
                        .iter()
                        .zip(&rates)
                        .map(|(&link, &(up, down))| CorruptingLink::both_directions(link, up, down))
                        .collect(),
                    threshold,
                    override_tor: None,
                    penalty,
                }
            })
    })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn optimizer_matches_brute_force_and_beats_greedy(inst in instance()) {
        let state = inst.state();
        let opt = state.optimize(&inst.corrupting, inst.penalty, None).unwrap();
        prop_assert!(opt.proven_optimal);
        prop_assert!(close(opt.remaining_penalty_lower_bound, opt.remaining_penalty));
        let enabled = inst.enabled_corrupting();
        let best = brute_force(&state, &enabled, inst.penalty);
        prop_assert!(close(opt.remaining_penalty, best), "{} vs brute force {}", opt.remaining_penalty, best);

        let floors = floors(&state);
        let mut applied = state.clone();
        applied.apply(&opt).unwrap();
        prop_assert!(meets_floors(&inst.graph, &usable(applied.link_states()), &floors));
        prop_assert_eq!(opt.disable.len() + opt.keep_enabled.len(), enabled.len());

        let mut greedy = state.clone();
        let decisions = greedy.check_batch(&enabled, inst.penalty).unwrap();
        let greedy_left: f64 = decisions.iter().filter(|d| !d.disabled).map(|d| d.penalty).sum();
        prop_assert!(opt.remaining_penalty <= greedy_left + 1e-9 * greedy_left.max(1.0));

        let mut local = state.clone();
        let share = switch_local_share(inst.threshold, inst.graph.num_tiers() - 1);
        let decisions = local.switch_local(&enabled, inst.penalty, share).unwrap();
        if meets_floors(&inst.graph, &usable(local.link_states()), &floors) {
            let local_left: f64 = decisions.iter().filter(|d| !d.disabled).map(|d| d.penalty).sum();
            prop_assert!(opt.remaining_penalty <= local_left + 1e-9 * local_left.max(1.0));
        }
    }

    #[test]
    fn fast_checker_never_breaks_a_floor(inst in instance()) {
        let mut state = inst.state();
        let floors = floors(&state);
        let enabled = inst.enabled_corrupting();
        let decisions = state.check_batch(&enabled, inst.penalty).unwrap();
        prop_assert!(meets_floors(&inst.graph, &usable(state.link_states()), &floors));
        for d in &decisions {
            prop_assert_eq!(
                d.disabled,
                state.link_states()[d.link as usize] == LinkState::Disabled
            );
            match &d.refusal {
                None => prop_assert!(d.disabled),
                Some(Refusal::TorCapacity { tors }) => {
                    prop_assert!(!tors.is_empty());
                    for t in tors {
                        let impact = d.affected.iter().find(|i| i.tor == *t).unwrap();
                        prop_assert!(impact.paths_after < impact.required_paths);
                    }
                }
                Some(other) => prop_assert!(false, "unexpected refusal {:?}", other),
            }
        }
        // Maximal: no refused link could be disabled now.
        for d in decisions.iter().filter(|d| !d.disabled) {
            let mut trial = usable(state.link_states());
            trial[d.link as usize] = false;
            prop_assert!(!meets_floors(&inst.graph, &trial, &floors));
        }
    }

    #[test]
    fn switch_local_keeps_each_switch_allowance(inst in instance(), share in select(FRACTIONS.to_vec())) {
        let mut state = inst.state();
        let initial = state.link_states().to_vec();
        let enabled = inst.enabled_corrupting();
        state.switch_local(&enabled, inst.penalty, share).unwrap();
        for s in 0..inst.graph.num_switches() as u32 {
            let up = inst.graph.up_links(s);
            let allowance = (up.len() as f64 * (1.0 - share) + 1e-9).floor() as usize;
            let out = |states: &[LinkState]| up.iter().filter(|&&l| states[l as usize] != LinkState::Enabled).count();
            let newly = out(state.link_states()) - out(&initial);
            prop_assert!(newly <= allowance.saturating_sub(out(&initial)));
        }
    }

    #[test]
    fn zero_budget_is_feasible_with_a_true_bound(inst in instance()) {
        let state = inst.state();
        let opt = state.optimize(&inst.corrupting, inst.penalty, Some(Duration::ZERO)).unwrap();
        let best = brute_force(&state, &inst.enabled_corrupting(), inst.penalty);
        prop_assert!(opt.remaining_penalty >= best - 1e-9 * best.max(1.0));
        prop_assert!(opt.remaining_penalty_lower_bound <= best + 1e-9 * best.max(1.0));
        let floors = floors(&state);
        let mut applied = state.clone();
        applied.apply(&opt).unwrap();
        prop_assert!(meets_floors(&inst.graph, &usable(applied.link_states()), &floors));
    }

    #[test]
    fn switch_local_with_root_share_is_safe_on_uniform_fabrics(
        uniform in select(vec![0usize, 1]),
        threshold in select(FRACTIONS.to_vec()),
        picks in prop::collection::vec(any::<Index>(), 0..40),
    ) {
        let graph = if uniform == 0 { fat_tree(4) } else { facebook_fabric(2, 3, 4, 5) };
        let mut state = CorrOptState::all_enabled(&graph, &Thresholds::new(threshold).unwrap()).unwrap();
        let mut links: Vec<u32> = picks.iter().map(|i| i.index(graph.num_links()) as u32).collect();
        links.sort_unstable();
        links.dedup();
        let corrupting: Vec<CorruptingLink> =
            links.iter().map(|&link| CorruptingLink::new(link, 1e-5 )).collect();
        state.switch_local(&corrupting, Penalty::Linear, switch_local_share(threshold, 2)).unwrap();
        prop_assert!(state.tors_below_threshold().is_empty());
    }
}

proptest! {
    // Up to 2^20 subsets per case: fewer cases than the small properties.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn optimizer_matches_brute_force_on_up_to_20_candidates(inst in large_instance()) {
        let state = inst.state();
        let candidates = inst.enabled_corrupting();
        prop_assert!((13..=20).contains(&candidates.len()));
        let opt = state.optimize(&inst.corrupting, inst.penalty, None).unwrap();
        prop_assert!(opt.proven_optimal);
        let (best, best_disabled) = brute_force_gray(&state, &candidates, inst.penalty);
        let floors = floors(&state);
        let mut check = usable(state.link_states());
        for &l in &best_disabled {
            check[l as usize] = false;
        }
        prop_assert!(meets_floors(&inst.graph, &check, &floors), "brute force's subset is infeasible");
        prop_assert!(close(opt.remaining_penalty, best), "{} vs brute force {}", opt.remaining_penalty, best);

        let mut applied = state.clone();
        applied.apply(&opt).unwrap();
        prop_assert!(meets_floors(&inst.graph, &usable(applied.link_states()), &floors));

        let mut greedy = state.clone();
        let decisions = greedy.check_batch(&candidates, inst.penalty).unwrap();
        let greedy_left: f64 = decisions.iter().filter(|d| !d.disabled).map(|d| d.penalty).sum();
        prop_assert!(opt.remaining_penalty <= greedy_left + 1e-9 * greedy_left.max(1.0));

        let mut local = state.clone();
        let share = switch_local_share(inst.threshold, inst.graph.num_tiers() - 1);
        let decisions = local.switch_local(&candidates, inst.penalty, share).unwrap();
        if meets_floors(&inst.graph, &usable(local.link_states()), &floors) {
            let local_left: f64 = decisions.iter().filter(|d| !d.disabled).map(|d| d.penalty).sum();
            prop_assert!(opt.remaining_penalty <= local_left + 1e-9 * local_left.max(1.0));
        }
    }
}

/// 18 candidates in one segment: every link of a 1-pod fabric with 3 ToRs, 3
/// fabric switches and 3 spines per plane (9 paths per ToR, 5 required).
#[test]
fn optimizer_matches_brute_force_on_18_candidates() {
    let graph = facebook_fabric(1, 3, 3, 3);
    assert_eq!(graph.num_links(), 18);
    let state = CorrOptState::all_enabled(&graph, &Thresholds::new(0.5).unwrap()).unwrap();
    // Deterministic spread of rates over four orders of magnitude.
    let corrupting: Vec<CorruptingLink> = (0..18u32)
        .map(|link| CorruptingLink::new(link, 1e-7 * 10f64.powf(f64::from((link * 7) % 18) / 4.5)))
        .collect();
    for penalty in [Penalty::Linear, Penalty::Step] {
        let opt = state.optimize(&corrupting, penalty, None).unwrap();
        assert!(opt.proven_optimal);
        assert_eq!(opt.segments, 1);
        assert_eq!(opt.largest_segment, 18);
        let best = brute_force(&state, &corrupting, penalty);
        assert!(
            close(opt.remaining_penalty, best),
            "{} vs {best}",
            opt.remaining_penalty
        );
    }
}

/// A set of link state changes on a random fabric: some links of the
/// instance, each to a random state.
fn change_set() -> impl Strategy<Value = (Instance, Vec<(u32, LinkState)>)> {
    instance().prop_flat_map(|inst| {
        let n = inst.graph.num_links();
        let links = subsequence((0..n as u32).collect::<Vec<_>>(), 0..=n.min(10)).prop_shuffle();
        let states = prop::collection::vec(
            select(vec![
                LinkState::Enabled,
                LinkState::Disabled,
                LinkState::Down,
            ]),
            n.min(10),
        );
        (Just(inst), links, states).prop_map(|(inst, links, states)| {
            let changes = links.into_iter().zip(states).collect();
            (inst, changes)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The guard's verdict on a set equals a full recount with the set
    /// applied: the same ToRs change by the same counts, exactly those under
    /// their floor block it, and the state is left as it was.
    #[test]
    fn guard_evaluates_a_set_like_a_full_recount((inst, changes) in change_set()) {
        let mut state = inst.state();
        let before_counts = state.up_paths().to_vec();
        let before_states = state.link_states().to_vec();
        let floors = floors(&state);
        let verdict = state.evaluate(&changes).unwrap();
        prop_assert_eq!(state.up_paths(), &before_counts[..]);
        prop_assert_eq!(state.link_states(), &before_states[..]);

        let mut trial = usable(&before_states);
        for &(link, s) in &changes {
            trial[link as usize] = s == LinkState::Enabled;
        }
        let after = inst.graph.up_paths(&trial).unwrap();
        let expected: Vec<(u32, u64, u64)> = inst.graph.tors().iter()
            .map(|&t| (t, before_counts[t as usize], after[t as usize]))
            .filter(|&(_, b, a)| b != a)
            .collect();
        let got: Vec<(u32, u64, u64)> = verdict.affected.iter()
            .map(|i| (i.tor, i.paths_before, i.paths_after))
            .collect();
        prop_assert_eq!(got, expected);
        let blocking: Vec<u32> = floors.iter()
            .filter(|&&(t, f)| after[t as usize] < f)
            .map(|&(t, _)| t)
            .collect();
        prop_assert_eq!(&verdict.blocking, &blocking);
        prop_assert_eq!(verdict.safe(), meets_floors(&inst.graph, &trial, &floors));
    }
}
