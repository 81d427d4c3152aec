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

pub(crate) fn choose_unchecked(p: f64, t: f64) -> FecChoice {
    if p < t {
        return FecChoice {
            scheme: FecScheme::None,
            residual_loss: p,
            overhead: 0.0,
        };
    }
    if xor_residual(1, p) <= t {
        // q rises with n: gallop to a bracket, then bisect for the last n with q <= t.
        let (mut lo, mut hi) = (1u64, 2u64);
        while hi < MAX_XOR_N && xor_residual(hi, p) <= t {
            lo = hi;
            hi *= 2;
        }
        if xor_residual(hi, p) <= t {
            lo = hi;
        } else {
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if xor_residual(mid, p) <= t {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
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
