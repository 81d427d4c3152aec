//! The capacity guard: what a set of link state changes would do to every
//! ToR, decided as one set, without changing the state.
//!
//! People and machines change link states for other reasons than corruption
//! (an operator disables a link, a switch is drained for maintenance, a link
//! goes down). The rule is the fast checker's, applied to the whole set: the
//! change is safe when no ToR ends below its floor, `min(required, current)`
//! (a ToR already under its requirement may lose nothing more). Links put
//! back in service are part of the set, so a change that moves traffic from
//! one link to another is judged on its net effect.

use std::collections::{HashMap, HashSet};

use super::checker::TorImpact;
use super::{CorrOptError, CorrOptState, LinkState};
use crate::fabric::{CountChange, LinkId, SwitchId};

/// The verdict on a set of link state changes.
#[derive(Debug, Clone, PartialEq)]
pub struct SetEvaluation {
    /// ToRs whose up-path count the set changes, ascending.
    pub affected: Vec<TorImpact>,
    /// Affected ToRs that would end below their floor, ascending; empty when
    /// the set is safe.
    pub blocking: Vec<SwitchId>,
}

impl SetEvaluation {
    /// Whether the set leaves every ToR at or above its floor.
    pub fn safe(&self) -> bool {
        self.blocking.is_empty()
    }
}

impl CorrOptState<'_> {
    /// Evaluates setting every `(link, state)` of `changes` at once. The
    /// state (link states and counts) is the same afterwards as before.
    ///
    /// Cost: two incremental recounts of each changed link's down-cone (one
    /// to apply, one to restore); a link already in the asked state costs
    /// nothing. Errors (unknown or repeated link, overflow) leave the state
    /// as it was.
    pub fn evaluate(
        &mut self,
        changes: &[(LinkId, LinkState)],
    ) -> Result<SetEvaluation, CorrOptError> {
        let mut seen = HashSet::with_capacity(changes.len());
        for &(link, _) in changes {
            self.check_link(link)?;
            if !seen.insert(link) {
                return Err(CorrOptError::DuplicateLink { link });
            }
        }
        // Only the usable mask matters for counting: disabled and down are alike.
        let flips: Vec<(LinkId, bool)> = changes
            .iter()
            .map(|&(link, state)| (link, state == LinkState::Enabled))
            .filter(|&(link, usable)| self.paths.usable()[link as usize] != usable)
            .collect();
        let mut net: HashMap<SwitchId, (u64, u64)> = HashMap::new();
        let mut applied = 0;
        let mut failure = None;
        for &(link, usable) in &flips {
            match self.paths.set_link_usable(&self.fabric, link, usable) {
                Ok(steps) => {
                    applied += 1;
                    for CountChange {
                        switch,
                        before,
                        after,
                    } in steps
                    {
                        net.entry(switch)
                            .and_modify(|e| e.1 = after)
                            .or_insert((before, after));
                    }
                }
                Err(err) => {
                    failure = Some(err);
                    break;
                }
            }
        }
        // Undo in reverse order: each step restores counts that existed
        // before, so it cannot overflow.
        for &(link, usable) in flips[..applied].iter().rev() {
            self.paths.set_link_usable(&self.fabric, link, !usable)?;
        }
        if let Some(err) = failure {
            return Err(err.into());
        }
        let mut changed: Vec<CountChange> = net
            .into_iter()
            .filter(|&(_, (before, after))| before != after)
            .map(|(switch, (before, after))| CountChange {
                switch,
                before,
                after,
            })
            .collect();
        changed.sort_unstable_by_key(|c| c.switch);
        let affected = self.tor_impacts(&changed);
        let blocking = affected
            .iter()
            .filter(|i| i.paths_after < self.floor(i.tor, i.paths_before))
            .map(|i| i.tor)
            .collect();
        Ok(SetEvaluation { affected, blocking })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corropt::Thresholds;
    use crate::fabric::generators::fat_tree;

    #[test]
    fn a_set_is_judged_together_and_leaves_the_state_as_it_was() {
        // k = 4 fat tree at c = 0.5: each ToR has 4 paths and needs 2.
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let counts = state.up_paths().to_vec();
        let [first, second] = [g.up_links(0)[0], g.up_links(0)[1]];
        // Either up-link alone is safe; both together cut ToR 0 off.
        assert!(
            state
                .evaluate(&[(first, LinkState::Disabled)])
                .unwrap()
                .safe()
        );
        let both = state
            .evaluate(&[(first, LinkState::Disabled), (second, LinkState::Down)])
            .unwrap();
        assert_eq!(both.blocking, vec![0]);
        assert_eq!(both.affected.len(), 1);
        assert_eq!(
            (both.affected[0].paths_before, both.affected[0].paths_after),
            (4, 0)
        );
        assert_eq!(state.up_paths(), &counts[..]);
        assert!(state.link_states().iter().all(|&s| s == LinkState::Enabled));
    }

    #[test]
    fn putting_a_link_back_offsets_taking_another_out() {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        let [first, second] = [g.up_links(0)[0], g.up_links(0)[1]];
        states[first as usize] = LinkState::Disabled;
        let mut state = CorrOptState::new(&g, states, &Thresholds::new(0.5).unwrap()).unwrap();
        // Swap which up-link of ToR 0 is in service: its count stays 2.
        let swap = state
            .evaluate(&[(first, LinkState::Enabled), (second, LinkState::Disabled)])
            .unwrap();
        assert!(swap.safe());
        assert!(swap.affected.iter().all(|i| i.tor != 0));
        // Enabling a link that is already enabled, or disabling a disabled
        // one, changes nothing.
        let none = state
            .evaluate(&[(first, LinkState::Disabled), (second, LinkState::Enabled)])
            .unwrap();
        assert_eq!(none.affected, vec![]);
    }

    #[test]
    fn a_tor_already_under_its_requirement_may_lose_nothing_more() {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        states[g.up_links(0)[0] as usize] = LinkState::Down;
        // c = 1: ToR 0 (2 of 4) is already under; ToR 1 is not.
        let mut state = CorrOptState::new(&g, states, &Thresholds::new(1.0).unwrap()).unwrap();
        let agg = g.upper(g.up_links(0)[1]);
        let verdict = state
            .evaluate(&[(g.up_links(agg)[0], LinkState::Disabled)])
            .unwrap();
        assert_eq!(verdict.blocking, vec![0, 1]);
    }

    #[test]
    fn rejects_unknown_and_repeated_links_without_changing_anything() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let link = g.up_links(0)[0];
        let err = state
            .evaluate(&[(link, LinkState::Disabled), (link, LinkState::Enabled)])
            .unwrap_err();
        assert_eq!(err, CorrOptError::DuplicateLink { link });
        let err = state
            .evaluate(&[(link, LinkState::Disabled), (999, LinkState::Disabled)])
            .unwrap_err();
        assert!(matches!(err, CorrOptError::UnknownLink { link: 999, .. }));
        assert_eq!(state.up_paths()[0], 4);
    }
}
