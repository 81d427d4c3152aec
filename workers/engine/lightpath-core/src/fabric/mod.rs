//! The switch graph of a multi-tier Clos fabric, stored in compact arrays.
//!
//! Switches are numbered `0..num_switches` and each has a tier: 0 is the ToR
//! tier and `num_tiers - 1` the top (spine) tier. Links are numbered
//! `0..num_links`; each joins a lower switch to an upper switch exactly one
//! tier above it. Parallel links between the same two switches are allowed and
//! are distinct links (so they make distinct paths).
//!
//! Adjacency is kept in CSR form in both directions: up-links drive path
//! counting, down-links drive incremental updates (a change to one link only
//! affects the switches below it).

mod error;
pub mod generators;
mod paths;

pub use error::{FabricError, LinkEnd, PathError};
pub use paths::{CountChange, PathCounts, TorCapacity};

/// Index of a switch: its position in the `switch_tiers` array.
pub type SwitchId = u32;
/// Index of a link: its position in the `link_lower` / `link_upper` arrays.
pub type LinkId = u32;

/// Largest accepted number of tiers. Real Clos fabrics have 2 to 5; the bound
/// only keeps a bad input from allocating per-tier arrays of absurd size.
pub const MAX_TIERS: u32 = 255;

/// An immutable, validated fabric graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricGraph {
    num_tiers: u32,
    switch_tiers: Vec<u32>,
    link_lower: Vec<SwitchId>,
    link_upper: Vec<SwitchId>,
    /// Up-links of switch `s` are `up_links[up_start[s]..up_start[s + 1]]`.
    up_start: Vec<u32>,
    up_links: Vec<LinkId>,
    /// Down-links of switch `s` are `down_links[down_start[s]..down_start[s + 1]]`.
    down_start: Vec<u32>,
    down_links: Vec<LinkId>,
    /// Switches grouped by tier (ascending index within a tier); tier `t` is
    /// `by_tier[tier_start[t]..tier_start[t + 1]]`.
    tier_start: Vec<u32>,
    by_tier: Vec<SwitchId>,
}

impl FabricGraph {
    /// Validates the arrays and builds the graph.
    ///
    /// `switch_tiers[s]` is the tier of switch `s`; link `l` joins
    /// `link_lower[l]` (on some tier `t`) to `link_upper[l]` (on tier `t + 1`).
    pub fn new(
        num_tiers: u32,
        switch_tiers: Vec<u32>,
        link_lower: Vec<SwitchId>,
        link_upper: Vec<SwitchId>,
    ) -> Result<Self, FabricError> {
        validate(num_tiers, &switch_tiers, &link_lower, &link_upper)?;
        let num_switches = switch_tiers.len();
        let (up_start, up_links) = csr(num_switches, &link_lower);
        let (down_start, down_links) = csr(num_switches, &link_upper);
        let (tier_start, by_tier) = csr(num_tiers as usize, &switch_tiers);
        Ok(Self {
            num_tiers,
            switch_tiers,
            link_lower,
            link_upper,
            up_start,
            up_links,
            down_start,
            down_links,
            tier_start,
            by_tier,
        })
    }

    /// Number of tiers (the top tier is `num_tiers() - 1`).
    pub fn num_tiers(&self) -> u32 {
        self.num_tiers
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.switch_tiers.len()
    }

    /// Number of links.
    pub fn num_links(&self) -> usize {
        self.link_lower.len()
    }

    /// Tier of every switch, indexed by switch.
    pub fn switch_tiers(&self) -> &[u32] {
        &self.switch_tiers
    }

    /// Tier of switch `s`.
    pub fn tier(&self, s: SwitchId) -> u32 {
        self.switch_tiers[s as usize]
    }

    /// Lower-tier end of link `l`.
    pub fn lower(&self, l: LinkId) -> SwitchId {
        self.link_lower[l as usize]
    }

    /// Upper-tier end of link `l`.
    pub fn upper(&self, l: LinkId) -> SwitchId {
        self.link_upper[l as usize]
    }

    /// Links from switch `s` to switches one tier above it.
    pub fn up_links(&self, s: SwitchId) -> &[LinkId] {
        let s = s as usize;
        &self.up_links[self.up_start[s] as usize..self.up_start[s + 1] as usize]
    }

    /// Links from switch `s` to switches one tier below it.
    pub fn down_links(&self, s: SwitchId) -> &[LinkId] {
        let s = s as usize;
        &self.down_links[self.down_start[s] as usize..self.down_start[s + 1] as usize]
    }

    /// Switches on tier `t`, in ascending index order (empty if `t` is out of range).
    pub fn switches_in_tier(&self, t: u32) -> &[SwitchId] {
        let t = t as usize;
        if t + 1 >= self.tier_start.len() {
            return &[];
        }
        &self.by_tier[self.tier_start[t] as usize..self.tier_start[t + 1] as usize]
    }

    /// The ToRs (tier-0 switches), in ascending index order.
    pub fn tors(&self) -> &[SwitchId] {
        self.switches_in_tier(0)
    }
}

fn validate(
    num_tiers: u32,
    switch_tiers: &[u32],
    link_lower: &[SwitchId],
    link_upper: &[SwitchId],
) -> Result<(), FabricError> {
    if num_tiers == 0 || num_tiers > MAX_TIERS {
        return Err(FabricError::TierCount { num_tiers });
    }
    // Ids are u32 and CSR offsets are u32, so both counts must fit.
    if u32::try_from(switch_tiers.len()).is_err() {
        return Err(FabricError::TooManySwitches {
            count: switch_tiers.len(),
        });
    }
    if link_lower.len() != link_upper.len() {
        return Err(FabricError::LinkArrayLengths {
            lower: link_lower.len(),
            upper: link_upper.len(),
        });
    }
    if u32::try_from(link_lower.len()).is_err() {
        return Err(FabricError::TooManyLinks {
            count: link_lower.len(),
        });
    }
    if let Some((switch, &tier)) = switch_tiers
        .iter()
        .enumerate()
        .find(|&(_, &tier)| tier >= num_tiers)
    {
        return Err(FabricError::SwitchTier {
            switch,
            tier,
            num_tiers,
        });
    }
    let num_switches = switch_tiers.len();
    for (link, (&lower, &upper)) in link_lower.iter().zip(link_upper).enumerate() {
        for (end, switch) in [(LinkEnd::Lower, lower), (LinkEnd::Upper, upper)] {
            if switch as usize >= num_switches {
                return Err(FabricError::UnknownSwitch {
                    link,
                    end,
                    switch,
                    num_switches,
                });
            }
        }
        let lower_tier = switch_tiers[lower as usize];
        let upper_tier = switch_tiers[upper as usize];
        if upper_tier == lower_tier + 1 {
            continue;
        }
        return Err(if lower_tier == upper_tier + 1 {
            FabricError::LinkReversed {
                link,
                lower_tier,
                upper_tier,
            }
        } else {
            FabricError::LinkNotAdjacent {
                link,
                lower_tier,
                upper_tier,
            }
        });
    }
    Ok(())
}

/// Groups item indices by key with a counting sort: returns `(start, items)`
/// where the items with key `k` are `items[start[k]..start[k + 1]]`, ascending.
/// Callers guarantee every key is below `num_keys` and the item count fits u32.
fn csr(num_keys: usize, keys: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; num_keys + 1];
    for &k in keys {
        start[k as usize + 1] += 1;
    }
    for k in 0..num_keys {
        start[k + 1] += start[k];
    }
    let mut next = start.clone();
    let mut items = vec![0u32; keys.len()];
    for (item, &k) in keys.iter().enumerate() {
        let slot = &mut next[k as usize];
        items[*slot as usize] = item as u32;
        *slot += 1;
    }
    (start, items)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ToRs, two aggregation switches, one spine; ToR 0 has two up-links.
    fn small() -> FabricGraph {
        FabricGraph::new(
            3,
            vec![0, 0, 1, 1, 2],
            vec![0, 0, 1, 2, 3],
            vec![2, 3, 3, 4, 4],
        )
        .unwrap()
    }

    #[test]
    fn builds_adjacency_in_both_directions() {
        let g = small();
        assert_eq!(g.num_switches(), 5);
        assert_eq!(g.num_links(), 5);
        assert_eq!(g.up_links(0), &[0, 1]);
        assert_eq!(g.up_links(1), &[2]);
        assert_eq!(g.up_links(4), &[] as &[LinkId]);
        assert_eq!(g.down_links(3), &[1, 2]);
        assert_eq!(g.down_links(4), &[3, 4]);
        assert_eq!(g.tors(), &[0, 1]);
        assert_eq!(g.switches_in_tier(1), &[2, 3]);
        assert_eq!(g.switches_in_tier(2), &[4]);
        assert_eq!(g.switches_in_tier(3), &[] as &[SwitchId]);
    }

    #[test]
    fn empty_fabric_is_valid() {
        let g = FabricGraph::new(2, vec![], vec![], vec![]).unwrap();
        assert_eq!(g.num_switches(), 0);
        assert!(g.tors().is_empty());
    }

    #[test]
    fn rejects_zero_tiers() {
        let err = FabricGraph::new(0, vec![], vec![], vec![]).unwrap_err();
        assert_eq!(err, FabricError::TierCount { num_tiers: 0 });
    }

    #[test]
    fn rejects_switch_tier_out_of_range() {
        let err = FabricGraph::new(2, vec![0, 2], vec![], vec![]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "switch 1 has tier 2 but the fabric has 2 tiers (0 to 1)"
        );
    }

    #[test]
    fn rejects_unequal_link_arrays() {
        let err = FabricGraph::new(2, vec![0, 1], vec![0], vec![]).unwrap_err();
        assert_eq!(err, FabricError::LinkArrayLengths { lower: 1, upper: 0 });
    }

    #[test]
    fn rejects_unknown_switch() {
        let err = FabricGraph::new(2, vec![0, 1], vec![0, 0], vec![1, 7]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "link 1: upper switch 7 does not exist (the fabric has 2 switches)"
        );
    }

    #[test]
    fn rejects_links_skipping_a_tier() {
        let err = FabricGraph::new(3, vec![0, 2], vec![0], vec![1]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "link 0 joins tiers 0 and 2; links must join adjacent tiers"
        );
    }

    #[test]
    fn rejects_links_within_a_tier() {
        let err = FabricGraph::new(2, vec![1, 1], vec![0], vec![1]).unwrap_err();
        assert!(matches!(err, FabricError::LinkNotAdjacent { link: 0, .. }));
    }

    #[test]
    fn rejects_reversed_links() {
        let err = FabricGraph::new(2, vec![0, 1], vec![1], vec![0]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "link 0 goes from tier 1 down to tier 0; link_lower must name the lower-tier switch"
        );
    }
}
