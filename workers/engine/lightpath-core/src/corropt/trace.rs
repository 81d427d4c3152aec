//! Synthetic corruption traces (CorrOpt, section 3.6 replays real ones; we
//! have none): per-link corruption onsets as a Poisson process, loss rates
//! from the corrupting-link column of the seed's Table 3.1.
//!
//! Loss rates. A bucket is drawn with the table's frequencies, then a rate
//! log-uniformly inside it. Table 3.1 (seed 000, section 3.2) gives, for links
//! with corruption at or above 1e-8:
//!
//! | bucket          | share  |
//! |-----------------|--------|
//! | [1e-8, 1e-5)    | 47.23% |
//! | [1e-5, 1e-4)    | 18.43% |
//! | [1e-4, 1e-3)    | 21.66% |
//! | >= 1e-3         | 12.67% |
//!
//! The shares add up to 99.99% (rounding in the source) and are used as
//! relative weights. The last bucket is open; we close it at 1e-2 because
//! the worst rate the chapter reports is "around 1%" (Figure 3.9, a damaged
//! fiber).
//!
//! Randomness. A SplitMix64 generator (Steele, Lea and Flood, OOPSLA 2014;
//! the seeding generator of the xoshiro family), implemented here so that the
//! integer stream depends on nothing but the seed. Uniform doubles take the
//! top 53 bits. Exponential gaps and log-uniform rates use `f64::ln` and
//! `f64::powf`; those come from the platform's libm and may differ in the last
//! bit between platforms, never between runs on one machine.

use super::CorrOptError;
use crate::fabric::{FabricGraph, LinkId};

/// One corruption onset: link `link` starts corrupting at `loss_rate` at
/// `time_s` seconds from the start of the trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Onset {
    /// Seconds since the start of the trace.
    pub time_s: f64,
    /// The link.
    pub link: LinkId,
    /// Corruption loss rate, a fraction in `[0, 1]`.
    pub loss_rate: f64,
}

/// A loss-rate bucket: rates in `[low, high)` drawn with relative `weight`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossBucket {
    /// Smallest rate of the bucket.
    pub low: f64,
    /// Rates stay below this.
    pub high: f64,
    /// Share of corrupting links in the bucket, in percent.
    pub weight: f64,
}

/// The corrupting-link column of Table 3.1 (seed 000, section 3.2), the open
/// top bucket closed at 1e-2 (see the module documentation).
pub const TABLE_3_1_CORRUPTION: [LossBucket; 4] = [
    LossBucket {
        low: 1e-8,
        high: 1e-5,
        weight: 47.23,
    },
    LossBucket {
        low: 1e-5,
        high: 1e-4,
        weight: 18.43,
    },
    LossBucket {
        low: 1e-4,
        high: 1e-3,
        weight: 21.66,
    },
    LossBucket {
        low: 1e-3,
        high: 1e-2,
        weight: 12.67,
    },
];

const SECONDS_PER_HOUR: f64 = 3600.0;

/// Corruption onsets on every link of `fabric` over `hours` hours: each link
/// independently starts corrupting as a Poisson process of mean time between
/// onsets `mttf_hours`, at a loss rate drawn from [`TABLE_3_1_CORRUPTION`].
/// Sorted by time, then link. The same arguments give the same trace.
///
/// Links are drawn in index order, each from the generator's stream in turn,
/// so a link's onsets depend on the seed and on the links before it.
pub fn generate_trace(
    fabric: &FabricGraph,
    mttf_hours: f64,
    hours: f64,
    seed: u64,
) -> Result<Vec<Onset>, CorrOptError> {
    if !(mttf_hours.is_finite() && mttf_hours > 0.0) {
        return Err(CorrOptError::Parameter {
            name: "mttf_hours",
            value: mttf_hours,
            expected: "a finite number above 0",
        });
    }
    if !(hours.is_finite() && hours >= 0.0) {
        return Err(CorrOptError::Parameter {
            name: "hours",
            value: hours,
            expected: "a finite number at least 0",
        });
    }
    let horizon_s = hours * SECONDS_PER_HOUR;
    let mean_gap_s = mttf_hours * SECONDS_PER_HOUR;
    let mut rng = SplitMix64::new(seed);
    let expected = fabric.num_links() as f64 * hours / mttf_hours;
    let mut onsets = Vec::with_capacity((expected * 1.1) as usize + 16);
    for link in 0..fabric.num_links() as LinkId {
        let mut time_s = 0.0;
        loop {
            time_s += rng.exponential(mean_gap_s);
            if time_s >= horizon_s {
                break;
            }
            onsets.push(Onset {
                time_s,
                link,
                loss_rate: loss_rate(&mut rng, &TABLE_3_1_CORRUPTION),
            });
        }
    }
    onsets.sort_by(|a, b| a.time_s.total_cmp(&b.time_s).then(a.link.cmp(&b.link)));
    Ok(onsets)
}

/// A rate drawn from `buckets`: a bucket by weight, then log-uniform in it.
fn loss_rate(rng: &mut SplitMix64, buckets: &[LossBucket]) -> f64 {
    let total: f64 = buckets.iter().map(|b| b.weight).sum();
    let mut pick = rng.uniform() * total;
    let last = buckets.len() - 1;
    let bucket = buckets
        .iter()
        .position(|b| {
            pick -= b.weight;
            pick < 0.0
        })
        .unwrap_or(last);
    let LossBucket { low, high, .. } = buckets[bucket];
    // low * (high / low)^u stays below `high` for u < 1 up to rounding.
    (low * (high / low).powf(rng.uniform())).min(high * (1.0 - f64::EPSILON))
}

/// SplitMix64 (Steele, Lea and Flood 2014): a 64-bit state advanced by the
/// golden-ratio increment and finalised by the MurmurHash3 mixer. Small,
/// fast, and passes BigCrush; ample for simulation draws.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.state)
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub(crate) fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Exponential with the given mean (inversion of `1 - u`, which is in
    /// `(0, 1]`, so the logarithm is finite).
    fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.uniform()).ln()
    }
}

/// The SplitMix64 output function (MurmurHash3's 64-bit finaliser, variant
/// 13 of Stafford's mixers).
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::generators::fat_tree;

    #[test]
    fn splitmix64_matches_the_reference_stream() {
        // First outputs for seed 1234567 of the reference C implementation
        // (Vigna, prng.di.unimi.it/splitmix64.c).
        let mut rng = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            vec![
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn same_seed_same_trace_other_seed_other_trace() {
        let g = fat_tree(8);
        let a = generate_trace(&g, 100.0, 500.0, 7).unwrap();
        assert_eq!(a, generate_trace(&g, 100.0, 500.0, 7).unwrap());
        assert_ne!(a, generate_trace(&g, 100.0, 500.0, 8).unwrap());
    }

    #[test]
    fn onsets_are_sorted_within_the_horizon_and_rates_in_buckets() {
        let g = fat_tree(8);
        let trace = generate_trace(&g, 50.0, 200.0, 3).unwrap();
        assert!(trace.windows(2).all(|w| w[0].time_s <= w[1].time_s));
        assert!(
            trace
                .iter()
                .all(|o| (0.0..200.0 * 3600.0).contains(&o.time_s))
        );
        assert!(trace.iter().all(|o| (1e-8..1e-2).contains(&o.loss_rate)));
        assert!(trace.iter().all(|o| (o.link as usize) < g.num_links()));
    }

    #[test]
    fn onset_count_and_bucket_shares_follow_the_parameters() {
        // 256 links, 100 expected onsets each: 25 600 +- 3 sd (480).
        let g = fat_tree(8);
        let trace = generate_trace(&g, 10.0, 1000.0, 11).unwrap();
        let n = trace.len() as f64;
        assert!((n - 25_600.0).abs() < 480.0, "{n} onsets");
        for bucket in TABLE_3_1_CORRUPTION {
            let share = trace
                .iter()
                .filter(|o| (bucket.low..bucket.high).contains(&o.loss_rate))
                .count() as f64
                / n
                * 100.0;
            assert!((share - bucket.weight).abs() < 1.5, "{bucket:?}: {share}%");
        }
    }

    #[test]
    fn zero_hours_gives_an_empty_trace_and_bad_parameters_are_named() {
        let g = fat_tree(4);
        assert!(generate_trace(&g, 10.0, 0.0, 1).unwrap().is_empty());
        let err = generate_trace(&g, 0.0, 10.0, 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "mttf_hours must be a finite number above 0, got 0"
        );
        let err = generate_trace(&g, 10.0, f64::NAN, 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "hours must be a finite number at least 0, got NaN"
        );
    }
}
