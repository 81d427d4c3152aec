//! Strategies shared by the property tests.

use lightpath_core::FabricGraph;
use proptest::prelude::*;
use proptest::sample::Index;

/// A random valid fabric: 2 to 4 tiers of 1 to 4 switches, 1 to 10 random
/// links (parallel allowed) between adjacent tiers.
#[allow(dead_code)] // each test binary compiles this module; not all use both
pub fn fabric() -> impl Strategy<Value = FabricGraph> {
    fabric_sized(2..=4, 1..=10)
}

/// A random valid fabric with `tiers` tiers of 1 to 4 switches and
/// `links_per_layer` random links (parallel allowed) between each pair of
/// adjacent tiers.
pub fn fabric_sized(
    tiers: std::ops::RangeInclusive<usize>,
    links_per_layer: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = FabricGraph> {
    prop::collection::vec(1u32..=4, tiers)
        .prop_flat_map(move |sizes| {
            let links = prop::collection::vec(
                prop::collection::vec((any::<Index>(), any::<Index>()), links_per_layer.clone()),
                sizes.len() - 1,
            );
            (Just(sizes), links)
        })
        .prop_map(|(sizes, links)| {
            let mut tiers = Vec::new();
            let mut members = Vec::new();
            for (t, &size) in sizes.iter().enumerate() {
                let first = tiers.len() as u32;
                members.push((first..first + size).collect::<Vec<u32>>());
                tiers.extend(std::iter::repeat_n(t as u32, size as usize));
            }
            let (mut lower, mut upper) = (Vec::new(), Vec::new());
            for (t, pairs) in links.iter().enumerate() {
                for (a, b) in pairs {
                    lower.push(*a.get(&members[t]));
                    upper.push(*b.get(&members[t + 1]));
                }
            }
            FabricGraph::new(sizes.len() as u32, tiers, lower, upper).unwrap()
        })
}
