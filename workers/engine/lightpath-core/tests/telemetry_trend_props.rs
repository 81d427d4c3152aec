//! Property tests of the optical trends (issue #19): the O(1) bucket
//! accumulator equals a direct scan of each bucket's readings (sorted, the
//! lowest and highest dropped, averaged); and a checkpoint taken at any point
//! restores a state whose later trends and forecasts equal those of the state
//! that was never interrupted.

use lightpath_core::telemetry::trend::{DAY_US, MISSING, SCALE};
use lightpath_core::telemetry::{
    FabricState, ForecastSettings, Limits, Poll, SampleLanes, Settings, TrendSettings, Trends,
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
        let mut live = FabricState {
            trends: Some(Trends::new(TrendSettings::default())),
            ..FabricState::default()
        };
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
