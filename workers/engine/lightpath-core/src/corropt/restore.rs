//! The capacity restoration (seed 000, section 3.7, "accounting for the
//! impact of repair"): while a repair takes healthy links out of service,
//! enable other links that are disabled for corruption (lossy but working) so
//! that no ToR falls under its floor, adding the least penalty.
//!
//! It is the optimizer in reverse. Take the footprint down and enable every
//! candidate: if some ToR is still under its floor, no restoration exists.
//! Otherwise choosing the candidates to *keep disabled* with the most penalty,
//! subject to the floors, is exactly the optimizer's problem (removing links
//! only lowers counts, so feasibility is monotone), solved by the same prune,
//! segment and branch-and-bound search with the floors given rather than
//! derived from the counts. The candidates not kept disabled are the ones to
//! enable, and their penalty is the least that must be added.
//!
//! Floors. [`CorrOptState::restore`] (a footprint): the guard's rule,
//! `min(required(t), current(t))`, `current` counted before the footprint
//! goes down, so the footprint together with the restoration is exactly what
//! the capacity guard accepts. [`CorrOptState::recover`] (no footprint; ToRs
//! fell under their constraint because links went down): `required(t)`.
//!
//! When recovering, a ToR that cannot reach `required(t)` even with every
//! candidate enabled is reported, and the search runs without it (its floor is
//! what it has now, which enabling links never takes away): the answer brings
//! every other ToR back at the least penalty, and spends nothing on raising
//! that ToR part of the way, which would add penalty without meeting its
//! constraint; the ToR needs a repair, and the report says how far it stays
//! short.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::checker::by_decreasing_penalty;
use super::optimizer::{Selection, select_to_disable};
use super::{CorrOptError, CorrOptState, CorruptingLink, LinkState, Penalty};
use crate::fabric::{FabricGraph, LinkId, SwitchId};

/// A ToR that stays under its floor even with every candidate enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnreachableTor {
    /// The ToR.
    pub tor: SwitchId,
    /// Its up-paths now (before the footprint goes down).
    pub paths_before: u64,
    /// Its up-paths with the footprint down and every candidate enabled: the
    /// most any restoration gives it.
    pub paths_best: u64,
    /// The up-paths it needed: its floor.
    pub floor: u64,
    /// Its requirement, `ceil(threshold * design)`.
    pub required_paths: u64,
    /// Its up-paths with every link usable.
    pub design_paths: u64,
}

/// The answer of [`CorrOptState::restore`] and [`CorrOptState::recover`].
#[derive(Debug, Clone, PartialEq)]
pub struct Restoration {
    /// Candidates to enable, ascending. Empty when a footprint has no
    /// restoration (`unreachable` is then not empty).
    pub enable: Vec<LinkId>,
    /// Penalty of `enable`: the objective.
    pub added_penalty: f64,
    /// No restoration adds less penalty than this. Equals `added_penalty`
    /// when `proven_optimal`.
    pub added_penalty_lower_bound: f64,
    /// Whether the search finished within the time budget.
    pub proven_optimal: bool,
    /// ToRs that no choice brings to their floor, ascending. Empty: with
    /// `enable` every ToR meets its floor.
    pub unreachable: Vec<UnreachableTor>,
    /// Branch-and-bound nodes visited.
    pub nodes: u64,
}

impl Restoration {
    /// Whether `enable` brings every ToR to its floor.
    pub fn restores_all(&self) -> bool {
        self.unreachable.is_empty()
    }
}

/// Which floors a restoration must meet.
#[derive(Clone, Copy, PartialEq)]
enum Goal {
    /// The guard's floors, counted before a footprint goes down.
    Footprint,
    /// Every ToR's requirement.
    Requirement,
}

impl CorrOptState<'_> {
    /// The least-penalty subset of `candidates` to enable so that taking the
    /// links of `footprint` out of service leaves every ToR at or above its
    /// floor `min(required, current)` (the capacity guard's rule), or, when
    /// none exists, the ToRs that cannot be brought to it (and no links).
    ///
    /// Candidates that are not disabled now (enabled ones already count, down
    /// ones cannot be enabled) or that are in the footprint are ignored.
    /// Footprint links that are not enabled change nothing. The state is not
    /// changed. `budget`: as [`CorrOptState::optimize`]'s.
    pub fn restore(
        &self,
        footprint: &[LinkId],
        candidates: &[CorruptingLink],
        penalty: Penalty,
        budget: Option<Duration>,
    ) -> Result<Restoration, CorrOptError> {
        self.restoration(footprint, candidates, penalty, budget, Goal::Footprint)
    }

    /// The least-penalty subset of `candidates` to enable so that every ToR
    /// is back at its requirement. ToRs that stay under it even with every
    /// candidate enabled are reported in `unreachable`, and `enable` brings
    /// every other ToR back (see the module documentation for why).
    pub fn recover(
        &self,
        candidates: &[CorruptingLink],
        penalty: Penalty,
        budget: Option<Duration>,
    ) -> Result<Restoration, CorrOptError> {
        self.restoration(&[], candidates, penalty, budget, Goal::Requirement)
    }

    fn restoration(
        &self,
        footprint: &[LinkId],
        candidates: &[CorruptingLink],
        penalty: Penalty,
        budget: Option<Duration>,
        goal: Goal,
    ) -> Result<Restoration, CorrOptError> {
        let deadline = budget.and_then(|b| Instant::now().checked_add(b));
        self.check_corrupting(candidates)?;
        let mut in_footprint = HashSet::with_capacity(footprint.len());
        for &l in footprint {
            self.check_link(l)?;
            if !in_footprint.insert(l) {
                return Err(CorrOptError::DuplicateLink { link: l });
            }
        }
        let candidates: Vec<(LinkId, f64)> = by_decreasing_penalty(candidates, penalty)
            .into_iter()
            .filter(|&(l, _)| {
                self.states[l as usize] == LinkState::Disabled && !in_footprint.contains(&l)
            })
            .collect();

        let fabric: &FabricGraph = &self.fabric;
        let current = self.paths.counts();
        // Footprint down, every candidate enabled: the most any choice gives.
        let mut best = self.paths.clone();
        for &l in footprint {
            best.set_link_usable(fabric, l, false)?;
        }
        for &(l, _) in &candidates {
            best.set_link_usable(fabric, l, true)?;
        }
        let mut floor = vec![0u64; fabric.num_switches()];
        let mut unreachable = Vec::new();
        for &t in fabric.tors() {
            let (now, most) = (current[t as usize], best.counts()[t as usize]);
            let wanted = match goal {
                Goal::Footprint => self.floor(t, now),
                Goal::Requirement => self.required[t as usize],
            };
            if most >= wanted {
                floor[t as usize] = wanted;
                continue;
            }
            unreachable.push(UnreachableTor {
                tor: t,
                paths_before: now,
                paths_best: most,
                floor: wanted,
                required_paths: self.required[t as usize],
                design_paths: self.design[t as usize],
            });
            // Recovering: only enables, so what it has now is kept anyway.
            floor[t as usize] = now.min(wanted);
        }
        if goal == Goal::Footprint && !unreachable.is_empty() {
            return Ok(Restoration {
                enable: Vec::new(),
                added_penalty: 0.0,
                added_penalty_lower_bound: 0.0,
                proven_optimal: true,
                unreachable,
                nodes: 0,
            });
        }

        let Selection {
            disable: keep_disabled,
            removable,
            proven_optimal,
            nodes,
            ..
        } = select_to_disable(fabric, &best, &candidates, &floor, deadline)?;
        let mut enable: Vec<LinkId> = candidates
            .iter()
            .map(|c| c.0)
            .filter(|l| keep_disabled.binary_search(l).is_err())
            .collect();
        enable.sort_unstable();
        // Folded from +0.0: an empty `sum` of floats is -0.0.
        let added_penalty = candidates
            .iter()
            .filter(|c| enable.binary_search(&c.0).is_ok())
            .fold(0.0, |sum, c| sum + c.1);
        let total_penalty = candidates.iter().fold(0.0, |sum, c| sum + c.1);
        let added_penalty_lower_bound = if proven_optimal {
            added_penalty
        } else {
            (total_penalty - removable).clamp(0.0, added_penalty)
        };
        Ok(Restoration {
            enable,
            added_penalty,
            added_penalty_lower_bound,
            proven_optimal,
            unreachable,
            nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corropt::Thresholds;
    use crate::fabric::generators::fat_tree;

    /// k = 4 fat tree, c = 0.5: each ToR has 4 up-paths (2 up-links to 2
    /// aggregation switches, each with 2 core links) and needs 2.
    fn fabric_with_disabled(disabled: &[LinkId], c: f64) -> (Vec<LinkState>, Thresholds) {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        for &l in disabled {
            states[l as usize] = LinkState::Disabled;
        }
        (states, Thresholds::new(c).unwrap())
    }

    #[test]
    fn a_breakout_repair_is_made_safe_by_the_cheapest_lossy_link() {
        // ToR 0's up-link to agg A is disabled for corruption, so ToR 0 has
        // 2 of 4 paths (through agg B), its floor. The repair takes its
        // up-link to agg B down: alone, that leaves it none.
        let g = fat_tree(4);
        let [to_a, to_b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let (states, t) = fabric_with_disabled(&[to_a], 0.5);
        let mut state = CorrOptState::new(&g, states, &t).unwrap();
        assert_eq!(state.up_paths()[0], 2);
        assert!(
            !state
                .evaluate(&[(to_b, LinkState::Disabled)])
                .unwrap()
                .safe()
        );
        let candidates = [CorruptingLink::both_directions(to_a, 1e-5, 2e-5)];
        let r = state
            .restore(&[to_b], &candidates, Penalty::Linear, None)
            .unwrap();
        assert_eq!(r.enable, vec![to_a]);
        assert!((r.added_penalty - 3e-5).abs() < 1e-18);
        assert!(r.proven_optimal && r.restores_all());
        assert_eq!(r.added_penalty_lower_bound, r.added_penalty);
        // Applied together with the footprint, the guard says safe.
        let verdict = state
            .evaluate(&[(to_b, LinkState::Disabled), (to_a, LinkState::Enabled)])
            .unwrap();
        assert!(verdict.safe());
    }

    #[test]
    fn enables_the_cheaper_of_two_links_that_each_suffice() {
        // c = 0.75: a ToR needs 3 of 4. ToR 0's up-link to agg A is disabled,
        // and so are both core links of agg B; the footprint is a core link
        // of agg A.
        let g = fat_tree(4);
        let [to_a, to_b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let (a, b) = (g.upper(to_a), g.upper(to_b));
        let [b0, b1] = [g.up_links(b)[0], g.up_links(b)[1]];
        let a0 = g.up_links(a)[0];
        let (states, t) = fabric_with_disabled(&[to_a, b0, b1], 0.75);
        let mut state = CorrOptState::new(&g, states, &t).unwrap();
        // ToR 0 has 0 paths via A and 0 via B now: 0 of 4; its floor is 0,
        // so the footprint is already safe for it. ToR 1 (same pod) has A's
        // 2 paths and B's 0: 2 of 4, under its 3, so its floor is 2 and a0
        // takes one away.
        assert_eq!(state.up_paths()[..2], [0, 2]);
        let candidates = [
            CorruptingLink::new(to_a, 5e-4),
            CorruptingLink::new(b0, 2e-4),
            CorruptingLink::new(b1, 3e-4),
        ];
        let r = state
            .restore(&[a0], &candidates, Penalty::Linear, None)
            .unwrap();
        assert_eq!(r.enable, vec![b0]);
        assert!((r.added_penalty - 2e-4).abs() < 1e-18);
        let mut changes = vec![(a0, LinkState::Disabled)];
        changes.extend(r.enable.iter().map(|&l| (l, LinkState::Enabled)));
        assert!(state.evaluate(&changes).unwrap().safe());
    }

    #[test]
    fn says_when_no_restoration_exists_and_by_how_much() {
        // Both up-links of ToR 0 go (a line card): nothing brings it back.
        let g = fat_tree(4);
        let ups = g.up_links(0).to_vec();
        let y = g.upper(g.up_links(1)[0]);
        let far = g.up_links(y)[0];
        let (states, t) = fabric_with_disabled(&[far], 0.5);
        let state = CorrOptState::new(&g, states, &t).unwrap();
        let r = state
            .restore(
                &ups,
                &[CorruptingLink::new(far, 1e-6)],
                Penalty::Linear,
                None,
            )
            .unwrap();
        assert!(r.enable.is_empty() && !r.restores_all());
        assert_eq!(
            r.unreachable,
            vec![UnreachableTor {
                tor: 0,
                paths_before: 3,
                paths_best: 0,
                floor: 2,
                required_paths: 2,
                design_paths: 4,
            }]
        );
    }

    #[test]
    fn a_safe_footprint_needs_nothing_and_odd_candidates_are_ignored() {
        let g = fat_tree(4);
        let [first, second] = [g.up_links(0)[0], g.up_links(0)[1]];
        let core = g.up_links(g.upper(g.up_links(2)[0]))[0];
        let (mut states, t) = fabric_with_disabled(&[second], 0.25);
        states[core as usize] = LinkState::Down;
        let state = CorrOptState::new(&g, states, &t).unwrap();
        // `second` is in the footprint, `core` is down, `first` is enabled.
        let candidates = [
            CorruptingLink::new(first, 1e-3),
            CorruptingLink::new(second, 1e-3),
            CorruptingLink::new(core, 1e-3),
        ];
        let r = state
            .restore(&[second], &candidates, Penalty::Linear, None)
            .unwrap();
        assert!(r.enable.is_empty() && r.restores_all());
        assert!(r.added_penalty == 0.0 && r.added_penalty.is_sign_positive());
        let err = state
            .restore(&[second, second], &candidates, Penalty::Linear, None)
            .unwrap_err();
        assert_eq!(err, CorrOptError::DuplicateLink { link: second });
    }

    #[test]
    fn recover_brings_back_what_it_can_and_names_the_rest() {
        // c = 1: every ToR needs all 4 paths. ToR 0's up-links are both
        // disabled (one is a candidate, the other is not); ToR 2's up-link
        // is disabled and a candidate.
        let g = fat_tree(4);
        let [t0a, t0b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let t2 = g.up_links(2)[0];
        let (states, t) = fabric_with_disabled(&[t0a, t0b, t2], 1.0);
        let state = CorrOptState::new(&g, states, &t).unwrap();
        let candidates = [
            CorruptingLink::new(t0a, 1e-3),
            CorruptingLink::new(t2, 1e-6),
        ];
        let r = state.recover(&candidates, Penalty::Linear, None).unwrap();
        // t0a would lift ToR 0 to 2 of 4 only: not spent.
        assert_eq!(r.enable, vec![t2]);
        assert_eq!(r.added_penalty, 1e-6);
        assert_eq!(r.unreachable.len(), 1);
        assert_eq!(
            (
                r.unreachable[0].tor,
                r.unreachable[0].paths_best,
                r.unreachable[0].floor
            ),
            (0, 2, 4)
        );
        let mut after = state.clone();
        for &l in &r.enable {
            after.set_link_state(l, LinkState::Enabled).unwrap();
        }
        assert_eq!(after.tors_below_threshold(), vec![0]);
    }

    #[test]
    fn zero_budget_is_feasible_with_a_true_bound() {
        // A k = 8 fat tree at c = 0.75 with every third link disabled for
        // corruption (about 85 candidates), and a footprint of every seventh
        // aggregation-to-core link.
        let g = fat_tree(8);
        let disabled: Vec<LinkId> = (0..g.num_links() as LinkId)
            .filter(|l| l % 3 == 0)
            .collect();
        let mut states = vec![LinkState::Enabled; g.num_links()];
        for &l in &disabled {
            states[l as usize] = LinkState::Disabled;
        }
        let state = CorrOptState::new(&g, states, &Thresholds::new(0.5).unwrap()).unwrap();
        let candidates: Vec<CorruptingLink> = disabled
            .iter()
            .map(|&l| CorruptingLink::new(l, [1e-6, 2e-5, 3e-4][l as usize % 5 % 3]))
            .collect();
        let footprint: Vec<LinkId> = (0..g.num_links() as LinkId)
            .filter(|&l| g.tier(g.lower(l)) == 1 && l % 7 == 1)
            .collect();
        let exact = state
            .restore(&footprint, &candidates, Penalty::Linear, None)
            .unwrap();
        assert!(exact.proven_optimal && exact.restores_all());
        // Alone, the footprint starves many ToRs; a dozen links save them all.
        let alone: Vec<(LinkId, LinkState)> = footprint
            .iter()
            .map(|&l| (l, LinkState::Disabled))
            .collect();
        assert!(state.clone().evaluate(&alone).unwrap().blocking.len() > 10);
        assert!(!exact.enable.is_empty());
        let quick = state
            .restore(
                &footprint,
                &candidates,
                Penalty::Linear,
                Some(Duration::ZERO),
            )
            .unwrap();
        assert!(quick.added_penalty >= exact.added_penalty - 1e-15);
        assert!(quick.added_penalty_lower_bound <= exact.added_penalty + 1e-15);
        for r in [&exact, &quick] {
            let mut changes: Vec<(LinkId, LinkState)> = footprint
                .iter()
                .map(|&l| (l, LinkState::Disabled))
                .collect();
            changes.extend(r.enable.iter().map(|&l| (l, LinkState::Enabled)));
            let mut probe = state.clone();
            assert!(probe.evaluate(&changes).unwrap().safe());
        }
    }
}
