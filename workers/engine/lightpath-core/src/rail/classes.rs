//! Reliability classes (the seed's virtual topologies, §4.4.1): K nested
//! link sets, class k guaranteeing that no ECMP path inside it loses more
//! than `bounds[k]` of its packets.
//!
//! Greedy construction, least reliable class first: start from every alive
//! link not marked for repair; while the worst path (Algorithm 2, see
//! [`super::worst`]) is above the bound, remove the link of that path's
//! worst hop. The next (more reliable) class starts from what is left, so
//! classes are nested. Two choices the seed leaves open:
//! - a removal takes the whole link (both directions): a class is a set of
//!   links that routing announces its prefixes over;
//! - a removal that disconnects a ToR pair is allowed (the class then simply
//!   has no path for it); the pair is counted in the class's statistics.

use super::RailError;
use super::error::check_fractions;
use super::worst::{WorstPath, WorstPathFinder};
use crate::fabric::{FabricGraph, LinkId};

/// Default class bounds (seed §4.5): today's reliability (4 x 1.2e-8, one
/// 1500-byte packet at BER 1e-12 per hop over 4 hops), 0.1 % and 10 %.
pub const DEFAULT_BOUNDS: [f64; 3] = [4.8e-8, 1e-3, 1e-1];
/// Links losing more than this in either direction go to repair (seed §4.4.4).
pub const DEFAULT_REPAIR_ABOVE: f64 = 0.1;

/// One class.
#[derive(Debug, Clone, PartialEq)]
pub struct ReliabilityClass {
    /// Its worst-path bound.
    pub bound: f64,
    /// Membership, one entry per link.
    pub members: Vec<bool>,
    /// Links removed while building this class (in removal order), from the
    /// next less reliable class's links (or from the alive links for the last).
    pub removed: Vec<LinkId>,
    /// Its worst path after construction, `None` if no pair has a path.
    pub worst: Option<WorstPath>,
}

/// The classes, most reliable first, and the links sent to repair.
#[derive(Debug, Clone, PartialEq)]
pub struct Classes {
    /// Alive links with a direction above the repair threshold: in no class.
    pub repair: Vec<LinkId>,
    /// Class 1 (most reliable) to class K.
    pub classes: Vec<ReliabilityClass>,
}

/// Builds the classes over the `alive` links from per-direction loss rates.
/// `bounds` must be increasing fractions.
pub fn build_classes(
    graph: &FabricGraph,
    alive: &[bool],
    loss_up: &[f64],
    loss_down: &[f64],
    bounds: &[f64],
    repair_above: f64,
) -> Result<Classes, RailError> {
    let n = graph.num_links();
    let mut problems = Vec::new();
    if alive.len() != n {
        problems.push(format!(
            "alive: expected one value per link ({n}), got {}",
            alive.len()
        ));
    }
    check_fractions("loss_up", loss_up, n, &mut problems);
    check_fractions("loss_down", loss_down, n, &mut problems);
    if bounds.is_empty() {
        problems.push("bounds: expected at least one class bound".into());
    }
    for (i, &b) in bounds.iter().enumerate() {
        if !(0.0..=1.0).contains(&b) {
            problems.push(format!("bounds[{i}]: {b} is not a fraction in [0, 1]"));
        } else if i > 0 && b <= bounds[i - 1] {
            problems.push(format!(
                "bounds[{i}]: {b} is not above the previous bound {}",
                bounds[i - 1]
            ));
        }
    }
    if !(0.0..=1.0).contains(&repair_above) {
        problems.push(format!(
            "repair_above: {repair_above} is not a fraction in [0, 1]"
        ));
    }
    RailError::check(problems)?;

    let repair: Vec<LinkId> = (0..n)
        .filter(|&l| alive[l] && (loss_up[l] > repair_above || loss_down[l] > repair_above))
        .map(|l| l as LinkId)
        .collect();
    let mut members = alive.to_vec();
    for &l in &repair {
        members[l as usize] = false;
    }
    let mut finder = WorstPathFinder::new(graph, loss_up, loss_down);
    let mut classes = Vec::with_capacity(bounds.len());
    for &bound in bounds.iter().rev() {
        let mut removed = Vec::new();
        let worst = loop {
            match finder.find(&members) {
                Some(path) if path.loss > bound => {
                    let link = path.worst_hop().link;
                    // A path over a removed link would loop forever: fail loudly.
                    assert!(
                        members[link as usize],
                        "worst path uses removed link {link}"
                    );
                    members[link as usize] = false;
                    finder.removed(link);
                    removed.push(link);
                }
                other => break other,
            }
        };
        classes.push(ReliabilityClass {
            bound,
            members: members.clone(),
            removed,
            worst,
        });
    }
    classes.reverse();
    Ok(Classes { repair, classes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::generators::fat_tree;

    #[test]
    fn classes_are_nested_and_meet_their_bounds() {
        let g = fat_tree(4);
        let n = g.num_links();
        let mut up = vec![1e-8; n];
        let down = vec![1e-8; n];
        up[0] = 1e-5;
        up[20] = 5e-3;
        up[31] = 0.3; // repair
        let c = build_classes(&g, &vec![true; n], &up, &down, &DEFAULT_BOUNDS, 0.1).unwrap();
        assert_eq!(c.repair, vec![31]);
        assert_eq!(c.classes.len(), 3);
        for k in 0..3 {
            let class = &c.classes[k];
            assert!(class.worst.as_ref().unwrap().loss <= class.bound);
            assert!(!class.members[31]);
            if k > 0 {
                let wider = &c.classes[k].members;
                assert!(
                    c.classes[k - 1]
                        .members
                        .iter()
                        .zip(wider)
                        .all(|(&a, &b)| !a || b)
                );
            }
        }
        assert!(!c.classes[0].members[0] && !c.classes[0].members[20]);
        assert!(c.classes[1].members[0] && !c.classes[1].members[20]);
        assert!(c.classes[2].members[20]);
    }

    #[test]
    fn rejects_unordered_bounds() {
        let g = fat_tree(2);
        let n = g.num_links();
        let err = build_classes(
            &g,
            &vec![true; n],
            &vec![0.0; n],
            &vec![0.0; n],
            &[1e-3, 1e-4],
            0.1,
        )
        .unwrap_err();
        assert_eq!(
            err.problems,
            vec!["bounds[1]: 0.0001 is not above the previous bound 0.001"]
        );
    }
}
