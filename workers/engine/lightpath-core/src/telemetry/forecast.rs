//! Forecasts of a link's optical power crossing its low limits, with the
//! probable root cause (issue #19; CorrOpt's Table 3.2): pure functions of
//! the ends' trend state, the limits and `now`.
//!
//! Decisions where the contract is silent:
//! - A quantity without a limit is not forecast, and its dark or erratic
//!   lanes are not reported either (they still name the cause of a forecast
//!   from another quantity).
//! - A dark lane's `level` is the no-light level, -40 dBm.
//! - The link's forecast is its worst lane: an at-risk lane before one that
//!   is not, then the earliest crossing, then the higher confidence.
//! - For contamination the far end's Rx and Tx count as "falling" only when
//!   clearly so (their 90th percentile slope is below zero, or an Rx step
//!   down) and at least [`FAR_SHARE`] as fast as the near end's Rx, so noise
//!   on a healthy far end does not hide the pattern.
//! - A crossing more than a million days away counts as never.
//! - "Already at or below the limit" is judged on the newest reading (the
//!   newest present bucket of the window) as well as the fitted level: a
//!   step down leaves the fit behind, and a short history has no fit. Such a
//!   lane's level is the lower of the two, its slope the fit's (0 without).
//!   A reading under the limit by no more than the lane's noise counts only
//!   when the newest day's buckets average at or under the limit: a daily
//!   low touching it is not a crossing.

use std::cell::OnceCell;

use super::trend::{
    ERRATIC_DB, EndTrend, Fit, MISSING, Quantity, SCALE, STEP_MIN_DB, Series, Slot, TrendSettings,
};

/// The no-light level (dBm) given as a dark lane's level.
pub const NO_LIGHT_DBM: f64 = -40.0;
/// Links crossing later than this many horizons (or never), with no flag,
/// are not reported.
pub const REPORT_HORIZONS: i64 = 4;
/// The least confidence for at risk of a lane whose transmitting laser is
/// ageing (Tx falling, bias clearly rising), when the fabric asks for more:
/// the median slope's crossing within the horizon.
pub const CORROBORATED_CONFIDENCE: f64 = 0.5;

/// The share of the near end's Rx fall at which a clearly falling far end
/// explains it (the contamination rule).
pub const FAR_SHARE: f64 = 0.5;

/// Probable root cause of a forecast (CorrOpt, Table 3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Falling Tx with rising bias.
    DecayingTransmitter,
    /// Falling Rx at one end only.
    Contamination,
    /// A step down of Rx at both ends.
    BentFiber,
    /// A dark or erratic lane.
    LooseTransceiver,
    /// A crossing, no known pattern.
    Unknown,
}

impl Cause {
    /// The name used in storage and APIs.
    pub fn name(self) -> &'static str {
        match self {
            Cause::DecayingTransmitter => "decaying_transmitter",
            Cause::Contamination => "contamination",
            Cause::BentFiber => "bent_fiber",
            Cause::LooseTransceiver => "loose_transceiver",
            Cause::Unknown => "unknown",
        }
    }
}

/// What a forecast is asked with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForecastSettings {
    /// The time of the forecast (µs).
    pub now_us: i64,
    /// A crossing within this long after `now_us` can be at risk (µs).
    pub horizon_us: i64,
    /// ...when at least this share of the pair slopes put it there.
    pub min_confidence: f64,
}

/// Low limits (dBm) of one link: Rx and Tx of side A, Rx and Tx of side Z.
pub type Limits = [Option<f64>; 4];

/// A link's forecast: its worst lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    /// The link.
    pub link: i64,
    /// Crossing within the horizon with enough confidence, or a flag.
    pub at_risk: bool,
    /// Forecast crossing (µs).
    pub crossing_us: i64,
    /// Crossing under the 10th percentile slope.
    pub earliest_us: i64,
    /// Crossing under the 90th percentile slope; None: it may never cross.
    pub latest_us: Option<i64>,
    /// Share of pair slopes putting the crossing within the horizon.
    pub confidence: f64,
    /// Probable cause.
    pub cause: Cause,
    /// The end whose reading crosses (false = A).
    pub side: bool,
    /// Rx or Tx.
    pub quantity: Quantity,
    /// Lane.
    pub lane: usize,
    /// Fitted level (dBm) at the newest closed bucket's end.
    pub level_dbm: f64,
    /// Median slope (dB per day).
    pub slope_db_per_day: f64,
    /// The limit crossed (dBm).
    pub limit_dbm: f64,
    /// The end to act on; None when the fix is not at an end (the cable).
    pub cause_side: Option<bool>,
}

/// One lane's forecast, before the link's worst is chosen.
#[derive(Clone, Debug)]
struct Candidate {
    at_risk: bool,
    crossing: i64,
    earliest: i64,
    latest: Option<i64>,
    confidence: f64,
    side: bool,
    quantity: Quantity,
    lane: usize,
    level: f64,
    slope: f64,
    limit: f64,
    /// At risk on the fresh fit of light from a freshly ageing laser.
    fresh: bool,
}

/// `from` plus `days` days, in µs; None past a million days (never).
fn after_days(from: i64, days: f64) -> Option<i64> {
    (days.is_finite() && days.abs() < 1e6)
        .then(|| from.saturating_add((days * super::trend::DAY_US as f64).round() as i64))
}

/// A falling fit's crossing: (crossing, earliest, latest, confidence).
fn crossing_of(
    fit: &Fit,
    newest_end: i64,
    limit: f64,
    due: i64,
) -> Option<(i64, i64, Option<i64>, f64)> {
    let margin = fit.level - limit;
    let crossing = after_days(newest_end, margin / -fit.slope)?;
    let earliest = after_days(newest_end, margin / -fit.low).unwrap_or(crossing);
    let latest = (fit.high < 0.0)
        .then(|| after_days(newest_end, margin / -fit.high))
        .flatten();
    let within = fit
        .slopes
        .iter()
        .filter(|&&s| s < 0.0 && after_days(newest_end, margin / -s).is_some_and(|t| t <= due))
        .count();
    Some((
        crossing,
        earliest,
        latest,
        within as f64 / fit.slopes.len() as f64,
    ))
}

/// A lane's fits: the whole window's and the recent one's.
#[derive(Default)]
struct LaneFits {
    whole: Option<Fit>,
    recent: Option<Fit>,
}

/// The forecast of one lane (None: nothing to report); `newest` is the
/// newest closed bucket; `min_confidence` gives the least confidence for at
/// risk that applies to this lane and `freshly_ageing` whether the laser its
/// light comes from is freshly ageing ([`EndPattern::freshly_ageing`]), both
/// asked only when a crossing within the horizon makes them matter.
#[allow(clippy::too_many_arguments)]
fn lane_candidate(
    series: &Series,
    fits: &LaneFits,
    newest_end: i64,
    (newest, trend): (i64, &TrendSettings),
    limit: f64,
    settings: &ForecastSettings,
    (min_confidence, freshly_ageing): (&dyn Fn() -> f64, &dyn Fn() -> bool),
    (side, quantity, lane): (bool, Quantity, usize),
) -> Option<Candidate> {
    let day = trend.day_lag();
    let now = settings.now_us;
    let due = now.saturating_add(settings.horizon_us);
    let fit = fits.whole.as_ref();
    let slope = fit.map_or(0.0, |f| f.slope);
    let base = Candidate {
        at_risk: true,
        crossing: now,
        earliest: now,
        latest: Some(now),
        confidence: 1.0,
        side,
        quantity,
        lane,
        level: fit.map_or(NO_LIGHT_DBM, |f| f.level),
        slope,
        limit,
        fresh: false,
    };
    if series.is_dark() {
        return Some(Candidate {
            level: NO_LIGHT_DBM,
            ..base
        });
    }
    let noise = series.noise();
    if let Some(noise) = noise.filter(|n| *n > ERRATIC_DB) {
        let (mut under, mut present) = (0usize, 0usize);
        for slot in series.window(newest) {
            if slot.value != MISSING {
                present += 1;
                under += usize::from(f64::from(slot.value) / SCALE - 3.0 * noise < limit);
            }
        }
        let confidence = under as f64 / present.max(1) as f64;
        return Some(Candidate {
            at_risk: confidence >= min_confidence(),
            confidence,
            ..base
        });
    }
    // The newest reading (the newest present bucket) at or below the limit
    // crosses now, whatever the fit says: after a step down the fitted level
    // (a median over the window) lags the readings and the slope may not
    // fall, and a short history has no fit at all.
    if let Some(reading) = newest_crossing(series, newest, day, limit, noise.unwrap_or(0.0)) {
        return Some(Candidate {
            level: fit.map_or(reading, |f| f.level.min(reading)),
            ..base
        });
    }
    let fit = fit?;
    if fit.level <= limit {
        return Some(base);
    }
    // The whole window's judgement, and the recent fit's when it falls too
    // (both agree on the direction): the lane is at risk when either is, and
    // reports the at-risk one, else the earlier crossing.
    let falling = fit.slope < 0.0;
    let judged = [
        Some(fit).filter(|_| falling),
        fits.recent.as_ref().filter(|r| falling && r.slope < 0.0),
    ]
    .into_iter()
    .flatten()
    .filter(|f| f.level > limit)
    .filter_map(|f| {
        let (crossing, earliest, latest, confidence) = crossing_of(f, newest_end, limit, due)?;
        Some(Candidate {
            at_risk: crossing <= due && confidence >= min_confidence(),
            crossing,
            earliest,
            latest,
            confidence,
            level: f.level,
            slope: f.slope,
            ..base.clone()
        })
    })
    .min_by(worse_first);
    if judged.as_ref().is_some_and(|c| c.at_risk) {
        return judged;
    }
    // A fade that began less than a day ago, of light from a laser whose Tx
    // fell and whose bias rose over each of the newest day's whole-day pairs:
    // two independent signals agree, so the newest day's pairs judge the
    // lane, with the corroborated confidence, a day before most of the
    // recent fit's pairs see the fade. Only an at-risk verdict is taken: on
    // their own these few pairs are too noisy to report a crossing.
    let fresh = || {
        let f = series
            .fit_fresh(newest, trend)
            .filter(|f| f.slope < 0.0 && f.level > limit)?;
        let (crossing, earliest, latest, confidence) = crossing_of(&f, newest_end, limit, due)?;
        let at_risk = crossing <= due
            && confidence >= settings.min_confidence.min(CORROBORATED_CONFIDENCE)
            && freshly_ageing();
        at_risk.then(|| Candidate {
            crossing,
            earliest,
            latest,
            confidence,
            level: f.level,
            slope: f.slope,
            fresh: true,
            ..base.clone()
        })
    };
    let judged = fresh().or(judged)?;
    let reported = judged.crossing <= now.saturating_add(REPORT_HORIZONS * settings.horizon_us);
    reported.then_some(judged)
}

/// The newest reading (dBm) when it has crossed `limit`: at or below it by
/// more than the lane's `noise`, or at or below it with the newest day's
/// buckets (`day` of them) at or below it on average. A bucket or two at a
/// daily swing's low dipping under the limit by less than the noise is a
/// receiver sitting at its limit, not a crossing: it would go in and out of
/// "at risk" every day.
fn newest_crossing(
    series: &Series,
    newest: i64,
    day: usize,
    limit: f64,
    noise: f64,
) -> Option<f64> {
    let mut day_values = series
        .window(newest)
        .rev()
        .take(day)
        .filter(Slot::is_present)
        .map(|slot| f64::from(slot.value) / SCALE)
        .peekable();
    // The newest present bucket within the day; an older one is no reading
    // of today.
    let reading = day_values.peek().copied().filter(|r| *r <= limit)?;
    if reading < limit - noise {
        return Some(reading);
    }
    let (sum, count) = day_values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (sum / count as f64 <= limit).then_some(reading)
}

/// The order of candidates, the worst first: an at-risk one before one that
/// is not, then the earliest crossing, then the higher confidence.
fn worse_first(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    (!a.at_risk, a.crossing)
        .cmp(&(!b.at_risk, b.crossing))
        .then(b.confidence.total_cmp(&a.confidence))
}

/// What the cause rules read of one end.
#[derive(Default)]
struct EndPattern {
    /// A dark or erratic Rx or Tx lane.
    loose: bool,
    /// An Rx lane stepped down by at least 1 dB within the window.
    rx_step_down: bool,
    /// The steepest median slope of the Rx lanes (dB/day; 0 when none falls).
    rx_slope: f64,
    /// The steepest median slope of the Rx lanes clearly falling (their 90th
    /// percentile slope is negative; 0 when none is).
    rx_clear_slope: f64,
    /// The same of the Tx lanes.
    tx_clear_slope: f64,
    /// A Tx lane clearly falling (its 90th percentile slope is negative, over
    /// the window or recently) with its bias (the same lane, or the one bias)
    /// rising.
    decaying: bool,
    /// ...and that bias clearly rising (its 10th percentile slope is
    /// positive): two independent signals of an ageing laser.
    decay_corroborated: bool,
    /// A Tx lane clearly falling and its bias clearly rising over the newest
    /// day's whole-day pairs (the fresh fits): an ageing laser seen within a
    /// day of its fade's start.
    freshly_ageing: bool,
}

/// An end's Rx and Tx lanes' fits.
type EndFits = (Vec<LaneFits>, Vec<LaneFits>);

/// The fits of a quantity's lanes.
fn fits(series: &[Series], newest: i64, settings: &TrendSettings) -> Vec<LaneFits> {
    series
        .iter()
        .map(|s| LaneFits {
            whole: s.fit(newest, settings),
            recent: s.fit_recent(newest, settings),
        })
        .collect()
}

/// The fits of a lane, the whole window's first.
fn both(f: &LaneFits) -> impl Iterator<Item = &Fit> {
    f.whole.iter().chain(&f.recent)
}

/// The pattern of one end; `rx` and `tx` are its lanes' fits.
fn pattern(
    end: Option<&EndTrend>,
    (rx, tx): &EndFits,
    link: i64,
    settings: &TrendSettings,
) -> EndPattern {
    let mut p = EndPattern::default();
    let Some(end) = end else {
        return p;
    };
    let newest = end.newest_closed(link, settings);
    let bias = fits(&end.bias, newest, settings);
    p.loose = end
        .rx
        .iter()
        .chain(&end.tx)
        .any(|s| s.is_dark() || s.noise().is_some_and(|n| n > ERRATIC_DB));
    p.rx_step_down = end.rx.iter().any(|s| {
        s.step
            .is_some_and(|st| f64::from(st.size) / SCALE <= -STEP_MIN_DB)
    });
    let rx_whole = || rx.iter().filter_map(|f| f.whole.as_ref());
    let steepest = |fits: &mut dyn Iterator<Item = &Fit>| fits.map(|f| f.slope).fold(0.0, f64::min);
    p.rx_slope = steepest(&mut rx_whole());
    p.rx_clear_slope = steepest(&mut rx_whole().filter(|f| f.high < 0.0));
    p.tx_clear_slope = steepest(
        &mut tx
            .iter()
            .filter_map(|f| f.whole.as_ref())
            .filter(|f| f.high < 0.0),
    );
    for (lane, f) in tx.iter().enumerate() {
        if !both(f).any(|f| f.high < 0.0) {
            continue;
        }
        let Some(bias) = bias.get(lane).or(bias.first()) else {
            continue;
        };
        p.decaying |= both(bias).any(|b| b.slope > 0.0);
        p.decay_corroborated |= both(bias).any(|b| b.low > 0.0);
    }
    p.freshly_ageing = end.tx.iter().enumerate().any(|(lane, tx)| {
        tx.fit_fresh(newest, settings).is_some_and(|f| f.high < 0.0)
            && end
                .bias
                .get(lane)
                .or(end.bias.first())
                .and_then(|b| b.fit_fresh(newest, settings))
                .is_some_and(|b| b.low > 0.0)
    });
    p
}

/// The cause (first matching rule) and the end to act on; `worst` is the
/// lane forecast, whose ends are tried first.
fn cause(patterns: &[EndPattern; 2], worst: &Candidate) -> (Cause, Option<bool>) {
    let at = |side: bool| &patterns[usize::from(side)];
    // The end a lane's reading depends on most: its own end for a flag or
    // Tx, the transmitting (far) end for Rx.
    let transmitting = if worst.quantity == Quantity::Rx {
        !worst.side
    } else {
        worst.side
    };
    let order = |first: bool| [first, !first];
    if let Some(side) = order(worst.side).into_iter().find(|&s| at(s).loose) {
        return (Cause::LooseTransceiver, Some(side));
    }
    if at(false).rx_step_down && at(true).rx_step_down {
        return (Cause::BentFiber, None);
    }
    // A fresh verdict was given for an ageing laser at the transmitting end
    // (only there: the same pattern on another lane of a link that is not
    // at risk from it is the noise of four pairs, not a cause).
    if worst.fresh {
        return (Cause::DecayingTransmitter, Some(transmitting));
    }
    if let Some(side) = order(transmitting).into_iter().find(|&s| at(s).decaying) {
        return (Cause::DecayingTransmitter, Some(side));
    }
    let receiving = if worst.quantity == Quantity::Rx {
        worst.side
    } else {
        !worst.side
    };
    for side in order(receiving) {
        let (near, far) = (at(side), at(!side));
        // The far end hides the pattern when its light fades clearly and
        // at least half as fast as the near end's Rx: with few pairs and
        // several lanes, a steady far end's slopes are all negative by
        // chance now and then.
        let explains = |far_slope: f64| far_slope < 0.0 && far_slope <= FAR_SHARE * near.rx_slope;
        if (near.rx_slope < 0.0 || near.rx_step_down)
            && !(explains(far.rx_clear_slope) || far.rx_step_down)
            && !explains(far.tx_clear_slope)
        {
            return (Cause::Contamination, Some(side));
        }
    }
    (Cause::Unknown, None)
}

/// The forecast of `link` from its ends' trends (A, Z), or None when nothing
/// is to be reported: no lane with a limit crosses within 4 horizons and none
/// is dark or erratic.
pub fn forecast_link(
    link: i64,
    ends: [Option<&EndTrend>; 2],
    limits: &Limits,
    trend: &TrendSettings,
    settings: &ForecastSettings,
) -> Option<Forecast> {
    // Each end's Rx and Tx fits, computed once for the lanes and the cause.
    let mut end_fits: [EndFits; 2] = Default::default();
    for (side, end) in [false, true].into_iter().zip(ends) {
        if let Some(end) = end {
            let newest = end.newest_closed(link, trend);
            end_fits[usize::from(side)] =
                (fits(&end.rx, newest, trend), fits(&end.tx, newest, trend));
        }
    }
    // The patterns (bias fits too) only when a lane's crossing or the cause
    // needs them: most links have neither.
    let patterns = OnceCell::new();
    let patterns = || {
        patterns.get_or_init(|| {
            [
                pattern(ends[0], &end_fits[0], link, trend),
                pattern(ends[1], &end_fits[1], link, trend),
            ]
        })
    };
    let mut worst: Option<Candidate> = None;
    for (side, end) in [false, true].into_iter().zip(ends) {
        let Some(end) = end else { continue };
        let newest = end.newest_closed(link, trend);
        let newest_end = trend.bucket_end(link, newest);
        let both = &end_fits[usize::from(side)];
        for (quantity, k) in [(Quantity::Rx, 0), (Quantity::Tx, 1)] {
            let Some(limit) = limits[2 * usize::from(side) + k] else {
                continue;
            };
            // A lane whose light comes from an ageing laser (its Tx falling
            // while its bias clearly rises) has a second, independent signal:
            // the median slope's crossing suffices.
            let transmitting = if quantity == Quantity::Rx {
                !side
            } else {
                side
            };
            let min_confidence = || {
                if patterns()[usize::from(transmitting)].decay_corroborated {
                    settings.min_confidence.min(CORROBORATED_CONFIDENCE)
                } else {
                    settings.min_confidence
                }
            };
            let freshly_ageing = || patterns()[usize::from(transmitting)].freshly_ageing;
            let lane_fits = if k == 0 { &both.0 } else { &both.1 };
            for (lane, series) in end.series(quantity).iter().enumerate() {
                let Some(c) = lane_candidate(
                    series,
                    &lane_fits[lane],
                    newest_end,
                    (newest, trend),
                    limit,
                    settings,
                    (&min_confidence, &freshly_ageing),
                    (side, quantity, lane),
                ) else {
                    continue;
                };
                if worst.as_ref().is_none_or(|w| worse_first(&c, w).is_lt()) {
                    worst = Some(c);
                }
            }
        }
    }
    let worst = worst?;
    let (cause, cause_side) = cause(patterns(), &worst);
    Some(Forecast {
        link,
        at_risk: worst.at_risk,
        crossing_us: worst.crossing,
        earliest_us: worst.earliest,
        latest_us: worst.latest,
        confidence: worst.confidence,
        cause,
        side: worst.side,
        quantity: worst.quantity,
        lane: worst.lane,
        level_dbm: worst.level,
        slope_db_per_day: worst.slope,
        limit_dbm: worst.limit,
        cause_side,
    })
}

#[cfg(test)]
mod tests {
    use super::super::trend::{DAY_US, Poll};
    use super::*;

    const LINK: i64 = 11;

    /// A tiny deterministic noise source (xorshift), uniform in [-1, 1).
    struct Noise(u64);

    impl Noise {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    /// Readings of one end at one 5-minute poll.
    struct Reading {
        rx: Vec<f64>,
        tx: Vec<f64>,
        bias: Vec<f64>,
        temperature: f64,
    }

    /// Feeds 5-minute polls for `days` days; `at(t_days)` gives the readings.
    fn feed(days: f64, at: impl FnMut(f64) -> [Reading; 2]) -> [EndTrend; 2] {
        feed_judging(days, at, |_, _| {})
    }

    /// [`feed`], calling `judge(ends, time)` after every poll that closed a bucket.
    fn feed_judging(
        days: f64,
        mut at: impl FnMut(f64) -> [Reading; 2],
        mut judge: impl FnMut(&[EndTrend; 2], i64),
    ) -> [EndTrend; 2] {
        let trend = TrendSettings::default();
        let mut ends = [EndTrend::new(), EndTrend::new()];
        let polls = (days * 288.0) as i64;
        for k in 0..polls {
            let time = k * 300_000_000;
            let readings = at(time as f64 / DAY_US as f64);
            let mut closed = false;
            for (end, r) in ends.iter_mut().zip(&readings) {
                let poll = Poll {
                    rx: &r.rx,
                    tx: &r.tx,
                    bias: &r.bias,
                    temperature: r.temperature,
                };
                closed |= end.feed(LINK, time, &poll, &trend);
            }
            if closed {
                judge(&ends, time);
            }
        }
        ends
    }

    fn flat(rx: f64, tx: f64) -> Reading {
        Reading {
            rx: vec![rx],
            tx: vec![tx],
            bias: vec![30.0],
            temperature: 40.0,
        }
    }

    fn run(ends: &[EndTrend; 2], limits: Limits, now_us: i64) -> Option<Forecast> {
        forecast_link(
            LINK,
            [Some(&ends[0]), Some(&ends[1])],
            &limits,
            &TrendSettings::default(),
            &ForecastSettings {
                now_us,
                horizon_us: 7 * DAY_US,
                min_confidence: 0.8,
            },
        )
    }

    const LIMITS: Limits = [Some(-10.0), Some(-6.0), Some(-10.0), Some(-6.0)];

    #[test]
    fn a_noiseless_line_crosses_at_the_closed_form() {
        // Z's Rx falls 1 dB a day from -4 dBm: at -10 dBm on day 6.
        let ends = feed(4.5, |t| [flat(-3.0, -1.0), flat(-4.0 - t, -1.0)]);
        let now = (4.5 * DAY_US as f64) as i64;
        let f = run(&ends, LIMITS, now).unwrap();
        let expected = 6.0 * DAY_US as f64;
        assert!(
            (f.crossing_us as f64 - expected).abs() < 0.02 * DAY_US as f64,
            "{f:?}"
        );
        assert!(f.earliest_us <= f.crossing_us && Some(f.crossing_us) <= f.latest_us);
        assert!(f.at_risk && f.confidence == 1.0);
        assert_eq!((f.side, f.quantity, f.lane), (true, Quantity::Rx, 0));
        assert!((f.slope_db_per_day + 1.0).abs() < 1e-9);
        // Falling Rx at Z only, A's Tx steady: contamination at Z.
        assert_eq!((f.cause, f.cause_side), (Cause::Contamination, Some(true)));
    }

    #[test]
    fn outliers_and_a_diurnal_swing_do_not_move_the_slope() {
        let mut noise = Noise(0x2545_F491_4F6C_DD1D);
        // Tx of A decays 0.3 dB a day from -1 dBm, bias rises; a ±0.3 dB and
        // ±1.5 °C diurnal swing, 0.1 dB noise, single bad polls (-40 dBm or +5 dB), one in 200.
        let ends = feed(4.5, |t| {
            let swing = (t * std::f64::consts::TAU).sin();
            let mut bad = |v: f64| {
                let u = noise.next();
                if u > 0.995 {
                    -40.0
                } else if u < -0.995 {
                    v + 5.0
                } else {
                    v + 0.1 * u
                }
            };
            let a = Reading {
                rx: vec![bad(-3.0 + 0.3 * swing)],
                tx: vec![bad(-1.0 - 0.3 * t + 0.3 * swing)],
                bias: vec![30.0 + 2.0 * t],
                temperature: 40.0 + 1.5 * swing,
            };
            let z = Reading {
                rx: vec![bad(-4.0 - 0.3 * t + 0.3 * swing)],
                ..flat(-3.0, -1.0)
            };
            [a, z]
        });
        let trend = TrendSettings::default();
        let newest = ends[0].newest_closed(LINK, &trend);
        let tx = ends[0].tx[0].fit(newest, &trend).unwrap();
        assert!((tx.slope + 0.3).abs() < 0.03, "{tx:?}");
        assert!(tx.high < 0.0);
        let temperature = ends[0].temperature[0].fit(newest, &trend).unwrap();
        assert!(temperature.slope.abs() < 0.05, "{temperature:?}");
        let now = (4.5 * DAY_US as f64) as i64;
        // Tx crosses -6 dBm when -1 - 0.3 t = -6: day 16.7; Rx of Z -10 at day 20.
        let f = run(&ends, LIMITS, now).unwrap();
        assert_eq!((f.side, f.quantity), (false, Quantity::Tx));
        let expected = 50.0 / 3.0 * DAY_US as f64;
        assert!(
            (f.crossing_us as f64 - expected).abs() < 1.5 * DAY_US as f64,
            "{f:?}"
        );
        assert!(!f.at_risk);
        assert_eq!(
            (f.cause, f.cause_side),
            (Cause::DecayingTransmitter, Some(false))
        );
    }

    #[test]
    fn a_flat_series_with_a_diurnal_swing_and_noise_never_crosses() {
        let mut noise = Noise(99);
        let mut judged = 0;
        // Judged as every bucket closes from day 4 to 10, on the whole window
        // and the recent one: 3 dB of margin at A, 0.8 dB at Z; a false
        // crossing would be reported.
        feed_judging(
            10.0,
            |t| {
                let swing = (t * std::f64::consts::TAU + 1.0).sin();
                let mut r = || Reading {
                    rx: vec![-7.0 + 0.3 * swing + 0.2 * noise.next()],
                    tx: vec![-1.0 + 0.3 * swing + 0.2 * noise.next()],
                    bias: vec![30.0 + noise.next()],
                    temperature: 40.0 + 1.5 * swing,
                };
                [r(), r()]
            },
            |ends, now| {
                if now >= 4 * DAY_US {
                    judged += 1;
                    let f = run(ends, [Some(-10.0), Some(-6.0), Some(-7.8), Some(-6.0)], now);
                    assert!(f.as_ref().is_none_or(|f| !f.at_risk), "{f:?}");
                }
            },
        );
        assert_eq!(judged, 24);
    }

    /// The confidence of a lane's judgements (whole window, recent) for
    /// `limit` at `now`: the at-risk rule's input.
    fn confidences(series: &Series, limit: f64, now: i64) -> Vec<f64> {
        let trend = TrendSettings::default();
        let newest = trend.bucket_of(LINK, now) - 1;
        let newest_end = trend.bucket_end(LINK, newest);
        [
            series.fit(newest, &trend),
            series.fit_recent(newest, &trend),
        ]
        .iter()
        .flatten()
        .filter(|f| f.slope < 0.0)
        .filter_map(|f| crossing_of(f, newest_end, limit, now + 7 * DAY_US))
        .map(|(.., confidence)| confidence)
        .collect()
    }

    #[test]
    fn a_fade_that_began_a_day_and_a_half_ago_is_judged_on_its_recent_slope() {
        // Z's Rx is flat at -8 dBm for 2.75 days, then falls 0.6 dB a day:
        // at 4.75 days it is at -9.2, 1.3 days from the -10 dBm limit. Most of
        // the window's whole-day pairs still span the flat days, so the whole
        // window alone is not confident; the last 2.5 days' pairs are.
        let start = 2.75;
        let ends = feed(4.75, |t| {
            [
                flat(-3.0, -1.0),
                flat(-8.0 - 0.6 * (t - start).max(0.0), -1.0),
            ]
        });
        let now = (4.75 * DAY_US as f64) as i64;
        let trend = TrendSettings::default();
        let newest = ends[1].newest_closed(LINK, &trend);
        let whole = ends[1].rx[0].fit(newest, &trend).unwrap();
        let recent = ends[1].rx[0].fit_recent(newest, &trend).unwrap();
        assert!(
            whole.slope > -0.25 && recent.slope < -0.35,
            "{whole:?} {recent:?}"
        );
        let newest_end = trend.bucket_end(LINK, newest);
        let (_, _, _, confidence) =
            crossing_of(&whole, newest_end, -10.0, now + 7 * DAY_US).unwrap();
        assert!(
            confidence < 0.8,
            "the whole window alone would flag it: {confidence}"
        );
        let f = run(&ends, LIMITS, now).unwrap();
        assert!(f.at_risk, "{f:?}");
        assert_eq!((f.side, f.quantity), (true, Quantity::Rx));
        assert_eq!(f.slope_db_per_day, recent.slope);
        // The recent slope's crossing: a day or two from now.
        let days = (f.crossing_us - now) as f64 / DAY_US as f64;
        assert!((0.8..2.5).contains(&days), "{days} {f:?}");
        // A rise in the recent days (the opposite direction) changes nothing.
        let ends = feed(4.75, |t| {
            [
                flat(-3.0, -1.0),
                flat(-9.0 + 0.6 * (t - start).max(0.0), -1.0),
            ]
        });
        assert!(run(&ends, LIMITS, now).is_none_or(|f| !f.at_risk));
    }

    #[test]
    fn an_ageing_laser_needs_only_the_median_slope_when_its_bias_rises() {
        // A's Tx fades 0.3 dB a day from day 2.5 (noise 0.1 dB); Z's Rx
        // follows it. At day 4.5 the pair slopes spread between the flat and
        // the falling days: a limit exists where the Rx lane's confidence is
        // under 0.8 (whole window and recent) and at least 0.5 (either).
        let fade = |rising_bias: bool| {
            let mut noise = Noise(0x9E37_79B9);
            feed(4.5, move |t| {
                let down = 0.3 * (t - 2.5).max(0.0);
                let mut n = || 0.1 * noise.next();
                let a = Reading {
                    tx: vec![-1.0 - down + n()],
                    bias: vec![30.0 + if rising_bias { 4.0 * down } else { 0.0 } + n()],
                    ..flat(-3.0 + n(), -1.0)
                };
                [a, flat(-6.0 - down + n(), -1.0)]
            })
        };
        let now = (4.5 * DAY_US as f64) as i64;
        let ends = fade(true);
        let limit = (1..400)
            .map(|k| -6.0 - 0.01 * f64::from(k))
            .find(|&limit| {
                let c = confidences(&ends[1].rx[0], limit, now);
                c.iter().all(|c| *c < 0.8) && c.iter().any(|c| *c >= 0.5)
            })
            .expect("a limit giving a confidence between 0.5 and 0.8");
        let limits = [Some(-30.0), Some(-30.0), Some(limit), Some(-30.0)];
        let f = run(&ends, limits, now).unwrap();
        assert_eq!((f.side, f.quantity), (true, Quantity::Rx), "{f:?}");
        assert!(f.at_risk && f.confidence < 0.8, "{f:?}");
        assert_eq!(
            (f.cause, f.cause_side),
            (Cause::DecayingTransmitter, Some(false))
        );
        // The same fade with a flat bias: one signal, the fabric's 0.8 holds.
        let ends = fade(false);
        let c = confidences(&ends[1].rx[0], limit, now);
        assert!(c.iter().all(|c| *c < 0.8), "{c:?}");
        let f = run(&ends, limits, now).unwrap();
        assert!(!f.at_risk, "{f:?}");
        assert_ne!(f.cause, Cause::DecayingTransmitter);
    }

    #[test]
    fn a_fade_under_a_day_old_is_at_risk_when_its_laser_ages() {
        // A's Tx fades 0.6 dB a day from day 3.55 (noise 0.1 dB); Z's Rx,
        // 2 dB above its limit, follows it: the crossing is 3.3 days after
        // the start. At day 4.75 the newest closed bucket ends 0.98 days
        // into the fade: too young for the window's and the recent fit's
        // pairs (most span flat days), old enough for each of the newest
        // day's pairs.
        let start = 3.55;
        let fade = |rising_bias: bool| {
            let mut noise = Noise(0x5DEE_CE66);
            feed(4.75, move |t| {
                let down = 0.6 * (t - start).max(0.0);
                let mut n = || 0.1 * noise.next();
                let a = Reading {
                    tx: vec![-1.0 - down + n()],
                    bias: vec![30.0 + if rising_bias { 4.0 * down } else { 0.0 } + n()],
                    ..flat(-3.0 + n(), -1.0)
                };
                [a, flat(-8.0 - down + n(), -1.0)]
            })
        };
        let now = (4.75 * DAY_US as f64) as i64;
        let limits = [Some(-30.0), Some(-30.0), Some(-10.0), Some(-30.0)];
        let ends = fade(true);
        let c = confidences(&ends[1].rx[0], -10.0, now);
        assert!(
            c.iter().all(|c| *c < 0.5),
            "the older rules would flag it: {c:?}"
        );
        let f = run(&ends, limits, now).unwrap();
        assert_eq!((f.side, f.quantity), (true, Quantity::Rx), "{f:?}");
        assert!(f.at_risk, "{f:?}");
        assert_eq!(
            (f.cause, f.cause_side),
            (Cause::DecayingTransmitter, Some(false))
        );
        // The crossing from the newest day's pairs (some of them span the
        // fade's start, so their median is slower than the fade): within
        // the horizon, not before the fade's own (2.1 days from now).
        let days = (f.crossing_us - now) as f64 / DAY_US as f64;
        assert!((2.0..7.0).contains(&days), "{days} {f:?}");
        // The same fade with a flat bias: the newest day's pairs alone are
        // not enough.
        let ends = fade(false);
        assert!(run(&ends, limits, now).is_none_or(|f| !f.at_risk));
    }

    #[test]
    fn a_falling_receiver_is_contamination_from_its_first_flag_in_every_bucket_phase() {
        // A's Rx (four lanes, 0.08 dB noise) loses 1.2 dB a day from -3 dBm;
        // Z steady with 0.05 dB of Tx noise. Each link id staggers the buckets
        // differently; the first at-risk forecast of each must name the cause.
        let trend = TrendSettings::default();
        let mut noise = Noise(0xC0FF_EE11);
        let mut lanes = |level: f64, n: f64| -> Vec<f64> {
            [0.0, -0.2, 0.1, -0.1]
                .iter()
                .map(|o| level + o + n * noise.next())
                .collect()
        };
        for link in 1..=48 {
            let mut ends = [EndTrend::new(), EndTrend::new()];
            let mut first = None;
            for k in 0..(5 * 96) {
                let time = k * 900_000_000;
                let day = time as f64 / DAY_US as f64;
                let readings = [
                    (lanes(-3.0 - 1.2 * day, 0.14), lanes(-1.8, 0.09)),
                    (lanes(-2.6, 0.14), lanes(-1.5, 0.09)),
                ];
                let mut closed = false;
                for (end, (rx, tx)) in ends.iter_mut().zip(&readings) {
                    let bias = [6.5; 4];
                    let poll = Poll {
                        rx,
                        tx,
                        bias: &bias,
                        temperature: 40.0,
                    };
                    closed |= end.feed(link, time, &poll, &trend);
                }
                if closed {
                    let f = forecast_link(
                        link,
                        [Some(&ends[0]), Some(&ends[1])],
                        &LIMITS,
                        &trend,
                        &ForecastSettings {
                            now_us: time,
                            horizon_us: 7 * DAY_US,
                            min_confidence: 0.8,
                        },
                    );
                    if let Some(f) = f.filter(|f| f.at_risk) {
                        first = Some(f);
                        break;
                    }
                }
            }
            let f = first.unwrap_or_else(|| panic!("link {link} never at risk"));
            assert_eq!(
                (f.cause, f.cause_side),
                (Cause::Contamination, Some(false)),
                "link {link}: {f:?}"
            );
        }
    }

    #[test]
    fn a_step_down_at_both_ends_is_a_bent_fiber() {
        let ends = feed(4.5, |t| {
            let drop = if t > 3.0 { 4.0 } else { 0.0 };
            [flat(-5.0 - drop, -1.0), flat(-5.5 - drop, -1.0)]
        });
        let newest = ends[0].newest_closed(LINK, &TrendSettings::default());
        // The drop falls inside a bucket: the step is the part in the first one.
        let step = ends[0].rx[0].step.unwrap();
        assert!((-400..=-100).contains(&step.size), "{step:?}");
        assert!(ends[0].rx[0].window(newest).count() == 16);
        let now = (4.5 * DAY_US as f64) as i64;
        let f = run(&ends, LIMITS, now).unwrap();
        assert_eq!((f.cause, f.cause_side), (Cause::BentFiber, None));
        // A step at one end only, with the far end's Tx steady: contamination there.
        let ends = feed(4.5, |t| {
            let drop = if t > 3.0 { 4.0 } else { 0.0 };
            [flat(-5.0 - drop, -1.0), flat(-5.5, -1.0)]
        });
        let f = run(&ends, LIMITS, now).unwrap();
        assert_eq!((f.cause, f.cause_side), (Cause::Contamination, Some(false)));
    }

    #[test]
    fn a_reading_below_its_limit_after_steps_crosses_now() {
        // A bent fiber: both ends' Rx step down twice, the second step
        // taking them below the -10 dBm limit. The fitted level lags the
        // steps (it is a median over the window) and the slope may not fall,
        // but the readings are under the limit: the crossing is now.
        let ends = feed(5.0, |t| {
            let drop = if t > 4.5 {
                3.5
            } else if t > 1.0 {
                1.5
            } else {
                0.0
            };
            [flat(-7.0 - drop, -1.0), flat(-7.2 - drop, -1.0)]
        });
        let trend = TrendSettings::default();
        let newest = ends[0].newest_closed(LINK, &trend);
        let fit = ends[0].rx[0].fit(newest, &trend).unwrap();
        assert!(fit.level > -10.0, "the fit lags the steps: {fit:?}");
        let now = 5 * DAY_US;
        let f = run(&ends, LIMITS, now).unwrap();
        assert!(f.at_risk, "{f:?}");
        assert_eq!(
            (f.crossing_us, f.earliest_us, f.latest_us),
            (now, now, Some(now))
        );
        assert_eq!(f.confidence, 1.0);
        assert_eq!(f.quantity, Quantity::Rx);
        // The level shown is the reading, under the limit.
        assert!(
            (f.level_dbm - (-10.5 - 0.2 * f64::from(u8::from(f.side)))).abs() < 0.01,
            "{f:?}"
        );
        assert_eq!((f.cause, f.cause_side), (Cause::BentFiber, None));
    }

    /// Z's Rx around `mean(t)` dBm with a ±0.2 dB daily swing and ±0.2 dB
    /// noise, judged with a -10.3 dBm limit at every bucket close from day 4
    /// to 10: `judge(forecast, now, newest bucket's value)`.
    fn at_its_limit(mean: impl Fn(f64) -> f64, mut judge: impl FnMut(Option<Forecast>, i64, f64)) {
        let mut noise = Noise(0x5DEE_CE66);
        let limits = [Some(-30.0), Some(-30.0), Some(-10.3), Some(-30.0)];
        feed_judging(
            10.0,
            |t| {
                let swing = 0.2 * (t * std::f64::consts::TAU).sin();
                let z = flat(mean(t) + swing + 0.2 * noise.next(), -1.0);
                [flat(-3.0, -1.0), z]
            },
            |ends, now| {
                if now >= 4 * DAY_US {
                    let trend = TrendSettings::default();
                    let newest = ends[1].newest_closed(LINK, &trend);
                    let value = ends[1].rx[0].window(newest).last().unwrap().value;
                    judge(run(ends, limits, now), now, f64::from(value) / SCALE);
                }
            },
        );
    }

    #[test]
    fn a_receiver_whose_daily_low_touches_its_limit_is_not_at_risk() {
        // Flat 0.1 dB above the limit: the bucket at the swing's low dips
        // under it by less than the lane's noise once a day, the others stay
        // above. Neither that dip nor the flat slope is a crossing.
        let (mut judged, mut dips) = (0, 0);
        at_its_limit(
            |_| -10.2,
            |f, _, value| {
                judged += 1;
                dips += usize::from(value <= -10.3);
                assert!(f.as_ref().is_none_or(|f| !f.at_risk), "{f:?}");
            },
        );
        assert_eq!(judged, 24);
        assert!(dips >= 4, "the daily low must touch the limit: {dips}");
    }

    #[test]
    fn a_receiver_that_stays_under_its_limit_or_drops_well_under_it_crosses_now() {
        // Half a dB down at day 5 (no step: under 1 dB): the first bucket
        // after it is under the limit by more than the noise.
        let mut flagged_after = 0;
        at_its_limit(
            |t| if t < 5.0 { -10.0 } else { -10.8 },
            |f, now, value| {
                if value < -10.6 {
                    flagged_after += 1;
                    let f = f.expect("under its limit");
                    assert!(f.at_risk && f.crossing_us == now, "{f:?}");
                }
            },
        );
        assert!(flagged_after >= 18, "{flagged_after}");
        // Just under the limit (by less than the noise) bucket after bucket:
        // that is no daily dip, it has crossed.
        let mut judged = 0;
        at_its_limit(
            |_| -10.36,
            |f, now, value| {
                if value <= -10.3 {
                    judged += 1;
                    let f = f.expect("under its limit");
                    assert!(f.at_risk && f.crossing_us == now, "{f:?}");
                }
            },
        );
        assert!(judged >= 12, "{judged}");
    }

    #[test]
    fn a_reading_below_its_limit_without_a_slope_crosses_now() {
        // A day and a half of history: too few whole-day pairs for a slope.
        let ends = feed(1.5, |_| [flat(-3.0, -1.0), flat(-11.0, -1.0)]);
        let trend = TrendSettings::default();
        let newest = ends[1].newest_closed(LINK, &trend);
        assert!(ends[1].rx[0].fit(newest, &trend).is_none());
        let now = (1.5 * DAY_US as f64) as i64;
        let f = run(&ends, LIMITS, now).unwrap();
        assert!(f.at_risk && f.confidence == 1.0, "{f:?}");
        assert_eq!(f.crossing_us, now);
        assert_eq!((f.side, f.quantity, f.lane), (true, Quantity::Rx, 0));
        assert!((f.level_dbm + 11.0).abs() < 0.01, "{f:?}");
        assert_eq!(f.slope_db_per_day, 0.0);
        // Above its limit, the same short history reports nothing.
        let ends = feed(1.5, |_| [flat(-3.0, -1.0), flat(-9.0, -1.0)]);
        assert!(run(&ends, LIMITS, now).is_none());
    }

    #[test]
    fn a_dark_lane_is_a_loose_transceiver_now() {
        let ends = feed(1.0, |t| {
            let lane = if t > 0.99 { f64::NAN } else { -3.0 };
            let a = Reading {
                rx: vec![-3.0, lane, -3.1, -3.0],
                ..flat(-3.0, -1.0)
            };
            [a, flat(-3.0, -1.0)]
        });
        assert!(ends[0].rx[1].is_dark());
        let now = DAY_US;
        let f = run(&ends, LIMITS, now).unwrap();
        assert!(f.at_risk);
        assert_eq!((f.crossing_us, f.confidence), (now, 1.0));
        assert_eq!((f.side, f.quantity, f.lane), (false, Quantity::Rx, 1));
        assert_eq!(f.level_dbm, NO_LIGHT_DBM);
        assert_eq!(
            (f.cause, f.cause_side),
            (Cause::LooseTransceiver, Some(false))
        );
        // Without an Rx limit nothing of A's Rx is reported.
        assert!(run(&ends, [None, Some(-6.0), None, Some(-6.0)], now).is_none());
    }
}
