//! Property tests of the telemetry derivation: the incremental windows equal
//! a direct scan of the poll sequence, and applying polls in any split into
//! batches (coalesced runs) gives the same state as applying them at once;
//! a checkpoint restores the state exactly, whatever the split it is taken at.

use lightpath_core::telemetry::{
    COUNTERS, Counters, FabricState, OperSettings, Optical, Sample, Settings, Window,
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
        oper: OperSettings::default(),
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
                oper: None,
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

    #[test]
    fn a_checkpoint_restores_the_state_at_any_point(
        raw in polls(),
        cut in 0usize..60,
        readings in prop::collection::vec((-50.0f64..10.0, 0u32..4, prop::bool::ANY), 60),
    ) {
        let s = settings();
        // Three ends of two links; readings with 0 to 3 decimals (as devices report) or any float.
        let samples: Vec<Sample> = sequence(&raw)
            .into_iter()
            .enumerate()
            .flat_map(|(i, (time, counters))| {
                let (value, digits, dark) = readings[i];
                let scale = 10f64.powi(digits as i32);
                let rx = if digits == 3 { value } else { (value * scale).round() / scale };
                let optical = Optical {
                    rx: (!dark).then_some(rx),
                    rx_min: (!dark).then_some(rx - 0.5),
                    tx: Some(-rx / 7.0),
                    temperature: (i % 3 == 0).then_some(41.5),
                    rx_no_light: dark,
                    ..Optical::default()
                };
                // Oper-status on some polls (1 up, 2 down, 7 lower layer down), so the link states move too.
                let oper = [None, Some(1u8), Some(2), Some(1), Some(7)][i % 5];
                [(1, false), (1, true), (2, true)].map(|end| Sample { batch: i as i64, end, time, counters, optical, oper })
            })
            .collect();
        let mut sorted = samples;
        sorted.sort_by_key(|x| (x.batch, x.end, x.time));
        let cut = cut.min(sorted.len());
        let mut live = FabricState::default();
        live.apply(&sorted[..cut], &s);
        let mut restored = FabricState::restore(&live.checkpoint()).unwrap();
        prop_assert_eq!(&restored, &live);
        let expected = live.apply(&sorted[cut..], &s);
        prop_assert_eq!(restored.apply(&sorted[cut..], &s), expected);
        prop_assert_eq!(restored, live);
    }

    #[test]
    fn changed_ends_are_new_ends_and_ends_whose_visible_part_moved(raw in polls(), cut in 0usize..60) {
        let s = settings();
        let samples: Vec<Sample> = sequence(&raw)
            .into_iter()
            .map(|(time, counters)| Sample { batch: 0, end: (1, true), time, counters, optical: Optical::default(), oper: None })
            .collect();
        let cut = cut.min(samples.len());
        let mut state = FabricState::default();
        let first = state.apply(&samples[..cut], &s);
        prop_assert_eq!(first.ends.len(), usize::from(cut > 0));
        let before = state.ends.get(&(1, true)).map(|e| e.window.last_time);
        let later = state.apply(&samples[cut..], &s);
        let after = state.ends.get(&(1, true)).map(|e| e.window.last_time);
        let touched = cut < samples.len();
        prop_assert_eq!(later.ends.len(), usize::from(touched && (before.is_none() || before != after)));
        // Re-applying polls already seen moves nothing a reader sees.
        prop_assert!(state.apply(&samples, &s).ends.is_empty());
    }
}
