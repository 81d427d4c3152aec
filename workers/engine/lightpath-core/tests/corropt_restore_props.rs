//! Property tests of the capacity restoration on random small fabrics, link
//! states, footprints and up to 12 candidates, against brute force over every
//! subset of the candidates, with up-paths recounted from scratch
//! (`FabricGraph::up_paths`, not the engine's incremental counts):
//! - `restore`: the footprint together with the restoration leaves every ToR
//!   at or above `min(required, paths before)`; the added penalty equals the
//!   brute-force least; "none exists" exactly when brute force finds no
//!   subset, naming exactly the ToRs that every candidate enabled cannot save;
//! - `recover`: every ToR that can get back to its requirement does, at the
//!   brute-force least penalty; the others are named;
//! - with a zero time budget both are still feasible and their bound is a
//!   true lower bound.

mod common;

use std::time::Duration;

use common::fabric;
use lightpath_core::FabricGraph;
use lightpath_core::corropt::{
    CorrOptState, CorruptingLink, LinkState, Penalty, Restoration, Thresholds, required_paths,
};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

const FRACTIONS: [f64; 7] = [0.25, 0.5, 0.6, 0.7, 0.75, 0.9, 1.0];
const RATES: [f64; 7] = [1e-8, 3e-7, 1e-6, 2e-5, 1e-4, 7e-4, 1e-2];

#[derive(Debug, Clone)]
struct Instance {
    graph: FabricGraph,
    states: Vec<LinkState>,
    candidates: Vec<CorruptingLink>,
    footprint: Vec<u32>,
    threshold: f64,
    penalty: Penalty,
}

impl Instance {
    fn state(&self) -> CorrOptState<'_> {
        let thresholds = Thresholds::new(self.threshold).unwrap();
        CorrOptState::new(&self.graph, self.states.clone(), &thresholds).unwrap()
    }

    fn usable_now(&self) -> Vec<bool> {
        self.states
            .iter()
            .map(|&s| s == LinkState::Enabled)
            .collect()
    }

    /// Up-paths of every ToR, counted from scratch.
    fn tor_counts(&self, usable: &[bool]) -> Vec<(u32, u64)> {
        let counts = self.graph.up_paths(usable).unwrap();
        self.graph
            .tors()
            .iter()
            .map(|&t| (t, counts[t as usize]))
            .collect()
    }

    fn required(&self, tor: u32) -> u64 {
        let design = self.graph.total_up_paths().unwrap()[tor as usize];
        required_paths(self.threshold, design)
    }

    /// Candidates that can be enabled: disabled now and not in the footprint.
    fn enableable(&self) -> Vec<CorruptingLink> {
        self.candidates
            .iter()
            .copied()
            .filter(|c| {
                self.states[c.link as usize] == LinkState::Disabled
                    && !self.footprint.contains(&c.link)
            })
            .collect()
    }

    /// Usable links with the footprint down and `enabled` put back.
    fn usable_with(&self, enabled: &[u32]) -> Vec<bool> {
        let mut usable = self.usable_now();
        for &l in &self.footprint {
            usable[l as usize] = false;
        }
        for &l in enabled {
            usable[l as usize] = true;
        }
        usable
    }
}

fn link_penalty(c: &CorruptingLink, penalty: Penalty) -> f64 {
    penalty.of(c.loss_rate) + penalty.of(c.loss_rate_down)
}

fn instance() -> impl Strategy<Value = Instance> {
    fabric().prop_flat_map(|graph| {
        let n = graph.num_links();
        let states = prop::collection::vec(
            select(vec![
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Enabled,
                LinkState::Disabled,
                LinkState::Down,
            ]),
            n,
        );
        let candidates = subsequence((0..n as u32).collect::<Vec<_>>(), 0..=n.min(12));
        let footprint = subsequence((0..n as u32).collect::<Vec<_>>(), 0..=n.min(4)).prop_shuffle();
        let rates = prop::collection::vec(
            (
                select(RATES.to_vec()),
                prop_oneof![Just(0.0), select(RATES.to_vec())],
            ),
            12,
        );
        (
            Just(graph),
            states,
            candidates,
            footprint,
            rates,
            select(FRACTIONS.to_vec()),
            select(vec![Penalty::Linear, Penalty::Log, Penalty::Step]),
        )
            .prop_map(
                |(graph, mut states, candidates, footprint, rates, threshold, penalty)| {
                    // Candidates are disabled for corruption, except one in
                    // five left as drawn (the engine must ignore those).
                    for (i, &l) in candidates.iter().enumerate() {
                        if i % 5 != 4 {
                            states[l as usize] = LinkState::Disabled;
                        }
                    }
                    Instance {
                        graph,
                        states,
                        candidates: candidates
                            .iter()
                            .zip(&rates)
                            .map(|(&l, &(up, down))| CorruptingLink::both_directions(l, up, down))
                            .collect(),
                        footprint,
                        threshold,
                        penalty,
                    }
                },
            )
    })
}

/// The least penalty of a subset of `enableable` meeting `floors` (by a
/// recount), or None when no subset does.
fn brute_force(
    inst: &Instance,
    enableable: &[CorruptingLink],
    floors: &[(u32, u64)],
) -> Option<f64> {
    let mut best: Option<f64> = None;
    for mask in 0u32..1 << enableable.len() {
        let chosen: Vec<&CorruptingLink> = (0..enableable.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| &enableable[i])
            .collect();
        let added: f64 = chosen.iter().map(|c| link_penalty(c, inst.penalty)).sum();
        if best.is_some_and(|b| b <= added) {
            continue;
        }
        let links: Vec<u32> = chosen.iter().map(|c| c.link).collect();
        let counts = inst.tor_counts(&inst.usable_with(&links));
        if floors
            .iter()
            .zip(&counts)
            .all(|(&(_, floor), &(_, count))| count >= floor)
        {
            best = Some(added);
        }
    }
    best
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300)
}

/// The restoration's links are enableable, ascending, priced right, and meet
/// `floors` by a recount.
fn check_answer(
    inst: &Instance,
    r: &Restoration,
    floors: &[(u32, u64)],
) -> Result<(), TestCaseError> {
    let enableable = inst.enableable();
    prop_assert!(r.enable.windows(2).all(|w| w[0] < w[1]));
    let mut added = 0.0;
    for &l in &r.enable {
        let c = enableable.iter().find(|c| c.link == l);
        prop_assert!(c.is_some(), "link {} is not enableable", l);
        added += link_penalty(c.unwrap(), inst.penalty);
    }
    prop_assert!(
        close(added, r.added_penalty),
        "{} vs {}",
        added,
        r.added_penalty
    );
    let counts = inst.tor_counts(&inst.usable_with(&r.enable));
    for (&(t, floor), &(_, count)) in floors.iter().zip(&counts) {
        prop_assert!(count >= floor, "ToR {} has {} < floor {}", t, count, floor);
    }
    prop_assert!(r.added_penalty_lower_bound <= r.added_penalty * (1.0 + 1e-12) + 1e-300);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn restore_is_feasible_minimal_and_says_when_none_exists(inst in instance()) {
        let state = inst.state();
        let now = inst.tor_counts(&inst.usable_now());
        let floors: Vec<(u32, u64)> =
            now.iter().map(|&(t, c)| (t, inst.required(t).min(c))).collect();
        let enableable = inst.enableable();
        let best = brute_force(&inst, &enableable, &floors);
        let r = state.restore(&inst.footprint, &inst.candidates, inst.penalty, None).unwrap();
        match best {
            None => {
                prop_assert!(r.enable.is_empty() && !r.restores_all());
                let all: Vec<u32> = enableable.iter().map(|c| c.link).collect();
                let most = inst.tor_counts(&inst.usable_with(&all));
                let short: Vec<(u32, u64, u64)> = floors
                    .iter()
                    .zip(&most)
                    .filter(|((_, f), (_, m))| m < f)
                    .map(|(&(t, f), &(_, m))| (t, m, f))
                    .collect();
                let named: Vec<(u32, u64, u64)> =
                    r.unreachable.iter().map(|u| (u.tor, u.paths_best, u.floor)).collect();
                prop_assert_eq!(named, short);
            }
            Some(best) => {
                prop_assert!(r.restores_all() && r.proven_optimal);
                check_answer(&inst, &r, &floors)?;
                prop_assert!(close(r.added_penalty, best), "engine {} vs brute force {}", r.added_penalty, best);
                let quick = state
                    .restore(&inst.footprint, &inst.candidates, inst.penalty, Some(Duration::ZERO))
                    .unwrap();
                check_answer(&inst, &quick, &floors)?;
                prop_assert!(quick.added_penalty_lower_bound <= best * (1.0 + 1e-12) + 1e-300);
            }
        }
    }

    #[test]
    fn recover_brings_back_every_tor_it_can_at_the_least_penalty(inst in instance()) {
        let inst = Instance { footprint: Vec::new(), ..inst };
        let state = inst.state();
        let enableable = inst.enableable();
        let all: Vec<u32> = enableable.iter().map(|c| c.link).collect();
        let most = inst.tor_counts(&inst.usable_with(&all));
        let now = inst.tor_counts(&inst.usable_now());
        // ToRs that can reach their requirement must; the others keep what
        // they have (which enabling never takes away).
        let floors: Vec<(u32, u64)> = most
            .iter()
            .zip(&now)
            .map(|(&(t, m), &(_, n))| {
                let required = inst.required(t);
                (t, if m >= required { required } else { n })
            })
            .collect();
        let short: Vec<u32> = most
            .iter()
            .filter(|&&(t, m)| m < inst.required(t))
            .map(|&(t, _)| t)
            .collect();
        let best = brute_force(&inst, &enableable, &floors).expect("enabling every candidate meets these floors");
        let r = state.recover(&inst.candidates, inst.penalty, None).unwrap();
        prop_assert_eq!(r.unreachable.iter().map(|u| u.tor).collect::<Vec<_>>(), short);
        prop_assert!(r.proven_optimal);
        check_answer(&inst, &r, &floors)?;
        prop_assert!(close(r.added_penalty, best), "engine {} vs brute force {}", r.added_penalty, best);
        let quick = state.recover(&inst.candidates, inst.penalty, Some(Duration::ZERO)).unwrap();
        check_answer(&inst, &quick, &floors)?;
    }
}
