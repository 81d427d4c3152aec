//! The fast checker (CorrOpt, section 3.4) and the switch-local baseline
//! (section 3.3): greedy, one corrupting link at a time.

use super::model::at_most;
use super::{CorrOptError, CorrOptState, CorruptingLink, LinkState, Penalty};
use crate::fabric::{LinkId, SwitchId};

/// How one ToR's capacity changes (or would change) when a link is disabled.
#[derive(Debug, Clone, PartialEq)]
pub struct TorImpact {
    /// The ToR.
    pub tor: SwitchId,
    /// Up-paths before the change.
    pub paths_before: u64,
    /// Up-paths after the change.
    pub paths_after: u64,
    /// Up-paths with every link usable.
    pub design_paths: u64,
    /// Up-paths the ToR must keep.
    pub required_paths: u64,
    /// `paths_before / design_paths`.
    pub fraction_before: f64,
    /// `paths_after / design_paths`.
    pub fraction_after: f64,
    /// The ToR's threshold fraction.
    pub threshold: f64,
}

/// Why a corrupting link was left enabled.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// Disabling it would leave these ToRs under their threshold (or, for a
    /// ToR already under it, lower still). Ascending switch order.
    TorCapacity {
        /// The blocking ToRs.
        tors: Vec<SwitchId>,
    },
    /// Switch-local rule: the link's lower switch already has its allowance
    /// of up-links out of service.
    SwitchAllowance {
        /// The link's lower switch.
        switch: SwitchId,
        /// Its up-links not enabled (disabled or down).
        out_of_service: u64,
        /// `floor(m (1 - s))` for its `m` up-links.
        allowance: u64,
    },
}

/// The outcome for one corrupting link.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The link.
    pub link: LinkId,
    /// Its penalty `I(f)`.
    pub penalty: f64,
    /// Whether the link was disabled.
    pub disabled: bool,
    /// ToRs whose capacity changed, or would have changed if refused.
    pub affected: Vec<TorImpact>,
    /// Why it stayed enabled; `None` when disabled.
    pub refusal: Option<Refusal>,
}

/// The switch-local share `s = c^(1/r)` that guarantees ToR capacity `c` in a
/// uniform Clos with `tiers_above_tor` tiers above the ToR.
pub fn switch_local_share(capacity: f64, tiers_above_tor: u32) -> f64 {
    if tiers_above_tor == 0 {
        return 1.0;
    }
    capacity.powf(1.0 / f64::from(tiers_above_tor))
}

/// Corrupting links in the order the checkers consider them: decreasing
/// penalty (both directions, [`CorruptingLink::penalty`]), then ascending
/// link index so that the order is deterministic.
pub(crate) fn by_decreasing_penalty(
    links: &[CorruptingLink],
    penalty: Penalty,
) -> Vec<(LinkId, f64)> {
    let mut order: Vec<(LinkId, f64)> =
        links.iter().map(|c| (c.link, c.penalty(penalty))).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    order
}

impl CorrOptState<'_> {
    /// Fast checker for one newly corrupting, enabled link: disables it if and
    /// only if no ToR below it falls under its threshold.
    ///
    /// Costs one incremental recount of the link's down-cone (two if refused,
    /// to restore the counts).
    pub fn check(
        &mut self,
        link: CorruptingLink,
        penalty: Penalty,
    ) -> Result<Decision, CorrOptError> {
        self.check_corrupting(std::slice::from_ref(&link))?;
        self.check_enabled(link.link)?;
        self.try_disable(link.link, link.penalty(penalty))
    }

    /// Fast checker for corrupting links arriving together: each in turn, in
    /// decreasing penalty (ties by link index). Decisions come back in that
    /// order. Every link must be enabled.
    pub fn check_batch(
        &mut self,
        links: &[CorruptingLink],
        penalty: Penalty,
    ) -> Result<Vec<Decision>, CorrOptError> {
        self.check_corrupting(links)?;
        for c in links {
            self.check_enabled(c.link)?;
        }
        by_decreasing_penalty(links, penalty)
            .into_iter()
            .map(|(link, p)| self.try_disable(link, p))
            .collect()
    }

    /// Switch-local baseline as operators run it: in decreasing penalty, a
    /// corrupting link is disabled if its lower switch, with `m` up-links, has
    /// fewer than `floor(m (1 - share))` up-links out of service (disabled or
    /// down). ToR capacity is not consulted, so decisions may leave ToRs under
    /// their threshold; `affected` shows by how much.
    pub fn switch_local(
        &mut self,
        links: &[CorruptingLink],
        penalty: Penalty,
        share: f64,
    ) -> Result<Vec<Decision>, CorrOptError> {
        if !(0.0..=1.0).contains(&share) {
            return Err(CorrOptError::LocalShare { value: share });
        }
        self.check_corrupting(links)?;
        for c in links {
            self.check_enabled(c.link)?;
        }
        let mut decisions = Vec::with_capacity(links.len());
        for (link, p) in by_decreasing_penalty(links, penalty) {
            let switch = self.fabric.lower(link);
            let uplinks = self.fabric.up_links(switch);
            let allowance = at_most(uplinks.len() as f64 * (1.0 - share));
            let out_of_service = uplinks
                .iter()
                .filter(|&&l| self.states[l as usize] != LinkState::Enabled)
                .count() as u64;
            if out_of_service >= allowance {
                decisions.push(Decision {
                    link,
                    penalty: p,
                    disabled: false,
                    affected: Vec::new(),
                    refusal: Some(Refusal::SwitchAllowance {
                        switch,
                        out_of_service,
                        allowance,
                    }),
                });
                continue;
            }
            let affected = self.set_link_state(link, LinkState::Disabled)?;
            decisions.push(Decision {
                link,
                penalty: p,
                disabled: true,
                affected,
                refusal: None,
            });
        }
        Ok(decisions)
    }

    fn check_enabled(&self, link: LinkId) -> Result<(), CorrOptError> {
        match self.states[link as usize] {
            LinkState::Enabled => Ok(()),
            state => Err(CorrOptError::NotEnabled { link, state }),
        }
    }

    /// Disables `link` unless a ToR would drop below its floor; the counts are
    /// restored when refused.
    fn try_disable(&mut self, link: LinkId, penalty: f64) -> Result<Decision, CorrOptError> {
        let changes = self.paths.set_link_usable(&self.fabric, link, false)?;
        let affected = self.tor_impacts(&changes);
        let blocking: Vec<SwitchId> = affected
            .iter()
            .filter(|i| i.paths_after < self.floor(i.tor, i.paths_before))
            .map(|i| i.tor)
            .collect();
        if blocking.is_empty() {
            self.states[link as usize] = LinkState::Disabled;
            return Ok(Decision {
                link,
                penalty,
                disabled: true,
                affected,
                refusal: None,
            });
        }
        // Restores exactly the counts just computed, so it cannot overflow.
        self.paths.set_link_usable(&self.fabric, link, true)?;
        let mut tors = blocking;
        tors.sort_unstable();
        Ok(Decision {
            link,
            penalty,
            disabled: false,
            affected,
            refusal: Some(Refusal::TorCapacity { tors }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corropt::Thresholds;
    use crate::fabric::generators::fat_tree;

    fn corrupting(link: LinkId, loss_rate: f64) -> CorruptingLink {
        CorruptingLink::new(link, loss_rate)
    }

    #[test]
    fn disables_when_every_tor_below_stays_above_threshold() {
        // k=4 fat tree: each ToR has 4 paths; at c = 0.5 it may lose 2.
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let tor_link = g.up_links(0)[0];
        let d = state
            .check(corrupting(tor_link, 1e-4), Penalty::Linear)
            .unwrap();
        assert!(d.disabled);
        assert_eq!(d.refusal, None);
        assert_eq!(d.affected.len(), 1);
        assert_eq!(d.affected[0].tor, 0);
        assert_eq!(d.affected[0].fraction_before, 1.0);
        assert_eq!(d.affected[0].fraction_after, 0.5);
        assert_eq!(state.link_states()[tor_link as usize], LinkState::Disabled);
    }

    #[test]
    fn refuses_and_names_the_blocking_tor() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        state
            .check(corrupting(g.up_links(0)[0], 1e-4), Penalty::Linear)
            .unwrap();
        // The other aggregation switch's up-link feeds ToR 0 (now 2 paths, one
        // would remain) and ToR 1 (4 paths, 3 would remain).
        let agg = g.upper(g.up_links(0)[1]);
        let link = g.up_links(agg)[0];
        let counts_before = state.up_paths().to_vec();
        let d = state
            .check(corrupting(link, 1e-5), Penalty::Linear)
            .unwrap();
        assert!(!d.disabled);
        assert_eq!(d.refusal, Some(Refusal::TorCapacity { tors: vec![0] }));
        let after: Vec<(SwitchId, u64)> =
            d.affected.iter().map(|i| (i.tor, i.paths_after)).collect();
        assert_eq!(after, vec![(0, 1), (1, 3)]);
        assert_eq!(state.up_paths(), &counts_before[..]);
        assert_eq!(state.link_states()[link as usize], LinkState::Enabled);
    }

    #[test]
    fn batch_goes_in_decreasing_penalty() {
        // ToR 0 may lose only one of its two up-links at c = 0.5: the worse wins.
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let agg_link = g.up_links(g.upper(b))[0];
        let decisions = state
            .check_batch(
                &[
                    corrupting(a, 1e-6),
                    corrupting(b, 1e-3),
                    corrupting(agg_link, 1e-5),
                ],
                Penalty::Linear,
            )
            .unwrap();
        let order: Vec<(LinkId, bool)> = decisions.iter().map(|d| (d.link, d.disabled)).collect();
        // b first (disabled), then the agg link (ToR 0 does not use it any
        // more; ToR 1 goes to 3 of 4), then a (would leave ToR 0 with 0).
        assert_eq!(order, vec![(b, true), (agg_link, true), (a, false)]);
    }

    #[test]
    fn both_directions_count_as_two_penalties_not_one_summed_rate() {
        // ToR 0 may lose one of its two up-links at c = 0.5. Link a corrupts
        // at 1e-5 both ways, link b at 1e-4 one way. Linear: a costs 2e-5 <
        // 1e-4, so b goes. Log: a costs 2 * 3.0 = 6 > 4, step: 2 + 2 = 4 > 3,
        // so a goes; summing a's rates first (2e-5: log 3.3, step 2) would
        // wrongly pick b.
        let g = fat_tree(4);
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let pair = [
            CorruptingLink::both_directions(a, 1e-5, 1e-5),
            CorruptingLink::new(b, 1e-4),
        ];
        let summed = [CorruptingLink::new(a, 2e-5), CorruptingLink::new(b, 1e-4)];
        let disabled = |links: &[CorruptingLink], penalty| {
            let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
            let decisions = state.check_batch(links, penalty).unwrap();
            assert_eq!(decisions.iter().filter(|d| d.disabled).count(), 1);
            decisions.iter().find(|d| d.disabled).unwrap().link
        };
        assert_eq!(disabled(&pair, Penalty::Linear), b);
        for penalty in [Penalty::Log, Penalty::Step] {
            assert_eq!(disabled(&pair, penalty), a, "{penalty:?}");
            assert_eq!(disabled(&summed, penalty), b, "{penalty:?}");
        }
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let d = state.check(pair[0], Penalty::Step).unwrap();
        assert_eq!(d.penalty, 4.0);
        let err = state
            .check(CorruptingLink::both_directions(b, 0.0, 1.5), Penalty::Log)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("link {b}: downward loss rate 1.5 is not a fraction in [0, 1]")
        );
    }

    #[test]
    fn tor_already_below_threshold_loses_nothing_more() {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        states[g.up_links(0)[0] as usize] = LinkState::Down;
        let mut state = CorrOptState::new(&g, states, &Thresholds::new(0.9).unwrap()).unwrap();
        let d = state
            .check(corrupting(g.up_links(0)[1], 1e-3), Penalty::Linear)
            .unwrap();
        assert_eq!(d.refusal, Some(Refusal::TorCapacity { tors: vec![0] }));
    }

    #[test]
    fn link_feeding_no_tor_is_always_disabled() {
        // A threshold of 1 blocks anything that touches a ToR; a link whose
        // lower switch no longer reaches any ToR is free.
        let g = fat_tree(4);
        let agg = g.upper(g.up_links(0)[0]);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        for &down in g.down_links(agg) {
            states[down as usize] = LinkState::Down;
        }
        let mut state = CorrOptState::new(&g, states, &Thresholds::new(1.0).unwrap()).unwrap();
        let d = state
            .check(corrupting(g.up_links(agg)[0], 1e-3), Penalty::Linear)
            .unwrap();
        assert!(d.disabled);
        assert!(d.affected.is_empty());
    }

    #[test]
    fn rejects_bad_input() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let err = state
            .check(corrupting(99, 1e-4), Penalty::Linear)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "link 99 does not exist (the fabric has 32 links)"
        );
        let err = state
            .check(corrupting(0, 2.0), Penalty::Linear)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "link 0: loss rate 2 is not a fraction in [0, 1]"
        );
        let err = state
            .check_batch(&[corrupting(1, 1e-4), corrupting(1, 1e-5)], Penalty::Linear)
            .unwrap_err();
        assert_eq!(err, CorrOptError::DuplicateLink { link: 1 });
        state.set_link_state(2, LinkState::Down).unwrap();
        let err = state
            .check(corrupting(2, 1e-4), Penalty::Linear)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "link 2 is Down, not Enabled; nothing to decide"
        );
        let err = state
            .switch_local(&[corrupting(1, 1e-4)], Penalty::Linear, 1.2)
            .unwrap_err();
        assert_eq!(err, CorrOptError::LocalShare { value: 1.2 });
    }

    #[test]
    fn switch_local_respects_each_switch_allowance() {
        // k=4: 2 up-links per switch; share 0.5 allows 1 out of service each.
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.0).unwrap()).unwrap();
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let decisions = state
            .switch_local(
                &[corrupting(a, 1e-3), corrupting(b, 1e-4)],
                Penalty::Linear,
                0.5,
            )
            .unwrap();
        assert!(decisions[0].disabled);
        assert_eq!(
            decisions[1].refusal,
            Some(Refusal::SwitchAllowance {
                switch: 0,
                out_of_service: 1,
                allowance: 1
            })
        );
        assert!((switch_local_share(0.6, 2) - 0.6f64.sqrt()).abs() < 1e-15);
        assert_eq!(switch_local_share(0.6, 0), 1.0);
    }
}
