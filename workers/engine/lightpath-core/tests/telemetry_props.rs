//! Property tests of the telemetry derivation: the incremental windows equal
//! a direct scan of the poll sequence, and applying polls in any split into
//! batches (coalesced runs) gives the same state as applying them at once.

use lightpath_core::telemetry::{
    COUNTERS, Counters, FabricState, Optical, Sample, Settings, Window,
};
use proptest::prelude::*;

const MIN: i64 = 60_000_000;

fn settings() -> Settings {
    Settings {
        window_us: 15 * MIN,
        max_gap_us: 45 * MIN,
        min_packets: 1000,
        action: 1e-6,
        report: 1e-8,
    }
}

/// (minutes since the previous poll, frames, errors, reset?) per poll.
fn polls() -> impl Strategy<Value = Vec<(i64, u64, u64, bool)>> {
    prop::collection::vec(
        (
            prop::sample::select(vec![5i64, 10, 15, 15, 15, 20, 30, 50, 240]),
            prop::sample::select(vec![500u64, 100_000, 1_000_000]),
            0u64..200,
            prop::bool::weighted(0.08),
        ),
        1..60,
    )
}

fn sequence(polls: &[(i64, u64, u64, bool)]) -> Vec<(i64, Counters)> {
    let (mut time, mut pkts, mut fcs) = (0i64, 1u64 << 40, 0u64);
    polls
        .iter()
        .map(|&(minutes, frames, errors, reset)| {
            time += minutes * MIN;
            if reset {
                (pkts, fcs) = (0, 0);
            }
            pkts += frames;
            fcs += errors;
            (
                time,
                [Some(pkts), Some(fcs), None, Some(pkts), Some(fcs / 3)],
            )
        })
        .collect()
}

/// The rule read directly: a window runs from its first poll to the first poll
/// at least a window later; a poll that goes back or comes after a long gap
/// starts the next window instead.
fn scanned(polls: &[(i64, Counters)], s: &Settings) -> Vec<(i64, Option<f64>)> {
    let mut out = vec![];
    let mut start = 0usize;
    for i in 1..polls.len() {
        let (t, c) = polls[i];
        let (tp, cp) = polls[i - 1];
        let back = (0..COUNTERS).any(|k| c[k].unwrap_or(0) < cp[k].unwrap_or(0));
        if t - tp > s.max_gap_us || back {
            start = i;
            continue;
        }
        let (t0, c0) = polls[start];
        if t - t0 < s.window_us {
            continue;
        }
        let d = |k: usize| i128::from(c[k].unwrap()) - i128::from(c0[k].unwrap());
        let frames = d(0) + d(1);
        let corruption = (frames >= 1000).then(|| d(1) as f64 / frames as f64);
        let congestion = (d(3) >= 1000).then(|| d(4) as f64 / d(3) as f64);
        if corruption.is_some() || congestion.is_some() {
            out.push((t, corruption));
        }
        start = i;
    }
    out
}

proptest! {
    #[test]
    fn windows_equal_a_direct_scan(raw in polls()) {
        let s = settings();
        let polls = sequence(&raw);
        let mut window = Window::default();
        let got: Vec<(i64, Option<f64>)> = polls
            .iter()
            .filter_map(|&(t, c)| window.advance(t, c, &s).map(|r| (t, r.rx_corruption)))
            .collect();
        prop_assert_eq!(got, scanned(&polls, &s));
    }

    #[test]
    fn any_split_into_batches_gives_the_same_state(raw in polls(), cuts in prop::collection::vec(0usize..60, 0..6)) {
        let s = settings();
        let samples: Vec<Sample> = sequence(&raw)
            .into_iter()
            .map(|(time, counters)| Sample {
                batch: 0,
                end: (1, true),
                time,
                counters,
                optical: Optical::default(),
            })
            .collect();
        let mut whole = FabricState::default();
        let all = whole.apply(&samples, &s);
        let mut split = FabricState::default();
        let (mut windows, mut ended) = (0, vec![]);
        let mut bounds: Vec<usize> = cuts.into_iter().map(|c| c.min(samples.len())).collect();
        bounds.push(0);
        bounds.push(samples.len());
        bounds.sort_unstable();
        for pair in bounds.windows(2) {
            let changes = split.apply(&samples[pair[0]..pair[1]], &s);
            windows += changes.windows;
            ended.extend(changes.ended);
        }
        prop_assert_eq!(windows, all.windows);
        prop_assert_eq!(ended, all.ended);
        prop_assert_eq!(&split.ends, &whole.ends);
        prop_assert_eq!(&split.directions, &whole.directions);
    }
}
