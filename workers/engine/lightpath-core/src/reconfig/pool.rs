//! Backup-pool sizing for ShareBackup (proposed formula, the seed's §5 is
//! missing): per-switch unavailability q = MTTR / (MTBF + MTTR); a group of
//! g = k/2 slots runs out when more than n of them are down at once,
//! P_grp = P[Bin(g, q) > n]; P_any = 1 − (1 − P_grp)^G over G groups.
//! Backups are assumed not to fail while idle.

use serde::Serialize;

/// Per-switch unavailability from MTBF and MTTR (same unit).
pub fn unavailability(mtbf: f64, mttr: f64) -> f64 {
    mttr / (mtbf + mttr)
}

/// P[Bin(g, q) > n]: the probability a group of g slots has more than n
/// down at once.
pub fn group_exhaustion(g: u32, q: f64, n: u32) -> f64 {
    if n >= g {
        return 0.0;
    }
    if q >= 1.0 {
        return 1.0;
    }
    // Sum the upper tail directly: 1 − lower tail loses precision when it is tiny.
    let mut term = (1.0 - q).powi(g as i32); // P[X = 0]
    let mut tail = 0.0;
    for i in 0..=g {
        if i > n {
            tail += term;
        }
        if i < g {
            term *= f64::from(g - i) / f64::from(i + 1) * q / (1.0 - q);
        }
    }
    tail.min(1.0)
}

/// Probability at least one of `groups` independent groups runs out.
pub fn any_exhaustion(p_group: f64, groups: u32) -> f64 {
    // 1 − (1 − p)^G without cancellation for small p.
    -f64::exp_m1(f64::from(groups) * f64::ln_1p(-p_group))
}

/// Sizing answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sizing {
    /// Per-switch unavailability.
    pub unavailability: f64,
    /// Slots per group.
    pub group_slots: u32,
    /// Number of groups.
    pub groups: u32,
    /// Smallest n with P_any ≤ target (at most g: with g backups a group
    /// never runs out).
    pub backups: u32,
    /// P_grp and P_any for n = 0 ..= backups.
    pub curve: Vec<SizingPoint>,
    /// Expected hours per year some group is out of backups, at `backups`.
    pub degraded_hours_per_year: f64,
}

/// Risk at one n.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizingPoint {
    /// Backups per group.
    pub backups: u32,
    /// Probability one group has more than n slots down.
    pub p_group: f64,
    /// Probability some group has.
    pub p_any: f64,
}

/// Smallest n per group such that the probability that any group is out of
/// backups is at most `target`.
///
/// # Errors
/// A message per invalid input.
pub fn size_pool(
    group_slots: u32,
    groups: u32,
    mtbf_hours: f64,
    mttr_hours: f64,
    target: f64,
) -> Result<Sizing, Vec<String>> {
    let mut problems = Vec::new();
    if !(mtbf_hours.is_finite() && mtbf_hours > 0.0) {
        problems.push(format!("mtbf_hours must be positive, got {mtbf_hours}"));
    }
    if !(mttr_hours.is_finite() && mttr_hours > 0.0) {
        problems.push(format!("mttr_hours must be positive, got {mttr_hours}"));
    }
    if !(target > 0.0 && target < 1.0) {
        problems.push(format!(
            "target must be between 0 and 1 (exclusive), got {target}"
        ));
    }
    if group_slots == 0 || groups == 0 {
        problems.push("group_slots and groups must be at least 1".into());
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let q = unavailability(mtbf_hours, mttr_hours);
    let mut curve = Vec::new();
    for n in 0..=group_slots {
        let p_group = group_exhaustion(group_slots, q, n);
        let p_any = any_exhaustion(p_group, groups);
        curve.push(SizingPoint {
            backups: n,
            p_group,
            p_any,
        });
        if p_any <= target {
            break;
        }
    }
    let last = curve.last().expect("n = 0 is always evaluated");
    Ok(Sizing {
        unavailability: q,
        group_slots,
        groups,
        backups: last.backups,
        degraded_hours_per_year: last.p_any * 8766.0,
        curve,
    })
}

/// splitmix64: small, seeded, good enough for Monte Carlo cross-checks.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    pub fn next_unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Exponential with the given mean.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * self.next_unit().ln()
    }
}

/// Monte Carlo estimate of P_grp with its standard error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MonteCarlo {
    /// Share of simulated time with more than n slots down.
    pub p_group: f64,
    /// Standard error (batch means over 32 batches).
    pub standard_error: f64,
}

/// Simulates one group of `group_slots` switches, each alternating between
/// exponential up (mean MTBF) and down (mean MTTR) periods, for
/// `horizon_hours`, and measures the share of time more than `backups` are
/// down: an independent check of [`group_exhaustion`].
pub fn monte_carlo_exhaustion(
    group_slots: u32,
    mtbf_hours: f64,
    mttr_hours: f64,
    backups: u32,
    horizon_hours: f64,
    seed: u64,
) -> MonteCarlo {
    const BATCHES: usize = 32;
    let mut rng = SplitMix64::new(seed);
    let slots = group_slots as usize;
    // Start in the stationary state so no warm-up is needed.
    let q = unavailability(mtbf_hours, mttr_hours);
    let mut down: Vec<bool> = (0..slots).map(|_| rng.next_unit() <= q).collect();
    let mut next: Vec<f64> = down
        .iter()
        .map(|&d| rng.exponential(if d { mttr_hours } else { mtbf_hours }))
        .collect();
    let mut down_count = down.iter().filter(|&&d| d).count() as u32;
    let batch_len = horizon_hours / BATCHES as f64;
    let mut batch_time = [0.0f64; BATCHES];
    let mut now = 0.0;
    while now < horizon_hours {
        let (i, &t) = next
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .expect("at least one slot");
        let end = t.min(horizon_hours);
        if down_count > backups {
            add_to_batches(&mut batch_time, batch_len, now, end);
        }
        now = end;
        if t >= horizon_hours {
            break;
        }
        down[i] = !down[i];
        if down[i] {
            down_count += 1;
        } else {
            down_count -= 1;
        }
        next[i] = t + rng.exponential(if down[i] { mttr_hours } else { mtbf_hours });
    }
    let shares: Vec<f64> = batch_time.iter().map(|t| t / batch_len).collect();
    let mean = shares.iter().sum::<f64>() / BATCHES as f64;
    let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (BATCHES - 1) as f64;
    MonteCarlo {
        p_group: mean,
        standard_error: (var / BATCHES as f64).sqrt(),
    }
}

/// Adds the interval [from, end) to the batches it overlaps (batch b covers
/// [b, b + 1) × `batch_len`; the last one also takes anything beyond).
fn add_to_batches(batch_time: &mut [f64], batch_len: f64, mut from: f64, end: f64) {
    let last = batch_time.len() - 1;
    while from < end {
        let mut batch = ((from / batch_len) as usize).min(last);
        // On a boundary, from / batch_len can round just below the whole
        // number; without this step the boundary would be `from` itself and
        // the loop would never advance.
        if batch < last && (batch + 1) as f64 * batch_len <= from {
            batch += 1;
        }
        let to = if batch == last {
            end
        } else {
            end.min((batch + 1) as f64 * batch_len)
        };
        batch_time[batch] += to - from;
        from = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_starting_on_a_rounded_batch_boundary_moves_on() {
        // Find a boundary k × len that divides back to just under k: the case
        // that used to spin forever (seen with k = 64 and an MTBF of 10 h).
        let (len, k) = (1..2000)
            .map(|i| 0.1 + f64::from(i) * 1e-3)
            .flat_map(|len| (1..32u32).map(move |k| (len, k)))
            .find(|&(len, k)| (f64::from(k) * len / len).floor() < f64::from(k))
            .expect("some boundary rounds down");
        let from = f64::from(k) * len;
        let mut batches = [0.0; 32];
        add_to_batches(&mut batches, len, from, from + 1.5 * len);
        assert_eq!(batches[k as usize - 1], 0.0);
        assert!((batches[k as usize] - len).abs() < 1e-9);
        assert!((batches.iter().sum::<f64>() - 1.5 * len).abs() < 1e-9);
        // The run that hung the sizing endpoint.
        let run = monte_carlo_exhaustion(32, 10.0, 24.0, 0, 80_492.42, 1);
        assert!(run.p_group > 0.99);
    }

    #[test]
    fn no_backups_means_any_failure_exhausts() {
        let q = 0.01;
        let p = group_exhaustion(8, q, 0);
        assert!((p - (1.0 - (1.0 - q).powi(8))).abs() < 1e-12);
        assert_eq!(group_exhaustion(8, q, 8), 0.0);
    }

    #[test]
    fn risk_falls_with_backups_and_rises_with_unavailability() {
        for n in 0..4 {
            assert!(group_exhaustion(8, 0.02, n + 1) < group_exhaustion(8, 0.02, n));
            assert!(group_exhaustion(8, 0.01, n) < group_exhaustion(8, 0.02, n));
        }
    }

    #[test]
    fn sizing_picks_the_smallest_n_meeting_the_target() {
        let s = size_pool(8, 40, 10_000.0, 24.0, 1e-6).unwrap();
        let last = s.curve.last().unwrap();
        assert!(last.p_any <= 1e-6);
        assert!(s.curve[s.curve.len() - 2].p_any > 1e-6);
        assert_eq!(s.backups, last.backups);
    }

    #[test]
    fn bad_inputs_are_all_listed() {
        assert_eq!(size_pool(0, 1, -1.0, 0.0, 2.0).unwrap_err().len(), 4);
    }

    #[test]
    fn monte_carlo_agrees_with_the_binomial_within_statistical_error() {
        // Unavailability 0.05 so that exhaustion happens often enough to measure.
        let (g, mtbf, mttr) = (8, 95.0, 5.0);
        for n in 0..3 {
            let exact = group_exhaustion(g, unavailability(mtbf, mttr), n);
            let mc = monte_carlo_exhaustion(g, mtbf, mttr, n, 2_000_000.0, 7 + u64::from(n));
            assert!(
                (mc.p_group - exact).abs() < 4.0 * mc.standard_error + 1e-4,
                "n={n}: exact {exact}, simulated {} ± {}",
                mc.p_group,
                mc.standard_error
            );
        }
    }
}
