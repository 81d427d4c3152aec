//! Trend state of the optical readings of a link end (issue #19, predictive
//! optics): per series (Rx power, Tx power and laser bias per lane, module
//! temperature) a bucket accumulator fed in O(1) per reading, and a ring of
//! the last `buckets` closed bucket values from which the slope (Theil–Sen on
//! whole-day lags), its interval, the level, the noise and steps are read.
//!
//! Decisions where the contract (docs/telemetry.md, "Forecasts: optics at risk")
//! is silent:
//! - Values are kept as integers in hundredths of their unit (0.01 dB, 0.01
//!   mA, 0.01 °C), clamped to ±327.67 (an `i16`): a bias above 327.67 mA
//!   counts as 327.67. Sums are exact integers, so a restored state is the
//!   same state, bit for bit.
//! - All series of an end share the end's buckets: a reading of any series
//!   closes the open buckets of every series of the end, so a lane that went
//!   dark gets missing buckets rather than a bucket that never closes.
//! - A bucket's noise is the standard deviation of its trimmed samples (the
//!   same samples as its value): one bad poll moves neither.
//! - The fit (slope, interval, level) is a pure function of the ring, which
//!   changes only when a bucket closes; it is computed when asked for
//!   ([`Series::fit`]) rather than stored, so derivation pays nothing for it
//!   per sample and memory holds only the ring.
//! - Steps and dark lanes are tracked for Rx and Tx power only; a lane counts
//!   as dark only once it has been lit (a position a device never fills, such
//!   as lane 0 of a device that counts lanes from 1, is not a dark lane).

/// Hundredths: the scale of stored values.
pub const SCALE: f64 = 100.0;
/// The ring's mark of a bucket without a value.
pub const MISSING: i16 = i16::MIN;
/// A bucket needs this many samples for a value (its lowest and highest are dropped).
pub const MIN_BUCKET_SAMPLES: u16 = 3;
/// Fewer pair slopes than this give no slope.
pub const MIN_PAIRS: usize = 6;
/// Consecutive dark polls of a lane (while others are lit) that flag it.
pub const DARK_LANE_POLLS: u8 = 2;
/// A step is at least this big (dB) and at least [`STEP_NOISES`] times the noise.
pub const STEP_MIN_DB: f64 = 1.0;
/// A step is at least this many times the series' noise.
pub const STEP_NOISES: f64 = 6.0;
/// Noise above this (dB) makes an Rx or Tx lane erratic.
pub const ERRATIC_DB: f64 = 1.0;
/// The recent fit's window, days: whole-day pairs of its buckets span 1 and
/// 2 days (8 pairs of 6-hour buckets).
pub const RECENT_DAYS: f64 = 2.5;
/// The fresh fit's window, days: its whole-day pairs are the newest day's
/// buckets against the day before (4 pairs of 6-hour buckets).
pub const FRESH_DAYS: f64 = 2.0;
/// The fresh fit needs this many pairs (a day of 6-hour buckets).
pub const FRESH_MIN_PAIRS: usize = 4;
/// Microseconds in a day.
pub const DAY_US: i64 = 86_400_000_000;

/// The series kinds of an end, in the order the state and checkpoint hold them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantity {
    /// Input (Rx) power per lane, dBm.
    Rx,
    /// Output (Tx) power per lane, dBm.
    Tx,
    /// Laser bias current per lane, mA.
    Bias,
    /// Module temperature, °C (one series).
    Temperature,
}

impl Quantity {
    /// All four, in order.
    pub const ALL: [Quantity; 4] = [
        Quantity::Rx,
        Quantity::Tx,
        Quantity::Bias,
        Quantity::Temperature,
    ];

    /// Whether the quantity is an optical power (steps, dark lanes, erratic).
    pub fn is_power(self) -> bool {
        matches!(self, Quantity::Rx | Quantity::Tx)
    }

    /// The name used in APIs.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Rx => "rx",
            Quantity::Tx => "tx",
            Quantity::Bias => "bias",
            Quantity::Temperature => "temperature",
        }
    }
}

/// Bucket length and window of the trends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrendSettings {
    /// Bucket length (µs); divides a day.
    pub bucket_us: i64,
    /// Closed buckets in the window.
    pub buckets: usize,
}

impl Default for TrendSettings {
    fn default() -> Self {
        TrendSettings {
            bucket_us: 21_600_000_000,
            buckets: 16,
        }
    }
}

impl TrendSettings {
    /// Settings from a bucket length in seconds. Refuses a length that is
    /// not a positive whole number of microseconds dividing a day, or a
    /// window too short to give [`MIN_PAIRS`] whole-day pairs (or longer
    /// than 255 buckets), naming the problem.
    pub fn from_seconds(bucket_s: f64, buckets: usize) -> Result<Self, String> {
        let bucket_us = (bucket_s * 1e6).round();
        if !bucket_us.is_finite() || bucket_us <= 0.0 || DAY_US % (bucket_us as i64) != 0 {
            return Err(format!(
                "trend_bucket_s must divide a day (86400 s) into whole buckets, got {bucket_s}"
            ));
        }
        let settings = TrendSettings {
            bucket_us: bucket_us as i64,
            buckets,
        };
        if buckets > 255 || settings.max_pairs() < MIN_PAIRS {
            return Err(format!(
                "trend_buckets must be at most 255 and span enough whole days for {MIN_PAIRS} \
                 pairs of buckets a whole number of days apart, got {buckets}"
            ));
        }
        Ok(settings)
    }

    /// Buckets per day: the shortest lag of the slope's pairs.
    pub fn day_lag(&self) -> usize {
        (DAY_US / self.bucket_us) as usize
    }

    /// The most pairs a full window gives.
    pub fn max_pairs(&self) -> usize {
        let d = self.day_lag();
        (1..)
            .map(|k| k * d)
            .take_while(|&lag| lag < self.buckets)
            .map(|lag| self.buckets - lag)
            .sum()
    }

    /// The link's bucket phase (µs, below the bucket length): a fixed hash of
    /// the link id, so both ends of a link share their buckets and the links
    /// close theirs at staggered times.
    pub fn phase(&self, link: i64) -> i64 {
        (splitmix64(link as u64) % self.bucket_us as u64) as i64
    }

    /// The index of the bucket holding `time` at `link`.
    pub fn bucket_of(&self, link: i64, time: i64) -> i64 {
        (i128::from(time) - i128::from(self.phase(link))).div_euclid(i128::from(self.bucket_us))
            as i64
    }

    /// The end time (µs) of bucket `bucket` at `link`.
    pub fn bucket_end(&self, link: i64, bucket: i64) -> i64 {
        self.phase(link)
            .saturating_add(bucket.saturating_add(1).saturating_mul(self.bucket_us))
    }

    /// A bucket's length in days.
    pub fn bucket_days(&self) -> f64 {
        self.bucket_us as f64 / DAY_US as f64
    }

    /// Buckets in the recent fit's window ([`RECENT_DAYS`]).
    pub fn recent_buckets(&self) -> usize {
        (RECENT_DAYS * self.day_lag() as f64).round() as usize
    }

    /// Buckets in the fresh fit's window ([`FRESH_DAYS`]).
    pub fn fresh_buckets(&self) -> usize {
        (FRESH_DAYS * self.day_lag() as f64).round() as usize
    }
}

/// SplitMix64's finaliser: a fixed, well-mixing integer hash.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A reading in hundredths, clamped to the `i16` range (never [`MISSING`]).
pub fn scaled(v: f64) -> i16 {
    (v * SCALE).round().clamp(-32767.0, 32767.0) as i16
}

/// One closed bucket: its trimmed mean and trimmed standard deviation, in
/// hundredths ([`MISSING`] value: fewer than 3 samples).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Trimmed mean, hundredths, or [`MISSING`].
    pub value: i16,
    /// Trimmed standard deviation, hundredths (0 when missing).
    pub std: u16,
}

impl Slot {
    /// A bucket without a value.
    pub const EMPTY: Slot = Slot {
        value: MISSING,
        std: 0,
    };

    /// Whether the bucket has a value.
    pub fn is_present(&self) -> bool {
        self.value != MISSING
    }
}

/// The open bucket of a series: O(1) per sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Open {
    /// Samples (saturates; later samples of a full bucket are dropped).
    pub n: u16,
    /// Lowest sample, hundredths.
    pub min: i16,
    /// Highest sample, hundredths.
    pub max: i16,
    /// Sum of the samples, hundredths.
    pub sum: i64,
    /// Sum of their squares, hundredths squared.
    pub sumsq: i64,
}

impl Open {
    fn add(&mut self, v: i16) {
        if self.n == u16::MAX {
            return;
        }
        if self.n == 0 {
            (self.min, self.max) = (v, v);
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.n += 1;
        self.sum += i64::from(v);
        self.sumsq += i64::from(v) * i64::from(v);
    }

    /// The closed bucket: the mean and standard deviation without the single
    /// lowest and highest sample, when there are at least 3 samples.
    fn close(&self) -> Slot {
        if self.n < MIN_BUCKET_SAMPLES {
            return Slot::EMPTY;
        }
        let m = f64::from(self.n - 2);
        let sum = (self.sum - i64::from(self.min) - i64::from(self.max)) as f64;
        let sumsq = (self.sumsq
            - i64::from(self.min) * i64::from(self.min)
            - i64::from(self.max) * i64::from(self.max)) as f64;
        let mean = sum / m;
        let variance = (sumsq / m - mean * mean).max(0.0);
        Slot {
            value: (mean.round() as i16).max(-32767),
            std: variance.sqrt().round().min(f64::from(u16::MAX)) as u16,
        }
    }
}

/// A step: a closed bucket whose value moved by at least
/// max([`STEP_MIN_DB`], [`STEP_NOISES`] x noise) from the previous present one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Closes since the step's bucket closed (0: it is the newest bucket).
    pub age: u8,
    /// Size, hundredths (negative: a step down).
    pub size: i16,
}

/// One series: its open bucket, its ring and its flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The open bucket.
    pub open: Open,
    /// The last closed buckets, slot `bucket mod len` for bucket `bucket`.
    pub ring: Box<[Slot]>,
    /// The newest step still in the window.
    pub step: Option<Step>,
    /// Consecutive polls the lane was dark while another lane was lit (up
    /// to [`DARK_LANE_POLLS`]).
    pub dark_polls: u8,
    /// The lane has carried a value.
    pub lit: bool,
}

/// The slope fit of a series' window.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Median pair slope, units per day.
    pub slope: f64,
    /// 10th percentile of the pair slopes.
    pub low: f64,
    /// 90th percentile of the pair slopes.
    pub high: f64,
    /// Fitted value at the newest closed bucket's end.
    pub level: f64,
    /// The pair slopes, ascending.
    pub slopes: Vec<f64>,
}

/// Percentile `p` (0..1) of ascending `v` (not empty), interpolated linearly
/// between neighbours (numpy's default).
pub fn percentile(v: &[f64], p: f64) -> f64 {
    let pos = p * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

impl Series {
    /// An empty series with a ring of `buckets` missing buckets.
    pub fn new(buckets: usize) -> Self {
        Series {
            open: Open::default(),
            ring: vec![Slot::EMPTY; buckets].into_boxed_slice(),
            step: None,
            dark_polls: 0,
            lit: false,
        }
    }

    /// Takes a reading (in the open bucket).
    pub fn add(&mut self, v: f64) {
        self.open.add(scaled(v));
        self.lit = true;
        self.dark_polls = 0;
    }

    fn slot(&self, bucket: i64) -> &Slot {
        &self.ring[bucket.rem_euclid(self.ring.len() as i64) as usize]
    }

    fn slot_mut(&mut self, bucket: i64) -> &mut Slot {
        let len = self.ring.len() as i64;
        &mut self.ring[bucket.rem_euclid(len) as usize]
    }

    /// The window's slots, oldest first, the newest being `newest` (the
    /// newest closed bucket).
    pub fn window(&self, newest: i64) -> impl DoubleEndedIterator<Item = Slot> + '_ {
        let n = self.ring.len() as i64;
        (newest - n + 1..=newest).map(move |b| *self.slot(b))
    }

    /// The noise: the median of the present buckets' standard deviations
    /// (units, not hundredths); None without a present bucket.
    pub fn noise(&self) -> Option<f64> {
        let mut stds: Vec<u16> = self
            .ring
            .iter()
            .filter(|s| s.is_present())
            .map(|s| s.std)
            .collect();
        if stds.is_empty() {
            return None;
        }
        stds.sort_unstable();
        let k = stds.len();
        let median = if k % 2 == 1 {
            f64::from(stds[k / 2])
        } else {
            (f64::from(stds[k / 2 - 1]) + f64::from(stds[k / 2])) / 2.0
        };
        Some(median / SCALE)
    }

    /// Closes the open bucket as bucket `bucket`; `power`: look for a step.
    fn close(&mut self, bucket: i64, power: bool) {
        let slot = self.open.close();
        self.open = Open::default();
        self.age_step();
        if power && slot.is_present() {
            let len = self.ring.len() as i64;
            let previous = (bucket - len + 1..bucket)
                .rev()
                .map(|b| self.slot(b).value)
                .find(|&v| v != MISSING);
            if let Some(previous) = previous {
                let size = i32::from(slot.value) - i32::from(previous);
                let moved = f64::from(size.abs()) / SCALE;
                // The noise (a median) only when the move could be a step.
                if moved >= STEP_MIN_DB && moved >= STEP_NOISES * self.noise().unwrap_or(0.0) {
                    self.step = Some(Step {
                        age: 0,
                        size: size.clamp(-32767, 32767) as i16,
                    });
                }
            }
        }
        *self.slot_mut(bucket) = slot;
    }

    /// Records bucket `bucket` as missing (no sample in it).
    fn skip(&mut self, bucket: i64) {
        self.age_step();
        *self.slot_mut(bucket) = Slot::EMPTY;
    }

    fn age_step(&mut self) {
        let len = self.ring.len();
        if let Some(step) = &mut self.step {
            if usize::from(step.age) + 1 >= len {
                self.step = None;
            } else {
                step.age += 1;
            }
        }
    }

    /// Theil–Sen over the present buckets whose distance is a whole number of
    /// days (a diurnal swing cancels in every such pair); None with fewer
    /// than [`MIN_PAIRS`] pairs. `newest` is the newest closed bucket.
    pub fn fit(&self, newest: i64, settings: &TrendSettings) -> Option<Fit> {
        self.fit_last(newest, settings, self.ring.len(), MIN_PAIRS)
    }

    /// The recent fit: [`Series::fit`] over the newest [`RECENT_DAYS`] of the
    /// window only, which sees a fade that began a day or two ago (or speeds
    /// up) at its own slope, where the whole window's pairs still mostly span
    /// the flat days before it. None when the window is not longer than that.
    pub fn fit_recent(&self, newest: i64, settings: &TrendSettings) -> Option<Fit> {
        let buckets = settings.recent_buckets();
        (buckets < self.ring.len())
            .then(|| self.fit_last(newest, settings, buckets, MIN_PAIRS))
            .flatten()
    }

    /// The fresh fit: the newest day's buckets against the day before
    /// ([`FRESH_DAYS`], one pair per bucket of the newest day), which sees a
    /// fade that began less than a day ago. Too few pairs to judge a lane on
    /// alone: the forecast uses it only where a second signal agrees (an
    /// ageing laser: its Tx falling and its bias rising over the same pairs).
    /// None when the window is not longer than that, or a pair is missing
    /// (fewer than [`FRESH_MIN_PAIRS`]).
    pub fn fit_fresh(&self, newest: i64, settings: &TrendSettings) -> Option<Fit> {
        let buckets = settings.fresh_buckets();
        (buckets < self.ring.len())
            .then(|| self.fit_last(newest, settings, buckets, FRESH_MIN_PAIRS))
            .flatten()
    }

    /// [`Series::fit`] over the newest `buckets` closed buckets; None with
    /// fewer than `min_pairs` pairs.
    fn fit_last(
        &self,
        newest: i64,
        settings: &TrendSettings,
        buckets: usize,
        min_pairs: usize,
    ) -> Option<Fit> {
        let values: Vec<i16> = self
            .window(newest)
            .skip(self.ring.len().saturating_sub(buckets))
            .map(|s| s.value)
            .collect();
        let n = values.len();
        let d = settings.day_lag();
        let days = settings.bucket_days();
        let mut slopes = Vec::with_capacity(settings.max_pairs());
        for lag in (1..).map(|k| k * d).take_while(|&lag| lag < n) {
            for i in 0..n - lag {
                let (a, b) = (values[i], values[i + lag]);
                if a != MISSING && b != MISSING {
                    let rise = f64::from(i32::from(b) - i32::from(a)) / SCALE;
                    slopes.push(rise / (lag as f64 * days));
                }
            }
        }
        if slopes.len() < min_pairs {
            return None;
        }
        slopes.sort_unstable_by(f64::total_cmp);
        let slope = percentile(&slopes, 0.5);
        let mut fitted: Vec<f64> = values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != MISSING)
            // A bucket's value stands for its middle: half a bucket to its end.
            .map(|(i, v)| f64::from(*v) / SCALE + slope * ((n - 1 - i) as f64 + 0.5) * days)
            .collect();
        fitted.sort_unstable_by(f64::total_cmp);
        Some(Fit {
            slope,
            low: percentile(&slopes, 0.1),
            high: percentile(&slopes, 0.9),
            level: percentile(&fitted, 0.5),
            slopes,
        })
    }

    /// Whether the lane is flagged dark.
    pub fn is_dark(&self) -> bool {
        self.dark_polls >= DARK_LANE_POLLS
    }
}

/// One poll's readings of an end: per quantity the lanes' values (NaN or
/// another non-finite value: no value; a sample without lanes gives its average as the one lane; empty:
/// the quantity was not polled) and the temperature (NaN: none).
#[derive(Clone, Copy, Debug)]
pub struct Poll<'a> {
    /// Rx power per lane, dBm.
    pub rx: &'a [f64],
    /// Tx power per lane, dBm.
    pub tx: &'a [f64],
    /// Laser bias per lane, mA.
    pub bias: &'a [f64],
    /// Temperature, °C.
    pub temperature: f64,
}

/// Trend state of one link end.
#[derive(Clone, Debug, PartialEq)]
pub struct EndTrend {
    /// Time of the newest reading taken (µs): its bucket is the open one
    /// (`i64::MIN` before the first).
    pub time: i64,
    /// End of the open bucket (µs), derived from `time`: a reading before it
    /// closes nothing, so the common poll does no division.
    pub open_end: i64,
    /// Rx power series per lane.
    pub rx: Vec<Series>,
    /// Tx power series per lane.
    pub tx: Vec<Series>,
    /// Laser bias series per lane.
    pub bias: Vec<Series>,
    /// The temperature series (none or one).
    pub temperature: Vec<Series>,
}

impl Default for EndTrend {
    fn default() -> Self {
        Self::new()
    }
}

impl EndTrend {
    /// An end without readings.
    pub fn new() -> Self {
        EndTrend {
            time: i64::MIN,
            open_end: i64::MIN,
            rx: vec![],
            tx: vec![],
            bias: vec![],
            temperature: vec![],
        }
    }

    /// The series of a quantity.
    pub fn series(&self, quantity: Quantity) -> &[Series] {
        match quantity {
            Quantity::Rx => &self.rx,
            Quantity::Tx => &self.tx,
            Quantity::Bias => &self.bias,
            Quantity::Temperature => &self.temperature,
        }
    }

    pub(crate) fn series_mut(&mut self, quantity: Quantity) -> &mut Vec<Series> {
        match quantity {
            Quantity::Rx => &mut self.rx,
            Quantity::Tx => &mut self.tx,
            Quantity::Bias => &mut self.bias,
            Quantity::Temperature => &mut self.temperature,
        }
    }

    /// The newest closed bucket at `link`.
    pub fn newest_closed(&self, link: i64, settings: &TrendSettings) -> i64 {
        settings.bucket_of(link, self.time) - 1
    }

    /// Takes one poll at `time` (after [`EndTrend::time`]; an older poll is
    /// ignored and false returned). Closes the buckets the poll moves past;
    /// returns whether it closed any.
    pub fn feed(
        &mut self,
        link: i64,
        time: i64,
        poll: &Poll<'_>,
        settings: &TrendSettings,
    ) -> bool {
        if time <= self.time {
            return false;
        }
        let first = self.time == i64::MIN;
        let closed = !first && time >= self.open_end;
        if first || closed {
            let now = settings.bucket_of(link, time);
            if closed {
                let open = settings.bucket_of(link, self.time);
                self.close(open, now, settings);
            }
            self.open_end = settings.bucket_end(link, now);
        }
        self.time = time;
        let temperature = [poll.temperature];
        let lanes = [poll.rx, poll.tx, poll.bias, &temperature[..]];
        for (quantity, values) in Quantity::ALL.into_iter().zip(lanes) {
            let power = quantity.is_power();
            take(self.series_mut(quantity), values, power, settings.buckets);
        }
        closed
    }

    /// An end resumed at its newest reading time (a restored checkpoint).
    pub fn resume(link: i64, time: i64, settings: &TrendSettings) -> Self {
        EndTrend {
            time,
            open_end: settings.bucket_end(link, settings.bucket_of(link, time)),
            ..EndTrend::new()
        }
    }

    /// Closes bucket `open` of every series, and the buckets after it up to
    /// `now` (the new open one) as missing.
    fn close(&mut self, open: i64, now: i64, settings: &TrendSettings) {
        let skipped_from = (open + 1).max(now - settings.buckets as i64);
        for quantity in Quantity::ALL {
            for series in self.series_mut(quantity) {
                series.close(open, quantity.is_power());
                for b in skipped_from..now {
                    series.skip(b);
                }
            }
        }
    }
}

/// Feeds one quantity's lanes: values go to their series (created on the
/// first value); a power lane without a value while another is lit counts a
/// dark poll, once it has been lit.
fn take(series: &mut Vec<Series>, values: &[f64], power: bool, buckets: usize) {
    let any_lit = values.iter().any(|v| v.is_finite());
    if !any_lit {
        return;
    }
    for (lane, &v) in values.iter().enumerate() {
        if v.is_finite() {
            while series.len() <= lane {
                series.push(Series::new(buckets));
            }
            series[lane].add(v);
        } else if power
            && let Some(s) = series.get_mut(lane)
            && s.lit
        {
            s.dark_polls = (s.dark_polls + 1).min(DARK_LANE_POLLS);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000_000;

    fn one(v: f64) -> [f64; 1] {
        [v]
    }

    /// Feeds an hourly series (`value(hour)`) of Rx lane 0 for `hours`.
    fn hourly(link: i64, hours: i64, value: impl Fn(i64) -> f64) -> (EndTrend, TrendSettings) {
        let settings = TrendSettings::default();
        let mut end = EndTrend::new();
        for h in 0..hours {
            let rx = one(value(h));
            let poll = Poll {
                rx: &rx,
                tx: &[],
                bias: &[],
                temperature: f64::NAN,
            };
            end.feed(link, h * HOUR, &poll, &settings);
        }
        (end, settings)
    }

    #[test]
    fn the_phase_is_fixed_and_below_the_bucket() {
        let s = TrendSettings::default();
        assert_eq!(s.phase(42), s.phase(42));
        assert_ne!(s.phase(42), s.phase(43));
        for link in 0..1000 {
            assert!((0..s.bucket_us).contains(&s.phase(link)));
            let b = s.bucket_of(link, 123 * HOUR);
            assert!(s.bucket_end(link, b - 1) <= 123 * HOUR && 123 * HOUR < s.bucket_end(link, b));
        }
    }

    #[test]
    fn a_bucket_value_ignores_its_lowest_and_highest_sample() {
        let mut open = Open::default();
        for v in [-300, -301, -4000, -299, 500, -300] {
            open.add(v);
        }
        let slot = open.close();
        assert_eq!(slot.value, -300);
        assert!(slot.std <= 1);
        let mut two = Open::default();
        two.add(1);
        two.add(2);
        assert_eq!(two.close(), Slot::EMPTY);
    }

    #[test]
    fn a_linear_series_gives_its_slope_and_level() {
        // -0.2 dB per day from -3 dBm, 4 days and a bit.
        let (end, settings) = hourly(7, 4 * 24 + 30, |h| -3.0 - 0.2 * h as f64 / 24.0);
        let newest = end.newest_closed(7, &settings);
        let fit = end.rx[0].fit(newest, &settings).unwrap();
        assert!((fit.slope + 0.2).abs() < 0.01, "{fit:?}");
        assert!(fit.low <= fit.slope && fit.slope <= fit.high);
        assert_eq!(fit.slopes.len(), 24);
        let end_time = settings.bucket_end(7, newest);
        let expected = -3.0 - 0.2 * (end_time as f64 / HOUR as f64) / 24.0;
        assert!(
            (fit.level - expected).abs() < 0.03,
            "{} {expected}",
            fit.level
        );
    }

    #[test]
    fn a_gap_leaves_missing_buckets_and_too_few_pairs_give_no_slope() {
        let settings = TrendSettings::default();
        let mut end = EndTrend::new();
        let rx = one(-3.0);
        let poll = Poll {
            rx: &rx,
            tx: &[],
            bias: &[],
            temperature: 20.0,
        };
        for h in 0..30 {
            end.feed(1, h * HOUR, &poll, &settings);
        }
        assert!(end.feed(1, 200 * HOUR, &poll, &settings));
        let newest = end.newest_closed(1, &settings);
        assert!(end.rx[0].window(newest).all(|s| !s.is_present()));
        assert!(end.rx[0].fit(newest, &settings).is_none());
        assert_eq!(end.temperature.len(), 1);
        assert!(!end.feed(1, 100 * HOUR, &poll, &settings));
    }

    #[test]
    fn a_series_stays_small() {
        // 200K ends of a 100K-link fabric, up to 13 series each: the series
        // itself plus its ring of 16 four-byte slots on the heap.
        eprintln!(
            "Series {} bytes, Slot {}, EndTrend {}",
            std::mem::size_of::<Series>(),
            std::mem::size_of::<Slot>(),
            std::mem::size_of::<EndTrend>()
        );
        assert!(std::mem::size_of::<Series>() <= 48);
        assert_eq!(std::mem::size_of::<Slot>(), 4);
    }

    #[test]
    fn settings_must_give_whole_day_pairs() {
        assert!(TrendSettings::from_seconds(21600.0, 16).is_ok());
        assert!(TrendSettings::from_seconds(7000.0, 16).is_err());
        assert!(TrendSettings::from_seconds(21600.0, 5).is_err());
        assert!(TrendSettings::from_seconds(0.0, 16).is_err());
        assert!(TrendSettings::from_seconds(f64::NAN, 16).is_err());
        assert!(TrendSettings::from_seconds(3600.0, 30).is_ok());
    }
}
