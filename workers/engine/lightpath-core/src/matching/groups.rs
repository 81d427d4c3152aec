//! Edge groups (seed 004, section 4; Eq. 4.1): a set of rack pairs that earns
//! a bonus only when every pair of the set has a circuit, for example the
//! shuffle partners of one job. One port per rack.
//!
//! The seed's Lemma 1 greedy (accept a group when its own benefit is
//! positive) is not optimal: groups interact through the matching of the
//! other racks (see the reference's counter-example, a test below). Up to
//! [`EXACT_GROUPS_MAX`] groups every feasible subset is tried; beyond, a
//! local search adds or drops one group at a time while that helps.

use super::blossom::{WeightedEdge, max_weight_matching};
use super::slot::Circuit;

/// Up to this many groups the answer is exact (2^g matchings).
pub const EXACT_GROUPS_MAX: usize = 12;

/// Pairs earning `bonus` bytes when all of them are circuits together.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeGroup {
    /// The rack pairs of the group.
    pub pairs: Vec<(u32, u32)>,
    /// Extra weight earned when every pair is scheduled.
    pub bonus: i64,
}

/// Circuits with edge groups, their total weight (base weights plus the
/// bonuses of complete groups), the indices of the groups completed, and
/// whether the answer is exact.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupMatching {
    /// Circuits sorted by (a, b).
    pub circuits: Vec<Circuit>,
    /// Base weight of the circuits plus the bonuses of complete groups.
    pub weight: i64,
    /// Groups whose every pair is a circuit.
    pub completed: Vec<usize>,
    /// True when every subset of groups was tried.
    pub exact: bool,
}

/// Best matching of `num_racks` racks with base weights `edges` and `groups`.
pub fn match_with_groups(
    num_racks: usize,
    edges: &[WeightedEdge],
    groups: &[EdgeGroup],
) -> GroupMatching {
    let feasible: Vec<usize> = (0..groups.len())
        .filter(|&g| is_matching(num_racks, &groups[g].pairs))
        .collect();
    let evaluate = |chosen: &[usize]| -> Option<GroupMatching> {
        let mut fixed = vec![false; num_racks];
        let mut pairs = Vec::new();
        for &g in chosen {
            for &(a, b) in &groups[g].pairs {
                for v in [a as usize, b as usize] {
                    if fixed[v] {
                        return None;
                    }
                    fixed[v] = true;
                }
                pairs.push((a.min(b), a.max(b)));
            }
        }
        let rest: Vec<WeightedEdge> = edges
            .iter()
            .copied()
            .filter(|&(a, b, _)| !fixed[a as usize] && !fixed[b as usize])
            .collect();
        let mate = max_weight_matching(num_racks, &rest);
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m
                && (v as u32) < u
            {
                pairs.push((v as u32, u));
            }
        }
        pairs.sort_unstable();
        Some(score(pairs, edges, groups))
    };
    let mut best = evaluate(&[]).expect("no groups is always feasible");
    if feasible.len() <= EXACT_GROUPS_MAX {
        for mask in 1u32..(1u32 << feasible.len()) {
            let chosen: Vec<usize> = (0..feasible.len())
                .filter(|&i| mask & (1 << i) != 0)
                .map(|i| feasible[i])
                .collect();
            if let Some(candidate) = evaluate(&chosen)
                && candidate.weight > best.weight
            {
                best = candidate;
            }
        }
        best.exact = true;
        return best;
    }
    // Local search from the empty set: flip the group that helps most.
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let mut improved: Option<(Vec<usize>, GroupMatching)> = None;
        for &g in &feasible {
            let mut next = chosen.clone();
            if let Some(pos) = next.iter().position(|&x| x == g) {
                next.remove(pos);
            } else {
                next.push(g);
            }
            if let Some(candidate) = evaluate(&next) {
                let bar = improved.as_ref().map_or(best.weight, |(_, m)| m.weight);
                if candidate.weight > bar {
                    improved = Some((next, candidate));
                }
            }
        }
        match improved {
            Some((next, candidate)) => {
                chosen = next;
                best = candidate;
            }
            None => break,
        }
    }
    best.exact = false;
    best
}

fn is_matching(num_racks: usize, pairs: &[(u32, u32)]) -> bool {
    let mut used = vec![false; num_racks];
    pairs.iter().all(|&(a, b)| {
        let (a, b) = (a as usize, b as usize);
        if a == b || a >= num_racks || b >= num_racks || used[a] || used[b] {
            return false;
        }
        used[a] = true;
        used[b] = true;
        true
    })
}

fn score(pairs: Vec<(u32, u32)>, edges: &[WeightedEdge], groups: &[EdgeGroup]) -> GroupMatching {
    let set: std::collections::HashSet<(u32, u32)> = pairs.iter().copied().collect();
    let mut weights: std::collections::HashMap<(u32, u32), i64> = Default::default();
    for &(a, b, w) in edges {
        let e = weights.entry((a.min(b), a.max(b))).or_insert(0);
        *e = (*e).max(w);
    }
    let base: i64 = pairs
        .iter()
        .map(|p| weights.get(p).copied().unwrap_or(0))
        .sum();
    let completed: Vec<usize> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| {
            !g.pairs.is_empty()
                && g.pairs
                    .iter()
                    .all(|&(a, b)| set.contains(&(a.min(b), a.max(b))))
        })
        .map(|(i, _)| i)
        .collect();
    let bonus: i64 = completed.iter().map(|&g| groups[g].bonus).sum();
    GroupMatching {
        circuits: pairs
            .into_iter()
            .map(|(a, b)| Circuit { a, b, count: 1 })
            .collect(),
        weight: base + bonus,
        completed,
        exact: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_both_groups_where_the_lemma_1_greedy_takes_neither() {
        // Racks a=0, b=1, c=2, d=3: (a,c) and (b,d) weigh 10, (a,b) and (c,d)
        // weigh 1 with a bonus of 10 each. Each group alone loses 8, both
        // together win 22 against 20.
        let edges = [(0, 2, 10), (1, 3, 10), (0, 1, 1), (2, 3, 1)];
        let groups = [
            EdgeGroup {
                pairs: vec![(0, 1)],
                bonus: 10,
            },
            EdgeGroup {
                pairs: vec![(2, 3)],
                bonus: 10,
            },
        ];
        let best = match_with_groups(4, &edges, &groups);
        assert_eq!(best.weight, 22);
        assert_eq!(best.completed, vec![0, 1]);
        assert!(best.exact);
    }
}
