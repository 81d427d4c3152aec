//! Counting valley-free up-paths: for every switch, the number of strictly
//! upward link sequences from it to any top-tier switch over usable links.
//!
//! This is the capacity metric of CorrOpt: a ToR's capacity is its count with
//! the current usable links divided by its count with every link usable.
//! Counts are built tier by tier from the top down (top-tier switches count 1,
//! every other switch sums the counts above its usable up-links), which is
//! O(|V| + |E|).

use super::{FabricGraph, LinkId, PathError, SwitchId};

/// Up-path counts of one ToR (a tier-0 switch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TorCapacity {
    /// The ToR's switch index.
    pub switch: SwitchId,
    /// Up-paths over usable links.
    pub available: u64,
    /// Up-paths with every link usable.
    pub total: u64,
}

impl FabricGraph {
    /// Up-path count of every switch (indexed by switch) when only links with
    /// `usable[l] == true` may be used.
    pub fn up_paths(&self, usable: &[bool]) -> Result<Vec<u64>, PathError> {
        self.check_mask(usable)?;
        self.count_all(|l| usable[l as usize])
    }

    /// Up-path count of every switch with every link usable.
    pub fn total_up_paths(&self) -> Result<Vec<u64>, PathError> {
        self.count_all(|_| true)
    }

    /// `(available, total)` up-paths of every ToR, in switch index order.
    pub fn tor_capacity(&self, usable: &[bool]) -> Result<Vec<TorCapacity>, PathError> {
        let available = self.up_paths(usable)?;
        let total = self.total_up_paths()?;
        Ok(self
            .tors()
            .iter()
            .map(|&s| TorCapacity {
                switch: s,
                available: available[s as usize],
                total: total[s as usize],
            })
            .collect())
    }

    fn check_mask(&self, usable: &[bool]) -> Result<(), PathError> {
        if usable.len() == self.num_links() {
            Ok(())
        } else {
            Err(PathError::MaskLength {
                expected: self.num_links(),
                got: usable.len(),
            })
        }
    }

    /// Generic over the mask so that the all-usable case compiles to a loop
    /// without mask lookups.
    fn count_all(&self, usable: impl Fn(LinkId) -> bool) -> Result<Vec<u64>, PathError> {
        let mut counts = vec![0u64; self.num_switches()];
        for tier in (0..self.num_tiers).rev() {
            for &s in self.switches_in_tier(tier) {
                counts[s as usize] = self.count_one(s, &counts, &usable)?;
            }
        }
        Ok(counts)
    }

    /// Count of switch `s` from the counts of the switches above it.
    fn count_one(
        &self,
        s: SwitchId,
        counts: &[u64],
        usable: impl Fn(LinkId) -> bool,
    ) -> Result<u64, PathError> {
        if self.tier(s) + 1 == self.num_tiers {
            return Ok(1);
        }
        let mut sum = 0u64;
        for &l in self.up_links(s) {
            if usable(l) {
                sum = sum
                    .checked_add(counts[self.upper(l) as usize])
                    .ok_or(PathError::Overflow { switch: s })?;
            }
        }
        Ok(sum)
    }
}

/// A switch whose up-path count changed in an incremental update.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountChange {
    /// The switch index.
    pub switch: SwitchId,
    /// Count before the update.
    pub before: u64,
    /// Count after the update.
    pub after: u64,
}

/// Up-path counts under a usable-link mask, kept current as single links are
/// disabled or enabled.
///
/// Changing link `l` can only change the counts of its lower switch and of the
/// switches that reach it over usable links, so an update recounts that set
/// tier by tier downward and stops where counts no longer change. The state
/// does not borrow the fabric; every call takes the same [`FabricGraph`] it
/// was created from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCounts {
    usable: Vec<bool>,
    counts: Vec<u64>,
    /// Scratch: switches already queued for the next tier down.
    queued: Vec<bool>,
}

impl PathCounts {
    /// Counts up-paths of `fabric` under the `usable` mask.
    pub fn new(fabric: &FabricGraph, usable: Vec<bool>) -> Result<Self, PathError> {
        let counts = fabric.up_paths(&usable)?;
        Ok(Self {
            usable,
            queued: vec![false; counts.len()],
            counts,
        })
    }

    /// Up-path count of every switch, indexed by switch.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The current usable-link mask, indexed by link.
    pub fn usable(&self) -> &[bool] {
        &self.usable
    }

    /// Marks link `link` usable or not and updates the counts, returning the
    /// switches whose count changed, from the link's lower switch downward.
    ///
    /// On error (unknown link, or overflow when enabling a link) the state is
    /// left as it was.
    ///
    /// # Panics
    /// If `fabric` is not the graph these counts were created from (its switch
    /// or link count differs).
    pub fn set_link_usable(
        &mut self,
        fabric: &FabricGraph,
        link: LinkId,
        usable: bool,
    ) -> Result<Vec<CountChange>, PathError> {
        assert!(
            fabric.num_switches() == self.counts.len() && fabric.num_links() == self.usable.len(),
            "PathCounts used with a different fabric than it was created from"
        );
        let Some(&was_usable) = self.usable.get(link as usize) else {
            return Err(PathError::UnknownLink {
                link,
                num_links: self.usable.len(),
            });
        };
        if was_usable == usable {
            return Ok(Vec::new());
        }
        self.usable[link as usize] = usable;

        let mut changes = Vec::new();
        let mut frontier = vec![fabric.lower(link)];
        let mut next = Vec::new();
        while !frontier.is_empty() {
            for &s in &frontier {
                let after = match fabric.count_one(s, &self.counts, |l| self.usable[l as usize]) {
                    Ok(after) => after,
                    Err(err) => {
                        self.rollback(link, &changes, &frontier, &next);
                        return Err(err);
                    }
                };
                let before = self.counts[s as usize];
                if after == before {
                    continue;
                }
                self.counts[s as usize] = after;
                changes.push(CountChange {
                    switch: s,
                    before,
                    after,
                });
                // Only switches reaching `s` over a usable link depend on it.
                for &down in fabric.down_links(s) {
                    let below = fabric.lower(down);
                    if self.usable[down as usize] && !self.queued[below as usize] {
                        self.queued[below as usize] = true;
                        next.push(below);
                    }
                }
            }
            for &s in &next {
                self.queued[s as usize] = false;
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        Ok(changes)
    }

    fn rollback(
        &mut self,
        link: LinkId,
        changes: &[CountChange],
        frontier: &[SwitchId],
        next: &[SwitchId],
    ) {
        self.usable[link as usize] = !self.usable[link as usize];
        for change in changes.iter().rev() {
            self.counts[change.switch as usize] = change.before;
        }
        for &s in frontier.iter().chain(next) {
            self.queued[s as usize] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ToRs (0, 1), two aggregation switches (2, 3), two spines (4, 5).
    /// ToR 0 has up-links to both aggs, ToR 1 only to agg 3 (over two
    /// parallel links); agg 2 reaches both spines, agg 3 only spine 5.
    fn small() -> FabricGraph {
        FabricGraph::new(
            3,
            vec![0, 0, 1, 1, 2, 2],
            //    l0 l1 l2 l3 l4 l5 l6
            vec![0, 0, 1, 1, 2, 2, 3],
            vec![2, 3, 3, 3, 4, 5, 5],
        )
        .unwrap()
    }

    #[test]
    fn counts_paths_with_every_link_usable() {
        let g = small();
        // Spines 1; agg 2: 2, agg 3: 1; ToR 0: 2 + 1, ToR 1: 1 + 1 (parallel links).
        assert_eq!(g.total_up_paths().unwrap(), vec![3, 2, 2, 1, 1, 1]);
    }

    #[test]
    fn unusable_links_remove_their_paths() {
        let g = small();
        let mut usable = vec![true; 7];
        usable[4] = false; // agg 2 -> spine 4
        usable[2] = false; // one of ToR 1's parallel links
        assert_eq!(g.up_paths(&usable).unwrap(), vec![2, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn switch_without_usable_up_links_counts_zero() {
        let g = small();
        let mut usable = vec![true; 7];
        usable[6] = false; // agg 3's only up-link
        assert_eq!(g.up_paths(&usable).unwrap(), vec![2, 0, 2, 0, 1, 1]);
    }

    #[test]
    fn isolated_top_tier_switch_counts_one() {
        let g = FabricGraph::new(2, vec![0, 1, 1], vec![0], vec![1]).unwrap();
        assert_eq!(g.total_up_paths().unwrap(), vec![1, 1, 1]);
    }

    #[test]
    fn single_tier_fabric_is_all_top() {
        let g = FabricGraph::new(1, vec![0, 0], vec![], vec![]).unwrap();
        assert_eq!(g.total_up_paths().unwrap(), vec![1, 1]);
        assert_eq!(
            g.tor_capacity(&[]).unwrap(),
            vec![
                TorCapacity {
                    switch: 0,
                    available: 1,
                    total: 1
                },
                TorCapacity {
                    switch: 1,
                    available: 1,
                    total: 1
                },
            ]
        );
    }

    #[test]
    fn tor_capacity_reports_every_tor_in_order() {
        let g = small();
        let mut usable = vec![true; 7];
        usable[0] = false;
        assert_eq!(
            g.tor_capacity(&usable).unwrap(),
            vec![
                TorCapacity {
                    switch: 0,
                    available: 1,
                    total: 3
                },
                TorCapacity {
                    switch: 1,
                    available: 2,
                    total: 2
                },
            ]
        );
    }

    #[test]
    fn rejects_mask_of_wrong_length() {
        let g = small();
        assert_eq!(
            g.up_paths(&[true; 6]).unwrap_err(),
            PathError::MaskLength {
                expected: 7,
                got: 6
            }
        );
        assert_eq!(
            g.up_paths(&[true; 6]).unwrap_err().to_string(),
            "usable mask has length 6 but the fabric has 7 links"
        );
    }

    /// A tower of `tiers` tiers, two switches per tier, each joined to both
    /// switches above it by `parallel` links: a switch `h` tiers below the top
    /// has `(2 * parallel)^h` up-paths.
    fn tower(tiers: u32, parallel: u32) -> FabricGraph {
        let switch_tiers: Vec<u32> = (0..tiers).flat_map(|t| [t, t]).collect();
        let (mut lower, mut upper) = (Vec::new(), Vec::new());
        for t in 0..tiers - 1 {
            for a in 0..2 {
                for b in 0..2 {
                    for _ in 0..parallel {
                        lower.push(2 * t + a);
                        upper.push(2 * (t + 1) + b);
                    }
                }
            }
        }
        FabricGraph::new(tiers, switch_tiers, lower, upper).unwrap()
    }

    #[test]
    fn largest_count_that_fits_is_exact() {
        // 256^7 = 2^56 fits.
        let counts = tower(8, 128).total_up_paths().unwrap();
        assert_eq!(counts[0], 1 << 56);
    }

    #[test]
    fn overflow_is_an_error() {
        // 256^8 = 2^64 does not fit; the first overflowing switch is a ToR.
        let err = tower(9, 128).total_up_paths().unwrap_err();
        assert_eq!(err, PathError::Overflow { switch: 0 });
        assert!(err.to_string().contains("switch 0"));
    }

    #[test]
    fn incremental_disable_updates_switches_below() {
        let g = small();
        let mut state = PathCounts::new(&g, vec![true; 7]).unwrap();
        let changes = state.set_link_usable(&g, 5, false).unwrap(); // agg 2 -> spine 5
        assert_eq!(
            changes,
            vec![
                CountChange {
                    switch: 2,
                    before: 2,
                    after: 1
                },
                CountChange {
                    switch: 0,
                    before: 3,
                    after: 2
                },
            ]
        );
        assert_eq!(state.counts(), g.up_paths(state.usable()).unwrap());
    }

    #[test]
    fn incremental_enable_restores_counts() {
        let g = small();
        let mut state = PathCounts::new(&g, vec![true; 7]).unwrap();
        state.set_link_usable(&g, 6, false).unwrap();
        assert_eq!(state.counts(), &[2, 0, 2, 0, 1, 1]);
        state.set_link_usable(&g, 6, true).unwrap();
        assert_eq!(state.counts(), g.total_up_paths().unwrap());
    }

    #[test]
    fn incremental_no_op_changes_nothing() {
        let g = small();
        let mut state = PathCounts::new(&g, vec![true; 7]).unwrap();
        assert!(state.set_link_usable(&g, 3, true).unwrap().is_empty());
    }

    #[test]
    fn incremental_rejects_unknown_link() {
        let g = small();
        let mut state = PathCounts::new(&g, vec![true; 7]).unwrap();
        assert_eq!(
            state.set_link_usable(&g, 7, false).unwrap_err(),
            PathError::UnknownLink {
                link: 7,
                num_links: 7
            }
        );
    }

    #[test]
    fn incremental_overflow_leaves_state_unchanged() {
        // With one up-link of tier-7 switch 14 disabled the ToRs have
        // 128 * (255 + 256) * 256^6 < 2^64 paths; enabling it again makes 2^64.
        let g = tower(9, 128);
        let link = g.up_links(14)[0];
        let mut usable = vec![true; g.num_links()];
        usable[link as usize] = false;
        let mut state = PathCounts::new(&g, usable).unwrap();
        let before = state.clone();
        let err = state.set_link_usable(&g, link, true).unwrap_err();
        assert!(matches!(err, PathError::Overflow { .. }));
        assert_eq!(state, before);
        // The state is still usable afterwards.
        let changes = state.set_link_usable(&g, g.up_links(15)[0], false).unwrap();
        assert!(!changes.is_empty());
        assert_eq!(state.counts(), g.up_paths(state.usable()).unwrap());
    }
}
