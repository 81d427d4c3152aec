//! End-to-end packet-level coding for a path (seed §4.4.3, §4.6.3): no
//! coding when the path's loss rate `p` is below the target `t`; otherwise
//! XOR(n), one parity packet per `n` data packets, with the largest `n` whose
//! residual loss `q(n, p) = 1 - (1-p)^(n+1) - (n+1) p (1-p)^n` stays at or
//! below `t`; otherwise triple replication while `p <= 0.1` (residual `p^3`);
//! above that the path is not usable and its links go to repair.

use super::RailError;

/// Largest loss rate triple replication is used for (seed §4.4.4: 10 %).
pub const REPLICATION_LIMIT: f64 = 0.1;
/// Default post-recovery loss target (seed: 0.1 % for TCP).
pub const DEFAULT_TARGET: f64 = 1e-3;
/// Largest XOR group considered; beyond it the overhead (under 1e-6) is nil.
pub const MAX_XOR_N: u64 = 1 << 40;

/// How a path is protected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FecScheme {
    /// `p < t`: no coding.
    None,
    /// XOR over groups of `n` data packets plus one parity packet.
    Xor {
        /// Data packets per parity packet.
        n: u64,
    },
    /// Every packet sent three times.
    Replicate3,
    /// `p` above the replication limit: nothing meets the target.
    Unusable,
}

/// The scheme for one loss rate, what it leaves and what it costs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FecChoice {
    /// The chosen scheme.
    pub scheme: FecScheme,
    /// Loss seen by the application after recovery (`p` when uncoded or unusable).
    pub residual_loss: f64,
    /// Extra packets sent per data packet: 0, `1/n` or 2.
    pub overhead: f64,
}

/// `q(n, p)`: probability that two or more of `n + 1` packets are lost.
///
/// Computed as `1 - (1-p)^n (1 + n p)` through `ln_1p`/`exp_m1`, which keeps
/// its relative accuracy for small `p` where the textbook form cancels.
pub fn xor_residual(n: u64, p: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let n = n as f64;
    let log_kept = n * (-p).ln_1p() + (n * p).ln_1p();
    (-log_kept.exp_m1()).clamp(0.0, 1.0)
}

/// Chooses the protection of a path with loss rate `p` for target `t`.
pub fn choose(p: f64, t: f64) -> Result<FecChoice, RailError> {
    let mut problems = Vec::new();
    if !(0.0..=1.0).contains(&p) {
        problems.push(format!("loss: {p} is not a fraction in [0, 1]"));
    }
    if !(t > 0.0 && t < 1.0) {
        problems.push(format!("target: {t} is not a fraction in (0, 1)"));
    }
    RailError::check(problems)?;
    Ok(choose_unchecked(p, t))
}

/// The largest `n` with `q(n, p) <= t`, given `q(1, p) <= t`. `q` rises with
/// `n` and is close to `n (n + 1) p^2 / 2` when `n p` is small, so the search
/// starts there and walks; a far-off start falls back to galloping and
/// bisection. Path coding calls this once per gray path.
fn largest_xor_n(p: f64, t: f64) -> u64 {
    let estimate = ((2.0 * t).sqrt() / p).floor().clamp(1.0, MAX_XOR_N as f64) as u64;
    let mut n = estimate;
    for _ in 0..16 {
        if n > 1 && xor_residual(n, p) > t {
            n -= 1;
        } else if n < MAX_XOR_N && xor_residual(n + 1, p) <= t {
            n += 1;
        } else {
            return n;
        }
    }
    // q rises with n: gallop to a bracket, then bisect for the last n with q <= t.
    let (mut lo, mut hi) = (1u64, 2u64);
    while hi < MAX_XOR_N && xor_residual(hi, p) <= t {
        lo = hi;
        hi *= 2;
    }
    if xor_residual(hi, p) <= t {
        return hi;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if xor_residual(mid, p) <= t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

pub(crate) fn choose_unchecked(p: f64, t: f64) -> FecChoice {
    if p < t {
        return FecChoice {
            scheme: FecScheme::None,
            residual_loss: p,
            overhead: 0.0,
        };
    }
    if xor_residual(1, p) <= t {
        let lo = largest_xor_n(p, t);
        return FecChoice {
            scheme: FecScheme::Xor { n: lo },
            residual_loss: xor_residual(lo, p),
            overhead: 1.0 / lo as f64,
        };
    }
    if p <= REPLICATION_LIMIT {
        return FecChoice {
            scheme: FecScheme::Replicate3,
            residual_loss: p * p * p,
            overhead: 2.0,
        };
    }
    FecChoice {
        scheme: FecScheme::Unusable,
        residual_loss: p,
        overhead: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::generators::fat_tree;

    #[test]
    fn codes_only_the_paths_through_a_gray_link() {
        // k = 4: 8 ToRs, 56 ordered pairs; 8 pod-mate pairs over 2 paths and
        // 48 cross-pod pairs over 4. ToR 0 -> aggregation 0 at 0.3 % loss:
        // paths from ToR 0 through it need XOR(14), the rest nothing.
        let g = fat_tree(4);
        let n = g.num_links();
        let mut up = vec![0.0; n];
        up[0] = 3e-3;
        let c = code_paths(&g, &vec![true; n], &up, &vec![0.0; n], 1e-3).unwrap();
        assert_eq!(c.paths, 8.0 * 2.0 + 48.0 * 4.0);
        // From ToR 0: 1 pod-mate path and 6 x 2 cross-pod paths use link 0.
        assert_eq!(c.xor, 13.0);
        assert_eq!(c.uncoded, c.paths - 13.0);
        assert!((c.mean_overhead - 13.0 / 14.0 / c.paths).abs() < 1e-12);
        assert!((c.max_overhead - 1.0 / 14.0).abs() < 1e-12);
    }

    #[test]
    fn thesis_example_and_reference_values() {
        // Seed §4.4.3: t = 0.1 %, p = 0.3 % -> n = 14, q = 0.092 %, overhead 7.1 %.
        let c = choose(3e-3, 1e-3).unwrap();
        assert_eq!(c.scheme, FecScheme::Xor { n: 14 });
        assert!(
            (c.residual_loss - 9.21e-4).abs() < 1e-6,
            "{}",
            c.residual_loss
        );
        assert!((c.overhead - 1.0 / 14.0).abs() < 1e-12);
        assert!(xor_residual(15, 3e-3) > 1e-3);
        assert_eq!(choose(0.03, 1e-3).unwrap().scheme, FecScheme::Xor { n: 1 });
        let r = choose(0.05, 1e-3).unwrap();
        assert_eq!(r.scheme, FecScheme::Replicate3);
        assert!((r.residual_loss - 1.25e-4).abs() < 1e-12);
        assert_eq!(choose(9.9e-4, 1e-3).unwrap().scheme, FecScheme::None);
        assert_eq!(choose(0.2, 1e-3).unwrap().scheme, FecScheme::Unusable);
    }

    #[test]
    fn residual_matches_the_textbook_form() {
        for &(n, p) in &[(1u64, 0.3f64), (14, 3e-3), (100, 1e-2), (7, 0.5)] {
            let textbook = 1.0
                - (1.0 - p).powi(n as i32 + 1)
                - (n as f64 + 1.0) * p * (1.0 - p).powi(n as i32);
            assert!((xor_residual(n, p) - textbook).abs() < 1e-12);
        }
        assert!((xor_residual(1, 0.1) - 0.01).abs() < 1e-15);
    }

    #[test]
    fn rejects_bad_input_listing_every_problem() {
        let err = choose(1.5, 0.0).unwrap_err();
        assert_eq!(err.problems.len(), 2);
    }
}

/// How the ECMP paths of a link set would be coded.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PathCoding {
    /// ECMP paths over all ordered ToR pairs.
    pub paths: f64,
    /// Paths left uncoded (`p < t`).
    pub uncoded: f64,
    /// Paths coded with XOR.
    pub xor: f64,
    /// Paths replicated three times.
    pub replicated: f64,
    /// Paths no scheme brings under the target.
    pub unusable: f64,
    /// Mean overhead over the usable paths.
    pub mean_overhead: f64,
    /// Largest overhead of any path.
    pub max_overhead: f64,
}

/// Codes every ECMP path of the `usable` links for target `t` and sums up.
///
/// Paths are not enumerated one by one: per pair and peak switch `s`, when
/// the worst path through `s` is below `t`, all its paths are uncoded and
/// only counted; otherwise the paths through `s` are enumerated. Only paths
/// near gray links are visited, so the cost is that of the all-pair
/// fractions plus the gray paths.
pub fn code_paths(
    graph: &crate::fabric::FabricGraph,
    usable: &[bool],
    loss_up: &[f64],
    loss_down: &[f64],
    t: f64,
) -> Result<PathCoding, RailError> {
    let n = graph.num_links();
    let mut problems = Vec::new();
    if usable.len() != n {
        problems.push(format!(
            "usable: expected one value per link ({n}), got {}",
            usable.len()
        ));
    }
    super::error::check_fractions("loss_up", loss_up, n, &mut problems);
    super::error::check_fractions("loss_down", loss_down, n, &mut problems);
    if !(t > 0.0 && t < 1.0) {
        problems.push(format!("target: {t} is not a fraction in (0, 1)"));
    }
    RailError::check(problems)?;
    Ok(code_paths_unchecked(graph, usable, loss_up, loss_down, t))
}

pub(crate) fn code_paths_unchecked(
    graph: &crate::fabric::FabricGraph,
    usable: &[bool],
    loss_up: &[f64],
    loss_down: &[f64],
    target: f64,
) -> PathCoding {
    use super::cone::Cone;
    use super::worst::log_survival;
    use crate::fabric::SwitchId;
    let ls_up = log_survival(loss_up);
    let ls_down = log_survival(loss_down);
    let clean = (-target).ln_1p();
    let tors = graph.tors();
    let mut src = Cone::new(graph);
    let mut dst = Cone::new(graph);
    // Every destination's down-cone once, sparse: (switch, paths, worst log-survival) by tier.
    let down: Vec<SparseCone> = tors
        .iter()
        .map(|&b| {
            dst.fill(graph, usable, b, &[], &ls_down);
            let entries = dst
                .touched
                .iter()
                .map(|&s| (s, dst.count[s as usize], dst.worst[s as usize]))
                .collect();
            (dst.tier_start.clone(), entries)
        })
        .collect();
    let mut filled: Option<SwitchId> = None;
    // Per top switch, the up-paths' log-survivals from the current source (they
    // do not depend on the destination).
    let mut up_cache: Vec<Option<Vec<f64>>> = vec![None; graph.num_switches()];
    let mut cached: Vec<SwitchId> = Vec::new();
    let mut sum = PathCoding::default();
    let mut overhead_sum = 0.0;
    // Per (top switch, destination), the down-paths' log-survivals, for every source.
    let mut down_cache: std::collections::HashMap<(SwitchId, SwitchId), Vec<f64>> =
        std::collections::HashMap::new();
    for &a in tors {
        src.fill(graph, usable, a, &[], &ls_up);
        for s in cached.drain(..) {
            up_cache[s as usize] = None;
        }
        for (j, &b) in tors.iter().enumerate() {
            if a == b {
                continue;
            }
            let (tier_start, entries) = &down[j];
            for tier in 1..tier_start.len() - 1 {
                let mut found = false;
                for &(s, count_b, worst_b) in &entries[tier_start[tier]..tier_start[tier + 1]] {
                    let s_ = s as usize;
                    if src.count[s_] == 0.0 {
                        continue;
                    }
                    found = true;
                    sum.paths += src.count[s_] * count_b;
                    if src.worst[s_] + worst_b > clean {
                        sum.uncoded += src.count[s_] * count_b;
                        continue;
                    }
                    // Near a gray link: code each path through s on its own.
                    let ups = up_cache[s_].get_or_insert_with(|| {
                        cached.push(s);
                        let mut ups = Vec::new();
                        enumerate(graph, usable, &src, s, 0.0, &ls_up, &mut ups);
                        ups
                    });
                    let downs = down_cache.entry((s, b)).or_insert_with(|| {
                        if filled != Some(b) {
                            dst.fill(graph, usable, b, &[], &ls_down);
                            filled = Some(b);
                        }
                        let mut downs = Vec::new();
                        enumerate(graph, usable, &dst, s, 0.0, &ls_down, &mut downs);
                        downs
                    });
                    for &u in ups.iter() {
                        for &d in downs.iter() {
                            let c = choose_unchecked(-(u + d).exp_m1(), target);
                            match c.scheme {
                                FecScheme::None => sum.uncoded += 1.0,
                                FecScheme::Xor { .. } => sum.xor += 1.0,
                                FecScheme::Replicate3 => sum.replicated += 1.0,
                                FecScheme::Unusable => sum.unusable += 1.0,
                            }
                            overhead_sum += c.overhead;
                            sum.max_overhead = sum.max_overhead.max(c.overhead);
                        }
                    }
                }
                if found {
                    break;
                }
            }
        }
    }
    let usable_paths = sum.paths - sum.unusable;
    sum.mean_overhead = if usable_paths > 0.0 {
        overhead_sum / usable_paths
    } else {
        0.0
    };
    sum
}

/// A cone as (tier offsets, (switch, paths, worst log-survival) entries).
type SparseCone = (Vec<usize>, Vec<(crate::fabric::SwitchId, f64, f64)>);

/// Log-survivals of every upward path of `cone`'s ToR to `s`.
fn enumerate(
    graph: &crate::fabric::FabricGraph,
    usable: &[bool],
    cone: &super::cone::Cone,
    s: crate::fabric::SwitchId,
    acc: f64,
    ls: &[f64],
    out: &mut Vec<f64>,
) {
    if graph.tier(s) == 0 {
        out.push(acc);
        return;
    }
    for &l in graph.down_links(s) {
        let x = graph.lower(l);
        if usable[l as usize] && cone.count[x as usize] > 0.0 {
            enumerate(graph, usable, cone, x, acc + ls[l as usize], ls, out);
        }
    }
}
