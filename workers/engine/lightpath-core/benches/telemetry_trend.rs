//! The optical trends' costs (issue #19): one poll of one link end inside
//! its open bucket (the per-sample cost a derivation run pays), the poll that
//! closes a bucket of every series of an end, and the forecast of one link
//! (its fits are computed then), for an end with 1 lane and with 4 lanes
//! (Rx, Tx and bias per lane, and the temperature).
//!
//! Run: `cargo bench -p lightpath-core --bench telemetry_trend`

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use lightpath_core::telemetry::trend::DAY_US;
use lightpath_core::telemetry::{EndTrend, ForecastSettings, Poll, TrendSettings, Trends};

const LINK: i64 = 4242;
const POLL_US: i64 = 300_000_000;

/// Readings of poll `k` (5 minutes apart): a slow Tx decay and a small wobble.
fn readings(k: i64) -> ([f64; 4], [f64; 4], [f64; 4], f64) {
    let wobble = ((k * 7919) % 13) as f64 / 100.0;
    let days = (k * POLL_US) as f64 / DAY_US as f64;
    let rx = [-3.0 + wobble, -3.1, -3.2 + wobble, -2.9];
    let tx = [-1.0 - 0.3 * days + wobble, -1.1, -1.0, -1.2];
    let bias = [30.0 + days, 31.0, 29.0 + wobble, 30.5];
    (rx, tx, bias, 40.0 + wobble)
}

/// An end (and its link's other end) fed 4.5 days of 5-minute polls.
fn warmed(lanes: usize) -> (Trends, i64) {
    let mut trends = Trends::new(TrendSettings::default());
    let polls = 4 * 288 + 144;
    for k in 0..polls {
        let (rx, tx, bias, temperature) = readings(k);
        let poll = Poll {
            rx: &rx[..lanes],
            tx: &tx[..lanes],
            bias: &bias[..lanes],
            temperature,
        };
        for side in [false, true] {
            trends.feed((LINK, side), k * POLL_US, &poll);
        }
    }
    (trends, polls * POLL_US)
}

fn bench(c: &mut Criterion) {
    let settings = TrendSettings::default();
    for lanes in [1usize, 4] {
        let (trends, next) = warmed(lanes);
        let end: EndTrend = trends.ends[&(LINK, false)].clone();
        let (rx, tx, bias, temperature) = readings(7);
        let poll = Poll {
            rx: &rx[..lanes],
            tx: &tx[..lanes],
            bias: &bias[..lanes],
            temperature,
        };
        // Inside the open bucket: 1 µs apart, so no bucket closes while measuring.
        let open_start = settings.bucket_end(LINK, end.newest_closed(LINK, &settings));
        c.bench_function(&format!("trend poll, {lanes} lane(s)"), |b| {
            let mut end = end.clone();
            end.time = open_start;
            let mut time = open_start;
            b.iter(|| {
                time += 1;
                black_box(end.feed(LINK, time, black_box(&poll), &settings))
            })
        });
        let closing = settings.bucket_end(LINK, settings.bucket_of(LINK, next));
        c.bench_function(&format!("trend bucket close, {lanes} lane(s)"), |b| {
            b.iter_batched_ref(
                || end.clone(),
                |end| black_box(end.feed(LINK, closing, &poll, &settings)),
                BatchSize::SmallInput,
            )
        });
        let forecast = ForecastSettings {
            now_us: next,
            horizon_us: 7 * DAY_US,
            min_confidence: 0.8,
        };
        let limits = [Some(-10.0), Some(-6.0), Some(-10.0), Some(-6.0)];
        c.bench_function(&format!("link forecast, {lanes} lane(s)"), |b| {
            b.iter(|| black_box(trends.forecast(LINK, &limits, &forecast)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
