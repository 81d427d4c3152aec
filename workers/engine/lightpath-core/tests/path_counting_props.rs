//! Property tests: path counts agree with brute-force path enumeration on
//! random small multi-tier fabrics, incremental updates agree with full
//! recounts, and corrupted inputs are rejected with the offending link named.

use lightpath_core::{FabricError, FabricGraph, PathCounts};
use proptest::prelude::*;
use proptest::sample::Index;

/// The raw arrays of a random valid fabric.
#[derive(Debug, Clone)]
struct Arrays {
    num_tiers: u32,
    switch_tiers: Vec<u32>,
    lower: Vec<u32>,
    upper: Vec<u32>,
}

impl Arrays {
    fn graph(&self) -> FabricGraph {
        FabricGraph::new(
            self.num_tiers,
            self.switch_tiers.clone(),
            self.lower.clone(),
            self.upper.clone(),
        )
        .expect("generated fabric is valid")
    }
}

/// 2 to 4 tiers of 1 to 4 switches, up to 10 random links (parallel links
/// allowed) between each pair of adjacent tiers, switch ids shuffled so that
/// tiers are not contiguous index ranges.
fn arrays() -> impl Strategy<Value = Arrays> {
    prop::collection::vec(1usize..=4, 2..=4)
        .prop_flat_map(|tier_sizes| {
            let num_switches: usize = tier_sizes.iter().sum();
            let links = prop::collection::vec(
                prop::collection::vec((any::<Index>(), any::<Index>()), 0..=10),
                tier_sizes.len() - 1,
            );
            let ids = Just((0..num_switches as u32).collect::<Vec<_>>()).prop_shuffle();
            (Just(tier_sizes), links, ids)
        })
        .prop_map(|(tier_sizes, links, ids)| {
            // members[t] = the (shuffled) ids of the switches on tier t.
            let mut members = Vec::new();
            let mut next = ids.iter().copied();
            for &size in &tier_sizes {
                members.push(next.by_ref().take(size).collect::<Vec<u32>>());
            }
            let mut switch_tiers = vec![0; ids.len()];
            for (tier, ids) in members.iter().enumerate() {
                for &s in ids {
                    switch_tiers[s as usize] = tier as u32;
                }
            }
            let (mut lower, mut upper) = (Vec::new(), Vec::new());
            for (tier, pairs) in links.iter().enumerate() {
                for (a, b) in pairs {
                    lower.push(*a.get(&members[tier]));
                    upper.push(*b.get(&members[tier + 1]));
                }
            }
            Arrays {
                num_tiers: tier_sizes.len() as u32,
                switch_tiers,
                lower,
                upper,
            }
        })
}

/// A random fabric with a usable mask (each link usable with probability 0.7).
fn arrays_and_mask() -> impl Strategy<Value = (Arrays, Vec<bool>)> {
    arrays().prop_flat_map(|a| {
        let n = a.lower.len();
        (Just(a), prop::collection::vec(prop::bool::weighted(0.7), n))
    })
}

/// Enumerates every upward path from `s` link by link, straight from the link
/// arrays, and returns how many reach the top tier.
fn enumerate_paths(a: &Arrays, usable: &[bool], s: u32) -> u64 {
    if a.switch_tiers[s as usize] + 1 == a.num_tiers {
        return 1;
    }
    (0..a.lower.len())
        .filter(|&l| usable[l] && a.lower[l] == s)
        .map(|l| enumerate_paths(a, usable, a.upper[l]))
        .sum()
}

fn brute_force(a: &Arrays, usable: &[bool]) -> Vec<u64> {
    (0..a.switch_tiers.len() as u32)
        .map(|s| enumerate_paths(a, usable, s))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn up_paths_match_enumeration((a, usable) in arrays_and_mask()) {
        let graph = a.graph();
        prop_assert_eq!(graph.up_paths(&usable).unwrap(), brute_force(&a, &usable));
        let all = vec![true; a.lower.len()];
        prop_assert_eq!(graph.total_up_paths().unwrap(), brute_force(&a, &all));
    }

    #[test]
    fn tor_capacity_lists_every_tor_in_order((a, usable) in arrays_and_mask()) {
        let graph = a.graph();
        let available = brute_force(&a, &usable);
        let total = brute_force(&a, &vec![true; a.lower.len()]);
        let expected: Vec<(u32, u64, u64)> = (0..a.switch_tiers.len() as u32)
            .filter(|&s| a.switch_tiers[s as usize] == 0)
            .map(|s| (s, available[s as usize], total[s as usize]))
            .collect();
        let got: Vec<(u32, u64, u64)> = graph
            .tor_capacity(&usable)
            .unwrap()
            .into_iter()
            .map(|t| (t.switch, t.available, t.total))
            .collect();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn incremental_updates_match_full_recount(
        (a, usable) in arrays_and_mask(),
        toggles in prop::collection::vec(any::<Index>(), 1..20),
    ) {
        prop_assume!(!a.lower.is_empty());
        let graph = a.graph();
        let mut state = PathCounts::new(&graph, usable).unwrap();
        for toggle in toggles {
            let link = toggle.index(a.lower.len()) as u32;
            let before = state.counts().to_vec();
            let now_usable = !state.usable()[link as usize];
            let changes = state.set_link_usable(&graph, link, now_usable).unwrap();
            let after = brute_force(&a, state.usable());
            prop_assert_eq!(state.counts(), &after[..]);
            // The reported changes are exactly the switches whose count moved.
            let mut reported: Vec<(u32, u64, u64)> =
                changes.iter().map(|c| (c.switch, c.before, c.after)).collect();
            reported.sort_unstable();
            let moved: Vec<(u32, u64, u64)> = (0..before.len())
                .filter(|&s| before[s] != after[s])
                .map(|s| (s as u32, before[s], after[s]))
                .collect();
            prop_assert_eq!(reported, moved);
        }
    }

    #[test]
    fn links_off_adjacent_tiers_are_rejected(a in arrays(), which in any::<Index>(), to in any::<Index>()) {
        prop_assume!(!a.lower.is_empty());
        let link = which.index(a.lower.len());
        let new_upper = to.index(a.switch_tiers.len()) as u32;
        let lower_tier = a.switch_tiers[a.lower[link] as usize];
        let upper_tier = a.switch_tiers[new_upper as usize];
        prop_assume!(upper_tier != lower_tier + 1);
        let mut upper = a.upper.clone();
        upper[link] = new_upper;
        let err = FabricGraph::new(a.num_tiers, a.switch_tiers.clone(), a.lower.clone(), upper)
            .unwrap_err();
        let expected = if lower_tier == upper_tier + 1 {
            FabricError::LinkReversed { link, lower_tier, upper_tier }
        } else {
            FabricError::LinkNotAdjacent { link, lower_tier, upper_tier }
        };
        let prefix = format!("link {link} ");
        prop_assert!(err.to_string().starts_with(&prefix));
        prop_assert_eq!(err, expected);
    }

    #[test]
    fn unknown_switches_are_rejected(a in arrays(), which in any::<Index>(), beyond in 0u32..100) {
        prop_assume!(!a.lower.is_empty());
        let link = which.index(a.lower.len());
        let switch = a.switch_tiers.len() as u32 + beyond;
        let mut lower = a.lower.clone();
        lower[link] = switch;
        let err = FabricGraph::new(a.num_tiers, a.switch_tiers.clone(), lower, a.upper.clone())
            .unwrap_err();
        prop_assert_eq!(err, FabricError::UnknownSwitch {
            link,
            end: lightpath_core::LinkEnd::Lower,
            switch,
            num_switches: a.switch_tiers.len(),
        });
    }

    #[test]
    fn tiers_out_of_range_are_rejected(a in arrays(), which in any::<Index>(), beyond in 0u32..10) {
        let switch = which.index(a.switch_tiers.len());
        let mut tiers = a.switch_tiers.clone();
        tiers[switch] = a.num_tiers + beyond;
        let err = FabricGraph::new(a.num_tiers, tiers, a.lower.clone(), a.upper.clone())
            .unwrap_err();
        prop_assert_eq!(err, FabricError::SwitchTier {
            switch,
            tier: a.num_tiers + beyond,
            num_tiers: a.num_tiers,
        });
    }
}
