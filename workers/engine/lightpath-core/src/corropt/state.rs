//! Link states of one fabric with live up-path counts and per-ToR
//! requirements.

use std::collections::HashSet;
use std::ops::Deref;
use std::sync::Arc;

use super::checker::TorImpact;
use super::model::required_paths;
use super::{CorrOptError, CorruptingLink, LinkState, Thresholds};
use crate::fabric::{CountChange, FabricGraph, LinkId, PathCounts, SwitchId};

/// How a [`CorrOptState`] holds its fabric: borrowed for `'g`, or shared
/// through an [`Arc`] so that the state owns it (`CorrOptState<'static>`,
/// which can live in a long-lived object such as a Python session).
#[derive(Debug, Clone)]
pub(crate) enum FabricHandle<'g> {
    Borrowed(&'g FabricGraph),
    Shared(Arc<FabricGraph>),
}

impl Deref for FabricHandle<'_> {
    type Target = FabricGraph;

    fn deref(&self) -> &FabricGraph {
        match self {
            FabricHandle::Borrowed(fabric) => fabric,
            FabricHandle::Shared(fabric) => fabric,
        }
    }
}

/// The state CorrOpt decides on: every link's [`LinkState`], up-path counts
/// over enabled links (kept current incrementally), and each ToR's design
/// count and required count.
///
/// The state either borrows its fabric ([`CorrOptState::new`]) or shares
/// ownership of it ([`CorrOptState::new_shared`], giving a
/// `CorrOptState<'static>`); both behave identically.
#[derive(Debug, Clone)]
pub struct CorrOptState<'g> {
    pub(crate) fabric: FabricHandle<'g>,
    pub(crate) states: Vec<LinkState>,
    /// Counts with `usable[l] == (states[l] == Enabled)`.
    pub(crate) paths: PathCounts,
    pub(crate) design: Vec<u64>,
    /// Per switch; 0 for switches that are not ToRs.
    pub(crate) required: Vec<u64>,
    /// Per switch; 0.0 for switches that are not ToRs.
    pub(crate) threshold: Vec<f64>,
}

impl<'g> CorrOptState<'g> {
    /// A state with the given link states (one per link of `fabric`).
    pub fn new(
        fabric: &'g FabricGraph,
        states: Vec<LinkState>,
        thresholds: &Thresholds,
    ) -> Result<Self, CorrOptError> {
        Self::with_handle(FabricHandle::Borrowed(fabric), states, thresholds)
    }

    fn with_handle(
        fabric: FabricHandle<'g>,
        states: Vec<LinkState>,
        thresholds: &Thresholds,
    ) -> Result<Self, CorrOptError> {
        if states.len() != fabric.num_links() {
            return Err(CorrOptError::StatesLength {
                expected: fabric.num_links(),
                got: states.len(),
            });
        }
        thresholds.check_against(&fabric)?;
        let usable = states.iter().map(|&s| s == LinkState::Enabled).collect();
        let paths = PathCounts::new(&fabric, usable)?;
        let design = fabric.total_up_paths()?;
        let mut required = vec![0; fabric.num_switches()];
        let mut threshold = vec![0.0; fabric.num_switches()];
        for &tor in fabric.tors() {
            let fraction = thresholds.for_tor(tor);
            threshold[tor as usize] = fraction;
            required[tor as usize] = required_paths(fraction, design[tor as usize]);
        }
        Ok(Self {
            fabric,
            states,
            paths,
            design,
            required,
            threshold,
        })
    }

    /// A state with every link enabled.
    pub fn all_enabled(
        fabric: &'g FabricGraph,
        thresholds: &Thresholds,
    ) -> Result<Self, CorrOptError> {
        Self::new(
            fabric,
            vec![LinkState::Enabled; fabric.num_links()],
            thresholds,
        )
    }

    /// Like [`CorrOptState::new`], but the state shares ownership of `fabric`
    /// instead of borrowing it, so it can be kept for as long as needed.
    pub fn new_shared(
        fabric: Arc<FabricGraph>,
        states: Vec<LinkState>,
        thresholds: &Thresholds,
    ) -> Result<CorrOptState<'static>, CorrOptError> {
        CorrOptState::with_handle(FabricHandle::Shared(fabric), states, thresholds)
    }

    /// The fabric this state belongs to.
    pub fn fabric(&self) -> &FabricGraph {
        &self.fabric
    }

    /// State of every link, indexed by link.
    pub fn link_states(&self) -> &[LinkState] {
        &self.states
    }

    /// Up-paths of every switch over enabled links, indexed by switch.
    pub fn up_paths(&self) -> &[u64] {
        self.paths.counts()
    }

    /// Up-paths of switch `s` with every link usable.
    pub fn design_paths(&self, s: SwitchId) -> u64 {
        self.design[s as usize]
    }

    /// Up-paths ToR `tor` must keep: `ceil(threshold * design)`.
    pub fn required_paths(&self, tor: SwitchId) -> u64 {
        self.required[tor as usize]
    }

    /// Current capacity fraction of switch `s` (1.0 if it has no design paths).
    pub fn capacity_fraction(&self, s: SwitchId) -> f64 {
        fraction(self.paths.counts()[s as usize], self.design[s as usize])
    }

    /// The ToR with the smallest capacity fraction (lowest index on ties), or
    /// `None` if the fabric has no ToRs.
    pub fn worst_tor(&self) -> Option<(SwitchId, f64)> {
        self.fabric
            .tors()
            .iter()
            .map(|&t| (t, self.capacity_fraction(t)))
            .fold(None, |worst, (t, f)| match worst {
                Some((_, wf)) if wf <= f => worst,
                _ => Some((t, f)),
            })
    }

    /// ToRs currently below their required count.
    pub fn tors_below_threshold(&self) -> Vec<SwitchId> {
        self.fabric
            .tors()
            .iter()
            .copied()
            .filter(|&t| self.paths.counts()[t as usize] < self.required[t as usize])
            .collect()
    }

    /// Sets one link's state unconditionally (a repair brings a link back, a
    /// link goes down, an operator disables it) and returns the ToRs whose
    /// capacity changed.
    pub fn set_link_state(
        &mut self,
        link: LinkId,
        state: LinkState,
    ) -> Result<Vec<TorImpact>, CorrOptError> {
        self.check_link(link)?;
        let changes =
            self.paths
                .set_link_usable(&self.fabric, link, state == LinkState::Enabled)?;
        self.states[link as usize] = state;
        Ok(self.tor_impacts(&changes))
    }

    pub(crate) fn check_link(&self, link: LinkId) -> Result<(), CorrOptError> {
        if (link as usize) < self.states.len() {
            Ok(())
        } else {
            Err(CorrOptError::UnknownLink {
                link,
                num_links: self.states.len(),
            })
        }
    }

    /// Checks link indices, loss rates and duplicates of a corrupting set.
    pub(crate) fn check_corrupting(&self, links: &[CorruptingLink]) -> Result<(), CorrOptError> {
        let mut seen = HashSet::with_capacity(links.len());
        for c in links {
            self.check_link(c.link)?;
            for (value, down) in [(c.loss_rate, false), (c.loss_rate_down, true)] {
                if !(0.0..=1.0).contains(&value) {
                    return Err(CorrOptError::LossRate {
                        link: c.link,
                        value,
                        down,
                    });
                }
            }
            if !seen.insert(c.link) {
                return Err(CorrOptError::DuplicateLink { link: c.link });
            }
        }
        Ok(())
    }

    /// The fewest up-paths ToR `tor` may be left with, given it now has
    /// `current`: its requirement, or what it has if it is already below.
    pub(crate) fn floor(&self, tor: SwitchId, current: u64) -> u64 {
        self.required[tor as usize].min(current)
    }

    pub(crate) fn tor_impacts(&self, changes: &[CountChange]) -> Vec<TorImpact> {
        changes
            .iter()
            .filter(|c| self.fabric.tier(c.switch) == 0)
            .map(|c| {
                let design = self.design[c.switch as usize];
                TorImpact {
                    tor: c.switch,
                    paths_before: c.before,
                    paths_after: c.after,
                    design_paths: design,
                    required_paths: self.required[c.switch as usize],
                    fraction_before: fraction(c.before, design),
                    fraction_after: fraction(c.after, design),
                    threshold: self.threshold[c.switch as usize],
                }
            })
            .collect()
    }
}

pub(crate) fn fraction(available: u64, design: u64) -> f64 {
    if design == 0 {
        1.0
    } else {
        available as f64 / design as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corropt::Penalty;
    use crate::fabric::generators::fat_tree;

    #[test]
    fn down_and_disabled_links_both_remove_capacity() {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        states[g.up_links(0)[0] as usize] = LinkState::Down;
        states[g.up_links(1)[0] as usize] = LinkState::Disabled;
        let state = CorrOptState::new(&g, states, &Thresholds::new(0.75).unwrap()).unwrap();
        assert_eq!(state.up_paths()[0], 2);
        assert_eq!(state.up_paths()[1], 2);
        assert_eq!(state.capacity_fraction(0), 0.5);
        assert_eq!(state.required_paths(0), 3);
        assert_eq!(state.tors_below_threshold(), vec![0, 1]);
        assert_eq!(state.worst_tor(), Some((0, 0.5)));
    }

    #[test]
    fn set_link_state_reports_changed_tors() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        // An aggregation up-link: both ToRs of pod 0 lose one path.
        let agg_link = g.up_links(8)[0];
        let impacts = state.set_link_state(agg_link, LinkState::Down).unwrap();
        let tors: Vec<SwitchId> = impacts.iter().map(|i| i.tor).collect();
        assert_eq!(tors, vec![0, 1]);
        assert_eq!(impacts[0].fraction_before, 1.0);
        assert_eq!(impacts[0].fraction_after, 0.75);
        let impacts = state.set_link_state(agg_link, LinkState::Enabled).unwrap();
        assert_eq!(impacts[0].paths_after, 4);
        assert_eq!(state.link_states()[agg_link as usize], LinkState::Enabled);
    }

    #[test]
    fn shared_state_owns_its_fabric_and_decides_like_a_borrowed_one() {
        let g = fat_tree(4);
        let t = Thresholds::new(0.5).unwrap();
        let mut states = vec![LinkState::Enabled; g.num_links()];
        states[g.up_links(0)[0] as usize] = LinkState::Down;
        let mut borrowed = CorrOptState::new(&g, states.clone(), &t).unwrap();
        // Built from a fabric that goes out of scope: the state keeps it alive.
        let owned = |states| -> CorrOptState<'static> {
            CorrOptState::new_shared(Arc::new(fat_tree(4)), states, &t).unwrap()
        };
        let mut shared = owned(states);
        let links: Vec<LinkId> = (0..shared.fabric().num_links() as LinkId).collect();
        for &link in &links {
            if shared.link_states()[link as usize] != LinkState::Enabled {
                continue;
            }
            let c = CorruptingLink::new(link, 1e-4);
            let a = borrowed.check(c, Penalty::Linear).unwrap();
            let b = shared.check(c, Penalty::Linear).unwrap();
            assert_eq!(a, b);
        }
        assert_eq!(borrowed.link_states(), shared.link_states());
        assert_eq!(borrowed.up_paths(), shared.up_paths());
    }

    #[test]
    fn rejects_wrong_state_length_and_non_tor_override() {
        let g = fat_tree(4);
        let t = Thresholds::new(0.5).unwrap();
        let err = CorrOptState::new(&g, vec![LinkState::Enabled; 3], &t).unwrap_err();
        assert_eq!(
            err.to_string(),
            "link states have length 3 but the fabric has 32 links"
        );
        let t = t.with_override(8, 0.5).unwrap();
        let err = CorrOptState::all_enabled(&g, &t).unwrap_err();
        assert_eq!(err, CorrOptError::NotATor { switch: 8 });
    }
}
