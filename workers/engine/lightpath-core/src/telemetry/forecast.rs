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
//!   down), so noise on a healthy far end does not hide the pattern.
//! - A crossing more than a million days away counts as never.
//! - "Already at or below the limit" is judged on the newest reading (the
//!   newest present bucket of the window) as well as the fitted level: a
//!   step down leaves the fit behind, and a short history has no fit. Such a
//!   lane's level is the lower of the two, its slope the fit's (0 without).

use super::trend::{
    ERRATIC_DB, EndTrend, Fit, MISSING, Quantity, SCALE, STEP_MIN_DB, Series, Slot, TrendSettings,
};

/// The no-light level (dBm) given as a dark lane's level.
pub const NO_LIGHT_DBM: f64 = -40.0;
/// Links crossing later than this many horizons (or never), with no flag,
/// are not reported.
pub const REPORT_HORIZONS: i64 = 4;

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
}

/// `from` plus `days` days, in µs; None past a million days (never).
fn after_days(from: i64, days: f64) -> Option<i64> {
    (days.is_finite() && days.abs() < 1e6)
        .then(|| from.saturating_add((days * super::trend::DAY_US as f64).round() as i64))
}

/// The forecast of one lane (None: nothing to report).
#[allow(clippy::too_many_arguments)]
fn lane_candidate(
    series: &Series,
    fit: Option<&Fit>,
    newest_end: i64,
    newest: i64,
    limit: f64,
    settings: &ForecastSettings,
    (side, quantity, lane): (bool, Quantity, usize),
) -> Option<Candidate> {
    let now = settings.now_us;
    let due = now.saturating_add(settings.horizon_us);
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
            at_risk: confidence >= settings.min_confidence,
            confidence,
            ..base
        });
    }
    // The newest reading (the newest present bucket) at or below the limit
    // crosses now, whatever the fit says: after a step down the fitted level
    // (a median over the window) lags the readings and the slope may not
    // fall, and a short history has no fit at all.
    let reading = series
        .window(newest)
        .filter(Slot::is_present)
        .last()
        .map(|slot| f64::from(slot.value) / SCALE);
    if let Some(reading) = reading.filter(|r| *r <= limit) {
        return Some(Candidate {
            level: fit.map_or(reading, |f| f.level.min(reading)),
            ..base
        });
    }
    let fit = fit?;
    if fit.level <= limit {
        return Some(base);
    }
    if fit.slope >= 0.0 {
        return None;
    }
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
    let confidence = within as f64 / fit.slopes.len() as f64;
    let reported = crossing <= now.saturating_add(REPORT_HORIZONS * settings.horizon_us);
    reported.then_some(Candidate {
        at_risk: crossing <= due && confidence >= settings.min_confidence,
        crossing,
        earliest,
        latest,
        confidence,
        level: fit.level,
        slope: fit.slope,
        ..base
    })
}

/// What the cause rules read of one end.
#[derive(Default)]
struct EndPattern {
    /// A dark or erratic Rx or Tx lane.
    loose: bool,
    /// An Rx lane stepped down by at least 1 dB within the window.
    rx_step_down: bool,
    /// An Rx lane's median slope is negative.
    rx_falling: bool,
    /// An Rx lane's 90th percentile slope is negative.
    rx_clearly_falling: bool,
    /// A Tx lane's 90th percentile slope is negative.
    tx_falling: bool,
    /// A Tx lane falling with its bias (the same lane, or the one bias) rising.
    decaying: bool,
}

/// An end's Rx and Tx lanes' fits.
type EndFits = (Vec<Option<Fit>>, Vec<Option<Fit>>);

/// The fits of a quantity's lanes.
fn fits(series: &[Series], newest: i64, settings: &TrendSettings) -> Vec<Option<Fit>> {
    series.iter().map(|s| s.fit(newest, settings)).collect()
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
    p.rx_falling = rx.iter().flatten().any(|f| f.slope < 0.0);
    p.rx_clearly_falling = rx.iter().flatten().any(|f| f.high < 0.0);
    p.tx_falling = tx.iter().flatten().any(|f| f.high < 0.0);
    p.decaying = tx.iter().enumerate().any(|(lane, f)| {
        let bias = bias.get(lane).or(bias.first()).and_then(Option::as_ref);
        f.as_ref().is_some_and(|f| f.high < 0.0) && bias.is_some_and(|b| b.slope > 0.0)
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
        if (near.rx_falling || near.rx_step_down)
            && !(far.rx_clearly_falling || far.rx_step_down)
            && !far.tx_falling
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
    let mut worst: Option<Candidate> = None;
    // Each end's Rx and Tx fits, computed once for the lanes and the cause.
    let mut end_fits: [EndFits; 2] = Default::default();
    for (side, end) in [false, true].into_iter().zip(ends) {
        let Some(end) = end else { continue };
        let newest = end.newest_closed(link, trend);
        let newest_end = trend.bucket_end(link, newest);
        let both = &mut end_fits[usize::from(side)];
        *both = (fits(&end.rx, newest, trend), fits(&end.tx, newest, trend));
        for (quantity, k) in [(Quantity::Rx, 0), (Quantity::Tx, 1)] {
            let Some(limit) = limits[2 * usize::from(side) + k] else {
                continue;
            };
            let lane_fits = if k == 0 { &both.0 } else { &both.1 };
            for (lane, series) in end.series(quantity).iter().enumerate() {
                let Some(c) = lane_candidate(
                    series,
                    lane_fits[lane].as_ref(),
                    newest_end,
                    newest,
                    limit,
                    settings,
                    (side, quantity, lane),
                ) else {
                    continue;
                };
                let key = |c: &Candidate| (!c.at_risk, c.crossing, -c.confidence);
                let better = worst.as_ref().is_none_or(|w| {
                    let (a, b) = (key(&c), key(w));
                    (a.0, a.1) < (b.0, b.1) || ((a.0, a.1) == (b.0, b.1) && a.2 < b.2)
                });
                if better {
                    worst = Some(c);
                }
            }
        }
    }
    let worst = worst?;
    let patterns = [
        pattern(ends[0], &end_fits[0], link, trend),
        pattern(ends[1], &end_fits[1], link, trend),
    ];
    let (cause, cause_side) = cause(&patterns, &worst);
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
    fn feed(days: f64, mut at: impl FnMut(f64) -> [Reading; 2]) -> [EndTrend; 2] {
        let trend = TrendSettings::default();
        let mut ends = [EndTrend::new(), EndTrend::new()];
        let polls = (days * 288.0) as i64;
        for k in 0..polls {
            let time = k * 300_000_000;
            let readings = at(time as f64 / DAY_US as f64);
            for (end, r) in ends.iter_mut().zip(&readings) {
                let poll = Poll {
                    rx: &r.rx,
                    tx: &r.tx,
                    bias: &r.bias,
                    temperature: r.temperature,
                };
                end.feed(LINK, time, &poll, &trend);
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
        let ends = feed(6.0, |t| {
            let swing = (t * std::f64::consts::TAU + 1.0).sin();
            let mut r = || Reading {
                rx: vec![-7.0 + 0.3 * swing + 0.2 * noise.next()],
                tx: vec![-1.0 + 0.3 * swing + 0.2 * noise.next()],
                bias: vec![30.0 + noise.next()],
                temperature: 40.0 + 1.5 * swing,
            };
            [r(), r()]
        });
        for day in [4.5, 5.0, 5.75, 6.0] {
            let now = (day * DAY_US as f64) as i64;
            // 3 dB of margin at A, 0.8 dB... a false crossing would be reported.
            let f = run(
                &ends,
                [Some(-10.0), Some(-6.0), Some(-7.8), Some(-6.0)],
                now,
            );
            assert!(f.as_ref().is_none_or(|f| !f.at_risk), "{f:?}");
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
