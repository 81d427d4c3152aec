//! Per ToR pair, the weighted share of its ECMP paths: the sum over the
//! pair's paths of the product of per-link values, divided by the number of
//! paths. With `value = P(link good)` this is the expected fraction of good
//! paths (seed Appendix B, by linearity of expectation); with `value = 1`
//! for links in a class and `0` otherwise it is the share of the pair's
//! paths the class keeps.
//!
//! The sum factorises at the pair's peak tier: `sum_s W_up(a, s) W_down(s, b)`
//! over the common ancestors `s`, so one up-cone per source ToR and one
//! down-cone per destination ToR give every pair in `O(common ancestors)`.

use super::RailError;
use super::cone::Cone;
use super::error::check_fractions;
use crate::fabric::{FabricGraph, SwitchId};

/// Summary of the per-pair fractions.
#[derive(Debug, Clone, PartialEq)]
pub struct PairFractions {
    /// The ToRs, in index order.
    pub tors: Vec<SwitchId>,
    /// Per ToR (same order): mean fraction over the destinations it reaches.
    pub per_tor_mean: Vec<Option<f64>>,
    /// Per ToR: its lowest pair fraction as a source, and that destination.
    pub per_tor_min: Vec<Option<(f64, SwitchId)>>,
    /// The lowest fraction of any ordered pair: (fraction, source, destination).
    pub worst_pair: Option<(f64, SwitchId, SwitchId)>,
    /// Mean over all connected ordered pairs.
    pub mean: Option<f64>,
    /// `(q, value)` for each requested quantile `q` in `[0, 1]`, over pairs.
    pub quantiles: Vec<(f64, f64)>,
    /// Ordered pairs with at least one path.
    pub connected_pairs: u64,
    /// Ordered pairs without any path.
    pub disconnected_pairs: u64,
}

/// Fractions for every ordered ToR pair over the `usable` links, with
/// `value_up[l]` applying when a path climbs link `l` and `value_down[l]`
/// when it descends it. `quantiles` are reported over the pairs.
pub fn pair_fractions(
    graph: &FabricGraph,
    usable: &[bool],
    value_up: &[f64],
    value_down: &[f64],
    quantiles: &[f64],
) -> Result<PairFractions, RailError> {
    let mut problems = Vec::new();
    if usable.len() != graph.num_links() {
        problems.push(format!(
            "usable: expected one value per link ({}), got {}",
            graph.num_links(),
            usable.len()
        ));
    }
    check_fractions("value_up", value_up, graph.num_links(), &mut problems);
    check_fractions("value_down", value_down, graph.num_links(), &mut problems);
    for &q in quantiles {
        if !(0.0..=1.0).contains(&q) {
            problems.push(format!("quantiles: {q} is not in [0, 1]"));
        }
    }
    RailError::check(problems)?;
    Ok(compute(graph, usable, value_up, value_down, quantiles))
}

/// A destination's down-cone, tier by tier: (switch, paths, weight).
struct DownCone {
    tier_start: Vec<usize>,
    entries: Vec<(SwitchId, f64, f64)>,
}

pub(crate) fn compute(
    graph: &FabricGraph,
    usable: &[bool],
    value_up: &[f64],
    value_down: &[f64],
    quantiles: &[f64],
) -> PairFractions {
    let tors = graph.tors().to_vec();
    let mut cone = Cone::new(graph);
    let down: Vec<DownCone> = tors
        .iter()
        .map(|&b| {
            cone.fill(graph, usable, b, value_down, &[]);
            DownCone {
                tier_start: cone.tier_start.clone(),
                entries: cone
                    .touched
                    .iter()
                    .map(|&s| (s, cone.count[s as usize], cone.weight[s as usize]))
                    .collect(),
            }
        })
        .collect();
    let mut all = Vec::with_capacity(tors.len() * tors.len().saturating_sub(1));
    let mut per_tor_mean = Vec::with_capacity(tors.len());
    let mut per_tor_min = Vec::with_capacity(tors.len());
    let mut worst_pair: Option<(f64, SwitchId, SwitchId)> = None;
    let mut disconnected = 0u64;
    for &a in &tors {
        cone.fill(graph, usable, a, value_up, &[]);
        let (mut sum, mut n) = (0.0, 0usize);
        let mut tor_min: Option<(f64, SwitchId)> = None;
        for (j, &b) in tors.iter().enumerate() {
            if a == b {
                continue;
            }
            let d = &down[j];
            let mut fraction = None;
            for t in 1..d.tier_start.len() - 1 {
                let (mut paths, mut weight) = (0.0, 0.0);
                for &(s, count, w) in &d.entries[d.tier_start[t]..d.tier_start[t + 1]] {
                    let s = s as usize;
                    paths += cone.count[s] * count;
                    weight += cone.weight[s] * w;
                }
                if paths > 0.0 {
                    fraction = Some((weight / paths).min(1.0));
                    break;
                }
            }
            let Some(f) = fraction else {
                disconnected += 1;
                continue;
            };
            all.push(f);
            sum += f;
            n += 1;
            if tor_min.is_none_or(|m| f < m.0) {
                tor_min = Some((f, b));
            }
            if worst_pair.is_none_or(|w| f < w.0) {
                worst_pair = Some((f, a, b));
            }
        }
        per_tor_mean.push((n > 0).then(|| sum / n as f64));
        per_tor_min.push(tor_min);
    }
    let mean = (!all.is_empty()).then(|| all.iter().sum::<f64>() / all.len() as f64);
    let connected = all.len() as u64;
    let quantiles = if all.is_empty() {
        Vec::new()
    } else {
        all.sort_unstable_by(f64::total_cmp);
        quantiles
            .iter()
            .map(|&q| (q, quantile_sorted(&all, q)))
            .collect()
    };
    PairFractions {
        tors,
        per_tor_mean,
        per_tor_min,
        worst_pair,
        mean,
        quantiles,
        connected_pairs: connected,
        disconnected_pairs: disconnected,
    }
}

/// The `q` quantile of sorted values, the lower of the two neighbours
/// (nearest-rank), so it is always a value some pair has.
fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * (sorted.len() - 1) as f64).floor() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::generators::fat_tree;

    #[test]
    fn reference_r6_one_gray_link_in_a_k4_fat_tree() {
        // ToR 0 - aggregation 0 bad in both directions: pairs with ToR 0 keep
        // half their paths, all others all of them.
        let g = fat_tree(4);
        let n = g.num_links();
        let mut v = vec![1.0; n];
        v[0] = 0.0;
        let f = pair_fractions(&g, &vec![true; n], &v, &v, &[0.0, 0.5]).unwrap();
        assert_eq!(f.per_tor_mean[0], Some(0.5));
        for &m in &f.per_tor_mean[1..] {
            assert!((m.unwrap() - 0.9285714285714286).abs() < 1e-12);
        }
        assert_eq!(f.worst_pair, Some((0.5, 0, 1)));
        assert_eq!(f.connected_pairs, 56);
        assert_eq!(f.quantiles, vec![(0.0, 0.5), (0.5, 1.0)]);
    }

    #[test]
    fn reference_r7_every_link_099() {
        let g = fat_tree(4);
        let n = g.num_links();
        let v = vec![0.99; n];
        let f = pair_fractions(&g, &vec![true; n], &v, &v, &[]).unwrap();
        // 1 pod-mate over 2 hops, 6 ToRs in other pods over 4 hops.
        let expected = (0.99f64.powi(2) + 6.0 * 0.99f64.powi(4)) / 7.0;
        for m in &f.per_tor_mean {
            assert!((m.unwrap() - expected).abs() < 1e-12);
        }
        assert!((expected - 0.96338).abs() < 1e-5);
    }
}
