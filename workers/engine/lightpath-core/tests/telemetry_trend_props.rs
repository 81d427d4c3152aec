//! Property tests of the optical trends (issue #19): the O(1) bucket
//! accumulator equals a direct scan of each bucket's readings (sorted, the
//! lowest and highest dropped, averaged); and a checkpoint taken at any point
//! restores a state whose later trends and forecasts equal those of the state
//! that was never interrupted.

use lightpath_core::telemetry::trend::{DAY_US, MISSING, SCALE};
use std::collections::BTreeMap;

use lightpath_core::telemetry::{
    CheckpointError, FabricState, ForecastSettings, Limits, Poll, SampleLanes, Settings,
    TrendSettings, Trends,
};
use proptest::prelude::*;

const MIN: i64 = 60_000_000;

/// One poll of one end: (minutes since the previous poll, end index, Rx
/// lanes (None: dark), Tx, bias, temperature).
type RawPoll = (
    i64,
    usize,
    Vec<Option<f64>>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
);

/// A few days of polls of 4 ends (2 links) with trends, steps, bad polls and
/// dark lanes: the minute gaps are mostly 5 to 60 minutes with some long gaps.
fn polls() -> impl Strategy<Value = Vec<RawPoll>> {
    let lane = prop_oneof![
        8 => (-80i32..-10).prop_map(|v| Some(f64::from(v) / 10.0)),
        1 => Just(None),
        1 => Just(Some(5.0)),
    ];
    prop::collection::vec(
        (
            prop::sample::select(vec![5i64, 5, 15, 30, 60, 60, 180, 600, 2000]),
            0usize..4,
            prop::collection::vec(lane, 1..4),
            prop::option::of((-60i32..10).prop_map(|v| f64::from(v) / 10.0)),
            prop::option::of((50i32..800).prop_map(|v| f64::from(v) / 10.0)),
            prop::option::of((200i32..700).prop_map(|v| f64::from(v) / 10.0)),
        ),
        1..400,
    )
}

const ENDS: [(i64, bool); 4] = [(5, false), (5, true), (123_456, false), (123_456, true)];

/// A timed row: time, end, Rx lanes, Tx, bias, temperature (NaN: none).
type Row = (i64, (i64, bool), Vec<f64>, f64, f64, f64);

/// The polls as timed rows.
fn rows(raw: &[RawPoll]) -> Vec<Row> {
    let mut time = 1_700_000_000_000_000i64;
    raw.iter()
        .map(|(minutes, end, rx, tx, bias, temperature)| {
            time += minutes * MIN;
            let nan = |v: &Option<f64>| v.unwrap_or(f64::NAN);
            (
                time,
                ENDS[*end],
                rx.iter().map(nan).collect(),
                nan(tx),
                nan(bias),
                nan(temperature),
            )
        })
        .collect()
}

fn feed(trends: &mut Trends, rows: &[Row]) {
    for (time, end, rx, tx, bias, temperature) in rows {
        let (tx, bias) = ([*tx], [*bias]);
        let poll = Poll {
            rx,
            tx: if tx[0].is_nan() { &[] } else { &tx },
            bias: &bias,
            temperature: *temperature,
        };
        trends.feed(*end, *time, &poll);
    }
}

/// An empty state that keeps trends (default settings).
fn with_trends() -> FabricState {
    FabricState {
        trends: Some(Trends::new(TrendSettings::default())),
        ..FabricState::default()
    }
}

fn forecasts(state: &FabricState, now: i64) -> Vec<String> {
    let trends = state.trends.as_ref().unwrap();
    let limits: Limits = [Some(-5.0), Some(-3.0), Some(-6.5), None];
    [5, 123_456]
        .into_iter()
        .map(|link| {
            let settings = ForecastSettings {
                now_us: now,
                horizon_us: 7 * DAY_US,
                min_confidence: 0.8,
            };
            format!("{:?}", trends.forecast(link, &limits, &settings))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn buckets_hold_the_trimmed_mean_of_their_readings(raw in polls()) {
        let rows = rows(&raw);
        let settings = TrendSettings::default();
        let mut trends = Trends::new(settings);
        feed(&mut trends, &rows);
        for (end, trend) in &trends.ends {
            let newest = trend.newest_closed(end.0, &settings);
            for (lane, series) in trend.rx.iter().enumerate() {
                let first = newest - settings.buckets as i64 + 1;
                for (k, slot) in series.window(newest).enumerate() {
                    let bucket = first + k as i64;
                    // Readings of this end and lane whose time falls in the bucket.
                    let mut values: Vec<i64> = rows
                        .iter()
                        .filter(|r| r.1 == *end && settings.bucket_of(end.0, r.0) == bucket)
                        .filter_map(|r| r.2.get(lane).copied().filter(|v| v.is_finite()))
                        .map(|v| (v * SCALE).round() as i64)
                        .collect();
                    values.sort_unstable();
                    if values.len() < 3 {
                        prop_assert_eq!(slot.value, MISSING);
                        continue;
                    }
                    let kept = &values[1..values.len() - 1];
                    let mean = kept.iter().sum::<i64>() as f64 / kept.len() as f64;
                    prop_assert_eq!(i64::from(slot.value), mean.round() as i64);
                }
            }
        }
    }

    #[test]
    fn a_checkpoint_at_any_point_gives_the_same_later_forecasts(
        raw in polls(),
        cut in 0.0f64..1.0,
    ) {
        let rows = rows(&raw);
        let cut = (rows.len() as f64 * cut) as usize;
        let mut live = with_trends();
        feed(live.trends.as_mut().unwrap(), &rows[..cut]);
        let mut restored = FabricState::restore(&live.checkpoint()).unwrap();
        prop_assert_eq!(&restored, &live);
        for state in [&mut live, &mut restored] {
            feed(state.trends.as_mut().unwrap(), &rows[cut..]);
        }
        prop_assert_eq!(&restored, &live);
        let end = rows.last().unwrap().0;
        for now in [end, end + DAY_US] {
            prop_assert_eq!(forecasts(&restored, now), forecasts(&live, now));
        }
        prop_assert_eq!(restored.checkpoint(), live.checkpoint());
    }
}

/// What a database holds of a split checkpoint: the bytes of the last
/// committed run and each segment as last written.
#[derive(Clone, Default)]
struct Stored {
    bytes: Vec<u8>,
    segments: BTreeMap<u32, Vec<u8>>,
}

impl Stored {
    /// Commits one run's split checkpoint.
    fn commit(&mut self, (bytes, segments): (Vec<u8>, Vec<(u32, Vec<u8>)>)) {
        self.bytes = bytes;
        self.segments.extend(segments);
    }

    fn restore(&self) -> Result<FabricState, CheckpointError> {
        let segments: Vec<(u32, &[u8])> = self
            .segments
            .iter()
            .map(|(s, d)| (*s, d.as_slice()))
            .collect();
        FabricState::restore_split(&self.bytes, &segments)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Runs checkpoint at random points (each rewriting only the segments
    /// where a bucket closed); a restore from what is stored after any run
    /// is that run's state, and its later forecasts are the uninterrupted
    /// ones. A run that dies before its commit leaves the previous run's
    /// rows, which restore the previous run's state; a run whose segments
    /// landed without its bytes (not one transaction) is refused, never
    /// restored as a mix.
    #[test]
    fn split_checkpoints_restore_the_state_of_their_run(
        raw in polls(),
        cuts in prop::collection::vec(0.0f64..1.0, 1..6),
        dropped_at in prop::option::of(0usize..6),
    ) {
        let rows = rows(&raw);
        let mut cuts: Vec<usize> = cuts.iter().map(|c| (rows.len() as f64 * c) as usize).collect();
        cuts.push(rows.len());
        cuts.sort_unstable();
        let mut live = with_trends();
        let mut stored = Stored::default();
        let mut done = 0;
        for (run, &cut) in cuts.iter().enumerate() {
            feed(live.trends.as_mut().unwrap(), &rows[done..cut]);
            done = cut;
            if dropped_at == Some(run) {
                // Link 5 deleted: its ends leave the stored segments too.
                live.retain_links(&[123_456].into_iter().collect());
            }
            let before = stored.clone();
            let previous = before.restore().ok();
            let stamp = 1_000 + run as i64;
            let split = live.checkpoint_split(stamp);
            // Killed between the segments and the bytes: only the segments.
            let mut torn = before.clone();
            torn.segments.extend(split.1.iter().cloned());
            if !split.1.is_empty() && run > 0 {
                match torn.restore() {
                    Err(_) => {}
                    // Only segments the old bytes do not list were written.
                    Ok(state) => prop_assert_eq!(Some(state), previous.clone()),
                }
            }
            stored.commit(split);
            let restored = stored.restore().unwrap();
            prop_assert_eq!(&restored, &live);
        }
        let mut restored = stored.restore().unwrap();
        prop_assert_eq!(&restored, &live);
        // Both go on from here: the same forecasts, the same next checkpoint.
        let extra = rows.clone();
        let shift = extra.last().map_or(0, |r| r.0 - extra[0].0 + 5 * MIN);
        let later: Vec<Row> = extra
            .into_iter()
            .map(|(t, end, rx, tx, bias, temperature)| (t + shift, end, rx, tx, bias, temperature))
            .collect();
        for state in [&mut live, &mut restored] {
            feed(state.trends.as_mut().unwrap(), &later);
        }
        prop_assert_eq!(&restored, &live);
        let end = later.last().unwrap().0;
        for now in [end, end + DAY_US] {
            prop_assert_eq!(forecasts(&restored, now), forecasts(&live, now));
        }
        prop_assert_eq!(restored.checkpoint_split(9_999), live.checkpoint_split(9_999));
    }

    /// A whole (version 3) checkpoint restores, and the first split
    /// checkpoint after it writes every segment of its trends.
    #[test]
    fn a_whole_checkpoint_restores_and_then_splits(raw in polls(), cut in 0.0f64..1.0) {
        let rows = rows(&raw);
        let cut = (rows.len() as f64 * cut) as usize;
        let mut live = with_trends();
        feed(live.trends.as_mut().unwrap(), &rows[..cut]);
        let mut restored = FabricState::restore(&live.checkpoint()).unwrap();
        let trends = restored.trends.as_ref().unwrap();
        let every: std::collections::HashSet<u32> =
            trends.ends.keys().map(|k| trends.segment_of(k.0)).collect();
        let mut stored = Stored::default();
        stored.commit(restored.checkpoint_split(1));
        prop_assert_eq!(stored.segments.keys().copied().collect::<std::collections::HashSet<_>>(), every);
        prop_assert_eq!(&stored.restore().unwrap(), &live);
    }
}

/// COPY samples feed the trends as `apply_readings` rows do: the lanes
/// when a sample has them, else its average as lane 0.
#[test]
fn copy_samples_and_reading_rows_give_the_same_trends() {
    use lightpath_core::telemetry::read_samples_with_lanes;
    let mut lines = String::new();
    for k in 0..600i64 {
        let rx = -3.0 - k as f64 / 500.0;
        let lanes = if k % 3 == 0 {
            "\\N".to_string()
        } else {
            format!("{{{rx},NULL,-2.5}}")
        };
        lines.push_str(&format!(
            "{k}\t7\tf\t{}\t\\N\t\\N\t\\N\t\\N\t\\N\t{rx}\t{rx}\t-1\t-1\t30\t40\t3.3\tf\tf\t\\N\t{lanes}\t\\N\t\\N\n",
            k * 5 * MIN
        ));
    }
    let (samples, lanes) = read_samples_with_lanes(lines.as_bytes()).unwrap();
    let settings = Settings {
        window_us: 15 * MIN,
        max_gap_us: 45 * MIN,
        min_packets: 1000,
        action: 1e-6,
        report: 1e-8,
        oper: Default::default(),
    };
    let mut from_copy = FabricState {
        trends: Some(Trends::new(TrendSettings::default())),
        ..FabricState::default()
    };
    let changes = from_copy.apply_with_lanes(&samples, &lanes, &settings);
    assert_eq!(changes.trend_links, vec![7]);
    let mut direct = Trends::new(TrendSettings::default());
    for (i, sample) in samples.iter().enumerate() {
        let rx = sample.optical.rx.unwrap();
        let lane_values = SampleLanes::lanes(&lanes, i, 0).to_vec();
        let rx = if lane_values.is_empty() {
            vec![rx]
        } else {
            lane_values
        };
        let poll = Poll {
            rx: &rx,
            tx: &[-1.0],
            bias: &[30.0],
            temperature: 40.0,
        };
        direct.feed(sample.end, sample.time, &poll);
    }
    assert_eq!(from_copy.trends.unwrap(), direct);
}
