//! Telemetry derivation: cumulative interface counters of link ends turned into
//! per-window corruption and congestion loss rates, direction health and
//! corruption episodes, with the newest optical readings of each end; and each
//! link's operational state from its ends' reported oper-status (and dark
//! receivers), with the links that flap.
//!
//! The rules are those of Lightpath's `docs/telemetry.md` ("What is derived");
//! the backend's `tests/reference.py` states them in plain Python and the
//! backend tests hold this module to it. Times are microseconds since the
//! epoch; counters are SNMP Counter64 values (`None` where a poll did not
//! carry the counter).

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};

mod checkpoint;
pub use checkpoint::{CheckpointError, TREND_SEGMENTS};
mod copy;
pub use copy::{
    CopyError, read_samples, read_samples_with_lanes, write_changed_directions, write_changed_ends,
};
pub mod forecast;
pub mod trend;
pub use forecast::{Cause, Forecast, ForecastSettings, Limits, forecast_link};
pub use trend::{EndTrend, Poll, Quantity, Series, TrendSettings};

/// Counters of a poll, in this order: in packets, in FCS errors, in discards,
/// out packets, out discards.
pub const COUNTERS: usize = 5;
const IN_PKTS: usize = 0;
const IN_FCS: usize = 1;
const OUT_PKTS: usize = 3;
const OUT_DISCARDS: usize = 4;

/// One poll's counters; `None` where the poll did not carry one.
pub type Counters = [Option<u64>; COUNTERS];

/// Fabric settings of the derivation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Window length (µs): a rate comes once the newest poll is this far
    /// after the window's first one.
    pub window_us: i64,
    /// A gap between two polls longer than this (µs) restarts the window.
    pub max_gap_us: i64,
    /// Fewer frames (corruption) or sent packets (congestion) give no rate.
    pub min_packets: u64,
    /// Corruption rate at or above which a direction is corrupting.
    pub action: f64,
    /// Corruption rate at or above which a direction is lossy.
    pub report: f64,
    /// Operational state and flapping.
    pub oper: OperSettings,
}

/// Fabric settings of the operational state derived from telemetry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OperSettings {
    /// An end whose receiver is dark on every lane for [`DARK_POLLS`]
    /// consecutive polls counts as down.
    pub dark_end_is_down: bool,
    /// A link that changes state more than this many times within
    /// `flap_window_us` is flapping.
    pub flap_changes: u32,
    /// The flapping window (µs): a flapping link is stable again once it has
    /// not changed for this long.
    pub flap_window_us: i64,
}

impl Settings {
    /// Settings from durations in seconds (rounded to microseconds), as the
    /// backend stores them. Refuses a window, gap or flapping window that is
    /// not positive (or NaN), naming it.
    #[allow(clippy::too_many_arguments)]
    pub fn from_seconds(
        window_s: f64,
        max_gap_s: f64,
        min_packets: u64,
        action: f64,
        report: f64,
        dark_end_is_down: bool,
        flap_changes: u32,
        flap_window_s: f64,
    ) -> Result<Self, String> {
        for (name, value) in [
            ("window_s", window_s),
            ("max_gap_s", max_gap_s),
            ("flap_window_s", flap_window_s),
        ] {
            if value.is_nan() || value <= 0.0 {
                return Err(format!("{name} must be positive, got {value}"));
            }
        }
        let us = |seconds: f64| (seconds * 1e6).round() as i64;
        Ok(Settings {
            window_us: us(window_s),
            max_gap_us: us(max_gap_s),
            min_packets,
            action,
            report,
            oper: OperSettings {
                dark_end_is_down,
                flap_changes,
                flap_window_us: us(flap_window_s),
            },
        })
    }
}

impl Default for OperSettings {
    fn default() -> Self {
        OperSettings {
            dark_end_is_down: true,
            flap_changes: 4,
            flap_window_us: 3_600_000_000,
        }
    }
}

/// Oper-status codes: IF-MIB's `ifOperStatus` numbers, which OpenConfig's
/// `oper-status` values map to one to one.
pub const OPER_UP: u8 = 1;
/// The largest oper-status code (`lowerLayerDown`).
pub const OPER_MAX: u8 = 7;
/// Consecutive dark polls after which a dark end counts as down.
pub const DARK_POLLS: u8 = 2;

/// Counter window of one link end: its newest counter poll (for wrap and
/// reset detection) and the open window's first poll.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Window {
    /// Time of the newest counter poll.
    pub last_time: Option<i64>,
    /// Counters of the newest poll.
    pub last: Counters,
    /// Time of the open window's first poll.
    pub start_time: Option<i64>,
    /// Counters of the open window's first poll.
    pub start: Counters,
}

/// Rates of one completed window at one end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowRates {
    /// Corruption loss rate received at this end.
    pub rx_corruption: Option<f64>,
    /// Congestion loss rate sent from this end.
    pub tx_congestion: Option<f64>,
}

impl Window {
    /// Feeds one counter poll. Returns the rates of the window this poll
    /// completes (None if it completes none or neither rate has enough
    /// packets). A poll at or before the newest one is ignored; a counter
    /// that went back (wrap, reset) or a gap over `max_gap_us` restarts the
    /// window at this poll.
    pub fn advance(
        &mut self,
        time: i64,
        counters: Counters,
        settings: &Settings,
    ) -> Option<WindowRates> {
        if self.last_time.is_some_and(|last| time <= last) {
            return None;
        }
        let previous_time = self.last_time.replace(time);
        let previous = std::mem::replace(&mut self.last, counters);
        let (Some(previous_time), Some(start_time)) = (previous_time, self.start_time) else {
            self.restart(time, counters);
            return None;
        };
        // Against the window's start too: a counter missing from the previous
        // poll may have reset behind it, which would make its delta negative.
        let went_back = |reference: &Counters| {
            counters
                .iter()
                .zip(reference.iter())
                .any(|(now, before)| matches!((now, before), (Some(n), Some(b)) if n < b))
        };
        if time - previous_time > settings.max_gap_us
            || went_back(&previous)
            || went_back(&self.start)
        {
            self.restart(time, counters);
            return None;
        }
        if time - start_time < settings.window_us {
            return None;
        }
        let delta = |k: usize| match (counters[k], self.start[k]) {
            (Some(now), Some(first)) => Some(i128::from(now) - i128::from(first)),
            _ => None,
        };
        let floor = i128::from(settings.min_packets.max(1));
        let rx_corruption = match (delta(IN_PKTS), delta(IN_FCS)) {
            (Some(pkts), Some(fcs)) if pkts + fcs >= floor => Some(ratio(fcs, pkts + fcs)),
            _ => None,
        };
        let tx_congestion = match (delta(OUT_PKTS), delta(OUT_DISCARDS)) {
            (Some(sent), Some(dropped)) if sent >= floor => Some(ratio(dropped, sent)),
            _ => None,
        };
        self.restart(time, counters);
        (rx_corruption.is_some() || tx_congestion.is_some()).then_some(WindowRates {
            rx_corruption,
            tx_congestion,
        })
    }

    fn restart(&mut self, time: i64, counters: Counters) {
        self.start_time = Some(time);
        self.start = counters;
    }
}

/// `numerator / denominator` as f64; exact below 2^53 as Python's int division.
fn ratio(numerator: i128, denominator: i128) -> f64 {
    numerator as f64 / denominator as f64
}

/// Health of a direction, worst last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Health {
    /// No corruption rate yet.
    #[default]
    Unknown,
    /// Below the report threshold.
    Clean,
    /// At or above the report threshold.
    Lossy,
    /// At or above the action threshold.
    Corrupting,
}

impl Health {
    /// Health of a corruption rate under the fabric's thresholds.
    pub fn of(rate: f64, settings: &Settings) -> Self {
        if rate >= settings.action {
            Health::Corrupting
        } else if rate >= settings.report {
            Health::Lossy
        } else {
            Health::Clean
        }
    }

    /// The name used in storage and APIs.
    pub fn name(self) -> &'static str {
        match self {
            Health::Unknown => "unknown",
            Health::Clean => "clean",
            Health::Lossy => "lossy",
            Health::Corrupting => "corrupting",
        }
    }

    /// Inverse of [`Health::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "unknown" => Health::Unknown,
            "clean" => Health::Clean,
            "lossy" => Health::Lossy,
            "corrupting" => Health::Corrupting,
            _ => return None,
        })
    }
}

/// One episode of a direction being corrupting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Episode {
    /// Rate of the window that opened it.
    pub rate: f64,
    /// End time of that window.
    pub first_seen: i64,
    /// Newest corrupting rate.
    pub last_rate: f64,
    /// Largest corrupting rate.
    pub peak_rate: f64,
    /// End time of the newest corrupting window.
    pub last_seen: i64,
    /// End time of the first window that was not corrupting.
    pub ended_at: Option<i64>,
}

/// Loss rates and health of one direction of a link.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DirectionState {
    /// Health from the newest corruption rate.
    pub health: Health,
    /// Since when the health holds.
    pub health_since: Option<i64>,
    /// Newest corruption rate and its window's end.
    pub corruption: Option<(f64, i64)>,
    /// Newest congestion rate and its window's end.
    pub congestion: Option<(f64, i64)>,
    /// The open episode, if the direction is corrupting.
    pub open: Option<Episode>,
}

impl DirectionState {
    /// Applies a corruption rate; returns the episode it ends, if any.
    fn corruption(&mut self, rate: f64, time: i64, settings: &Settings) -> Option<Episode> {
        let health = Health::of(rate, settings);
        let mut ended = None;
        match (&mut self.open, health) {
            (Some(open), Health::Corrupting) if open.first_seen < time => {
                open.last_rate = rate;
                open.last_seen = time;
                open.peak_rate = open.peak_rate.max(rate);
            }
            (Some(_), Health::Corrupting) => {}
            (None, Health::Corrupting) => {
                self.open = Some(Episode {
                    rate,
                    first_seen: time,
                    last_rate: rate,
                    peak_rate: rate,
                    last_seen: time,
                    ended_at: None,
                });
            }
            (Some(open), _) if open.first_seen < time => {
                let mut episode = *open;
                episode.ended_at = Some(time);
                self.open = None;
                ended = Some(episode);
            }
            _ => {}
        }
        if health != self.health {
            self.health_since = Some(time);
        }
        self.health = health;
        self.corruption = Some((rate, time));
        ended
    }
}

/// Newest optical readings of a link end (NaN-free: `None` where unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Optical {
    /// Time of the sample the readings come from.
    pub time: Option<i64>,
    /// Rx power (average), dBm.
    pub rx: Option<f64>,
    /// Rx power of the lowest lane (or the average), dBm.
    pub rx_min: Option<f64>,
    /// Tx power (average), dBm.
    pub tx: Option<f64>,
    /// Tx power of the lowest lane (or the average), dBm.
    pub tx_min: Option<f64>,
    /// Laser bias current, mA.
    pub bias: Option<f64>,
    /// Temperature, °C.
    pub temperature: Option<f64>,
    /// Supply voltage, V.
    pub voltage: Option<f64>,
    /// The receiver reported no light.
    pub rx_no_light: bool,
    /// The transmitter reported no light.
    pub tx_no_light: bool,
}

impl Optical {
    /// Whether a sample carries any optical reading.
    pub fn carries_readings(&self) -> bool {
        self.rx.is_some()
            || self.tx.is_some()
            || self.rx_no_light
            || self.tx_no_light
            || self.bias.is_some()
            || self.temperature.is_some()
            || self.voltage.is_some()
    }

    /// Takes the readings `sample` carries, unless this end holds newer ones.
    fn update(&mut self, sample: &Optical) {
        if self
            .time
            .is_some_and(|t| sample.time.is_some_and(|s| s < t))
        {
            return;
        }
        self.time = sample.time;
        if sample.rx.is_some() || sample.rx_no_light {
            (self.rx, self.rx_min, self.rx_no_light) =
                (sample.rx, sample.rx_min, sample.rx_no_light);
        }
        if sample.tx.is_some() || sample.tx_no_light {
            (self.tx, self.tx_min, self.tx_no_light) =
                (sample.tx, sample.tx_min, sample.tx_no_light);
        }
        self.bias = sample.bias.or(self.bias);
        self.temperature = sample.temperature.or(self.temperature);
        self.voltage = sample.voltage.or(self.voltage);
    }
}

/// What one link end says about its link's operational state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperEnd {
    /// Newest reported oper-status (an IF-MIB code, 1 = up).
    pub status: Option<u8>,
    /// Time of the sample that reported it.
    pub status_time: Option<i64>,
    /// Consecutive polls whose receiver was dark on every lane, up to
    /// [`DARK_POLLS`].
    pub dark_polls: u8,
    /// The receiver saw light again after it counted as dark.
    pub relit: bool,
}

impl OperEnd {
    /// Whether the end holds nothing (it never reported a status or a dark Rx).
    pub fn is_empty(&self) -> bool {
        *self == OperEnd::default()
    }

    /// The end's vote on its link: `Some(false)` down, `Some(true)` up, `None`
    /// when it says nothing. A dark end (when the fabric counts those) is
    /// down whatever it reports; else its newest oper-status decides; an end
    /// that never reported one but whose receiver saw light again after being
    /// counted dark is up.
    pub fn vote(&self, settings: &OperSettings) -> Option<bool> {
        if settings.dark_end_is_down && self.dark_polls >= DARK_POLLS {
            return Some(false);
        }
        match self.status {
            Some(code) => Some(code == OPER_UP),
            None => (settings.dark_end_is_down && self.relit).then_some(true),
        }
    }

    /// Takes one poll's receiver reading (`dark`: no light on any lane).
    fn rx_poll(&mut self, dark: bool) {
        if dark {
            self.dark_polls = (self.dark_polls + 1).min(DARK_POLLS);
        } else {
            if self.dark_polls >= DARK_POLLS {
                self.relit = true;
            }
            self.dark_polls = 0;
        }
    }
}

/// Derivation state of one link end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndState {
    /// Counter window.
    pub window: Window,
    /// Newest optical readings.
    pub optical: Optical,
    /// Oper-status and dark receiver.
    pub oper: OperEnd,
}

/// Operational state of a link as derived from its ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkOper {
    /// The state last decided (true = up); None before the first decision.
    pub up: Option<bool>,
    /// Times of the newest changes of state inside the flapping window,
    /// oldest first (at most `flap_changes + 1` kept).
    pub changes: Vec<i64>,
    /// The link changes state more often than the fabric allows.
    pub flapping: bool,
}

impl EndState {
    /// What readers see of the end: its newest counter time and readings.
    fn visible(&self) -> (Option<i64>, Optical) {
        (self.window.last_time, self.optical)
    }
}

/// A link end: link id and side (false = A, true = Z).
pub type EndKey = (i64, bool);
/// A link direction: link id and direction (false = a_to_z, true = z_to_a).
pub type DirectionKey = (i64, bool);

/// One stored sample, as derivation reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Ingest batch: samples are applied batch by batch, in batch order.
    pub batch: i64,
    /// Link end.
    pub end: EndKey,
    /// Sample time (µs).
    pub time: i64,
    /// Counters.
    pub counters: Counters,
    /// Optical readings (its `time` is ignored; the sample's is used).
    pub optical: Optical,
    /// Reported oper-status (IF-MIB code), if the sample carries one.
    pub oper: Option<u8>,
}

/// What one [`FabricState::apply`] changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Ends new to the state or whose reader-visible part (newest counter
    /// time, newest readings) changed, in first-touched order. An end whose
    /// only change is its window is left out: the checkpoint holds windows.
    pub ends: Vec<EndKey>,
    /// Directions whose rates or health changed, in first-touched order.
    pub directions: Vec<DirectionKey>,
    /// Directions whose health changed.
    pub health_changed: Vec<DirectionKey>,
    /// Episodes that ended, in time order per direction (they may have
    /// opened in this call or before).
    pub ended: Vec<(DirectionKey, Episode)>,
    /// Completed windows with at least one rate.
    pub windows: u64,
    /// Links whose decided operational state changed (or was decided for the
    /// first time), with the new state (true = up), in batch order; a link
    /// may appear more than once, the last entry is its state.
    pub oper: Vec<(i64, bool)>,
    /// Links whose flapping flag changed, with the new flag, in batch order.
    pub flapping: Vec<(i64, bool)>,
    /// Links a trend bucket of which closed, sorted, each once.
    pub trend_links: Vec<i64>,
}

impl Changes {
    /// Links whose operational state was decided anew, with the state (true
    /// = up): each link's last decision, sorted by link.
    pub fn oper_per_link(&self) -> Vec<(i64, bool)> {
        last_per_link(&self.oper)
    }

    /// Links whose flapping flag changed, with its last value, sorted by link.
    pub fn flapping_per_link(&self) -> Vec<(i64, bool)> {
        last_per_link(&self.flapping)
    }

    /// Links with a direction whose health changed, sorted, each once.
    pub fn health_changed_links(&self) -> Vec<i64> {
        let mut links: Vec<i64> = self.health_changed.iter().map(|k| k.0).collect();
        links.sort_unstable();
        links.dedup();
        links
    }
}

/// The last entry of each link, sorted by link.
fn last_per_link(entries: &[(i64, bool)]) -> Vec<(i64, bool)> {
    let mut last = HashMap::with_capacity(entries.len());
    for &(link, value) in entries {
        last.insert(link, value);
    }
    let mut out: Vec<_> = last.into_iter().collect();
    out.sort_unstable();
    out
}

/// Derivation state of a fabric's link ends and directions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FabricState {
    /// Per link end.
    pub ends: HashMap<EndKey, EndState>,
    /// Per link direction.
    pub directions: HashMap<DirectionKey, DirectionState>,
    /// Per link whose state was ever decided from telemetry.
    pub links: HashMap<i64, LinkOper>,
    /// The optical trends, when the state keeps them.
    pub trends: Option<Trends>,
}

/// The optical trends of a fabric's link ends (see [`trend`]).
///
/// Equality compares the settings and the ends only: the bookkeeping of the
/// split checkpoint (which segments changed, which run wrote each) is not
/// part of what the trends are.
#[derive(Clone, Debug, Default)]
pub struct Trends {
    /// Bucket length and window.
    pub settings: TrendSettings,
    /// Per link end that carried a reading.
    pub ends: HashMap<EndKey, EndTrend>,
    /// Segments (see [`Trends::segment_of`]) whose closed buckets changed
    /// since the last [`FabricState::checkpoint_split`].
    pub dirty: HashSet<u32>,
    /// Per segment stored apart, the stamp of the split checkpoint that
    /// wrote it last (what a restore expects to find).
    pub stamps: BTreeMap<u32, i64>,
}

impl PartialEq for Trends {
    fn eq(&self, other: &Self) -> bool {
        self.settings == other.settings && self.ends == other.ends
    }
}

impl Trends {
    /// No trends yet, with these settings.
    pub fn new(settings: TrendSettings) -> Self {
        Trends {
            settings,
            ..Trends::default()
        }
    }

    /// The segment of a link's closed buckets in a split checkpoint: its
    /// bucket-phase class, so the links that close a bucket in the same
    /// minutes (a run's polls) share their few segments.
    pub fn segment_of(&self, link: i64) -> u32 {
        let phase = i128::from(self.settings.phase(link));
        (phase * i128::from(TREND_SEGMENTS) / i128::from(self.settings.bucket_us)) as u32
    }

    /// Feeds one poll of `end` at `time` (ignored at or before the end's
    /// newest reading); returns whether it closed a bucket.
    pub fn feed(&mut self, end: EndKey, time: i64, poll: &Poll<'_>) -> bool {
        let closed = self
            .ends
            .entry(end)
            .or_default()
            .feed(end.0, time, poll, &self.settings);
        if closed {
            self.dirty.insert(self.segment_of(end.0));
        }
        closed
    }

    /// The forecast of `link` (see [`forecast_link`]).
    pub fn forecast(
        &self,
        link: i64,
        limits: &Limits,
        settings: &ForecastSettings,
    ) -> Option<Forecast> {
        let ends = [false, true].map(|side| self.ends.get(&(link, side)));
        forecast_link(link, ends, limits, &self.settings, settings)
    }
}

/// Little-endian `i64` number `i` of `bytes`.
fn i64_at(bytes: &[u8], i: usize) -> i64 {
    i64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
}

/// Little-endian `f64` number `i` of `bytes`.
fn f64_at(bytes: &[u8], i: usize) -> f64 {
    f64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
}

/// Optical readings as little-endian columns (what numpy's `tobytes` gives):
/// link and time (µs) `i64`, side `u8` (0 = A, 1 = Z), Rx, Tx and bias `f64`
/// with `lanes` values per row (row-major), temperature `f64`; NaN: no value.
#[derive(Clone, Copy, Debug)]
pub struct ReadingColumns<'a> {
    len: usize,
    lanes: usize,
    link: &'a [u8],
    side: &'a [u8],
    time: &'a [u8],
    rx: &'a [u8],
    tx: &'a [u8],
    bias: &'a [u8],
    temperature: &'a [u8],
}

impl<'a> ReadingColumns<'a> {
    /// Checks the columns' lengths against the link column's rows; the
    /// error names the first column that does not match.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        link: &'a [u8],
        side: &'a [u8],
        time: &'a [u8],
        lanes: usize,
        rx: &'a [u8],
        tx: &'a [u8],
        bias: &'a [u8],
        temperature: &'a [u8],
    ) -> Result<Self, String> {
        if lanes == 0 {
            return Err("lanes must be at least 1".into());
        }
        if !link.len().is_multiple_of(8) {
            return Err(format!(
                "link has {} bytes, not a whole number of 8-byte integers",
                link.len()
            ));
        }
        let len = link.len() / 8;
        for (name, bytes, per_row) in [
            ("side", side, 1),
            ("time", time, 8),
            ("rx", rx, 8 * lanes),
            ("tx", tx, 8 * lanes),
            ("bias", bias, 8 * lanes),
            ("temperature", temperature, 8),
        ] {
            if bytes.len() != len * per_row {
                return Err(format!(
                    "{name} has {} bytes, expected {} ({len} rows of {per_row} bytes)",
                    bytes.len(),
                    len * per_row
                ));
            }
        }
        if let Some(bad) = side.iter().find(|&&s| s > 1) {
            return Err(format!("side must be 0 (A) or 1 (Z), got {bad}"));
        }
        Ok(ReadingColumns {
            len,
            lanes,
            link,
            side,
            time,
            rx,
            tx,
            bias,
            temperature,
        })
    }

    /// Rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn end(&self, i: usize) -> EndKey {
        (i64_at(self.link, i), self.side[i] == 1)
    }

    fn time(&self, i: usize) -> i64 {
        i64_at(self.time, i)
    }

    /// Row `i`'s Rx, Tx and bias lanes into `out` (3 x lanes).
    fn lanes_of(&self, i: usize, out: &mut [f64]) {
        let n = self.lanes;
        for (q, column) in [self.rx, self.tx, self.bias].into_iter().enumerate() {
            for lane in 0..n {
                out[q * n + lane] = f64_at(column, i * n + lane);
            }
        }
    }
}

/// Per-lane readings of samples (the COPY text's lane arrays): for sample
/// `i`, quantity `q` (Rx, Tx, bias), its lanes are
/// `values[offsets[3 i + q]..offsets[3 i + q + 1]]` (NaN: a dark or missing
/// lane; none: the sample carried no lanes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleLanes {
    /// Start of each (sample, quantity) in `values`, and the end.
    pub offsets: Vec<u32>,
    /// The lanes' values.
    pub values: Vec<f64>,
}

impl SampleLanes {
    /// Sample `i`'s lanes of quantity `q` (0 Rx, 1 Tx, 2 bias).
    pub fn lanes(&self, i: usize, q: usize) -> &[f64] {
        match (self.offsets.get(3 * i + q), self.offsets.get(3 * i + q + 1)) {
            (Some(&a), Some(&b)) => &self.values[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// The trend poll of a sample: its lanes, or its average as the one lane
/// (NaN when it reported no light and no value).
fn trend_poll<'a>(sample: &Sample, lanes: [&'a [f64]; 3], scratch: &'a mut [f64; 3]) -> Poll<'a> {
    let o = &sample.optical;
    let average = [
        (o.rx, o.rx_no_light),
        (o.tx, o.tx_no_light),
        (o.bias, false),
    ];
    *scratch = average.map(|(v, _)| v.unwrap_or(f64::NAN));
    let [rx, tx, bias] = scratch;
    let pick = |lanes: &'a [f64], one: &'a f64, (v, dark): (Option<f64>, bool)| {
        if !lanes.is_empty() {
            lanes
        } else if v.is_some() || dark {
            std::slice::from_ref(one)
        } else {
            &[]
        }
    };
    Poll {
        rx: pick(lanes[0], rx, average[0]),
        tx: pick(lanes[1], tx, average[1]),
        bias: pick(lanes[2], bias, average[2]),
        temperature: o.temperature.unwrap_or(f64::NAN),
    }
}

/// The direction received at `side` (true = Z): Z receives a_to_z.
fn received_at(side: bool) -> bool {
    !side
}

/// The direction sent from `side`: A sends a_to_z.
fn sent_from(side: bool) -> bool {
    side
}

impl FabricState {
    /// The decided state of every link held, sorted by link: (link, up or
    /// None, flapping).
    pub fn link_states(&self) -> Vec<(i64, Option<bool>, bool)> {
        let mut out: Vec<_> = self
            .links
            .iter()
            .map(|(id, l)| (*id, l.up, l.flapping))
            .collect();
        out.sort_unstable_by_key(|row| row.0);
        out
    }

    /// The episodes `changes` touched: those it ended, then the open episode
    /// of each direction it changed.
    pub fn changed_episodes<'a>(
        &'a self,
        changes: &'a Changes,
    ) -> impl Iterator<Item = (DirectionKey, &'a Episode)> + 'a {
        let ended = changes.ended.iter().map(|(key, e)| (*key, e));
        let open = changes
            .directions
            .iter()
            .filter_map(|key| self.directions[key].open.as_ref().map(|e| (*key, e)));
        ended.chain(open)
    }

    /// Makes `open` the open episodes of the known directions, and no other:
    /// the stored events are the truth about episodes (a repair ends one
    /// outside the derivation). Directions not held are left out.
    pub fn set_open_episodes(&mut self, open: &HashMap<DirectionKey, Episode>) {
        for (key, direction) in &mut self.directions {
            direction.open = open.get(key).copied();
        }
    }

    /// Drops the ends and directions of every link not in `links` (links
    /// deleted since); returns how many entries went.
    pub fn retain_links(&mut self, links: &HashSet<i64>) -> usize {
        let before = self.ends.len() + self.directions.len();
        let before = before + self.links.len();
        self.ends.retain(|key, _| links.contains(&key.0));
        self.directions.retain(|key, _| links.contains(&key.0));
        self.links.retain(|key, _| links.contains(key));
        if let Some(trends) = &mut self.trends {
            let mut gone = HashSet::new();
            trends.ends.retain(|key, _| {
                let keep = links.contains(&key.0);
                if !keep {
                    gone.insert(key.0);
                }
                keep
            });
            let segments: Vec<u32> = gone.iter().map(|&link| trends.segment_of(link)).collect();
            trends.dirty.extend(segments);
        }
        before - self.ends.len() - self.directions.len() - self.links.len()
    }

    /// Decides a link's operational state from its ends' votes (down when
    /// either end says down, up when no end says down and one says up,
    /// unchanged when neither says anything) at time `now`, and its flapping
    /// flag from the changes inside the window before `now`.
    fn decide(&mut self, link: i64, now: i64, settings: &OperSettings, changes: &mut Changes) {
        let vote = |side: bool| {
            self.ends
                .get(&(link, side))
                .and_then(|end| end.oper.vote(settings))
        };
        let decided = match (vote(false), vote(true)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (None, None) => None,
            _ => Some(true),
        };
        let state = match (decided, self.links.entry(link)) {
            (_, Entry::Occupied(slot)) => slot.into_mut(),
            (Some(_), Entry::Vacant(slot)) => slot.insert(LinkOper::default()),
            (None, Entry::Vacant(_)) => return,
        };
        if let Some(up) = decided
            && state.up != Some(up)
        {
            if state.up.is_some() {
                state.changes.push(now);
                let keep = settings.flap_changes as usize + 1;
                if state.changes.len() > keep {
                    state.changes.drain(..state.changes.len() - keep);
                }
            }
            state.up = Some(up);
            changes.oper.push((link, up));
        }
        if !state.changes.is_empty() {
            let horizon = now.saturating_sub(settings.flap_window_us);
            state.changes.retain(|&t| t > horizon);
        }
        let flapping = if state.changes.len() > settings.flap_changes as usize {
            true
        } else if state.changes.is_empty() {
            false
        } else {
            state.flapping
        };
        if flapping != state.flapping {
            state.flapping = flapping;
            changes.flapping.push((link, flapping));
        }
    }

    /// Decides the links a batch touched: (link, newest sample time).
    fn decide_links(
        &mut self,
        links: &mut Vec<(i64, i64)>,
        settings: &OperSettings,
        changes: &mut Changes,
    ) {
        for &(link, now) in links.iter() {
            self.decide(link, now, settings, changes);
        }
        links.clear();
    }

    /// Applies samples sorted by (batch, end, time): each poll's counters in
    /// time order, and each end's newest optical sample of a batch.
    pub fn apply(&mut self, samples: &[Sample], settings: &Settings) -> Changes {
        self.apply_with_lanes(samples, &SampleLanes::default(), settings)
    }

    /// Feeds only the trends (re-analysis, evaluation) with readings given
    /// as columns, rows in time order per end (a row at or before its end's
    /// newest reading is ignored). Returns the rows taken and the links a
    /// bucket of which closed (sorted). Without trends nothing is taken.
    pub fn apply_reading_columns(&mut self, columns: &ReadingColumns<'_>) -> (usize, Vec<i64>) {
        let Some(trends) = &mut self.trends else {
            return (0, vec![]);
        };
        let lanes = columns.lanes;
        let mut scratch = vec![0.0; 3 * lanes];
        let mut taken = 0;
        let mut closed = vec![];
        let mut i = 0;
        while i < columns.len {
            // Rows of one end often come together: look it up once for them.
            let end = columns.end(i);
            let slot = trends.ends.entry(end).or_default();
            let mut closed_here = false;
            while i < columns.len && columns.end(i) == end {
                let time = columns.time(i);
                if time > slot.time {
                    taken += 1;
                    columns.lanes_of(i, &mut scratch);
                    let (rx, rest) = scratch.split_at(lanes);
                    let (tx, bias) = rest.split_at(lanes);
                    let poll = Poll {
                        rx,
                        tx,
                        bias,
                        temperature: f64_at(columns.temperature, i),
                    };
                    closed_here |= slot.feed(end.0, time, &poll, &trends.settings);
                }
                i += 1;
            }
            if closed_here {
                closed.push(end.0);
                trends.dirty.insert(trends.segment_of(end.0));
            }
        }
        closed.sort_unstable();
        closed.dedup();
        (taken, closed)
    }

    /// [`FabricState::apply`] with the samples' lanes (their readings feed
    /// the trends, when the state keeps them).
    pub fn apply_with_lanes(
        &mut self,
        samples: &[Sample],
        lanes: &SampleLanes,
        settings: &Settings,
    ) -> Changes {
        let mut changes = Changes::default();
        // Per touched end, in first-touched order: its visible part before
        // this call (None: the end is new).
        let mut touched_ends: HashMap<EndKey, Option<(Option<i64>, Optical)>> = HashMap::new();
        let mut touched_order: Vec<EndKey> = Vec::new();
        let mut touched_directions: HashMap<DirectionKey, Health> = HashMap::new();
        // Links of the current batch, with their newest sample time: each
        // link's state is decided once per batch (a poll), after it.
        let mut batch_links: Vec<(i64, i64)> = Vec::new();
        let mut i = 0;
        while i < samples.len() {
            let (batch, end) = (samples[i].batch, samples[i].end);
            if i > 0 && samples[i - 1].batch != batch {
                self.decide_links(&mut batch_links, &settings.oper, &mut changes);
            }
            let mut j = i;
            while j < samples.len() && samples[j].batch == batch && samples[j].end == end {
                j += 1;
            }
            let newest = samples[j - 1].time;
            match batch_links.last_mut() {
                Some((link, time)) if *link == end.0 => *time = (*time).max(newest),
                _ => batch_links.push((end.0, newest)),
            }
            if let Entry::Vacant(slot) = touched_ends.entry(end) {
                slot.insert(self.ends.get(&end).map(EndState::visible));
                touched_order.push(end);
            }
            let state = self.ends.entry(end).or_default();
            let mut newest_optical = None;
            let optical_time = state.optical.time;
            for (k, sample) in samples[i..j].iter().enumerate() {
                if let Some(trends) = &mut self.trends
                    && sample.optical.carries_readings()
                {
                    let index = i + k;
                    let mut scratch = [0.0; 3];
                    let poll = trend_poll(
                        sample,
                        [0, 1, 2].map(|q| lanes.lanes(index, q)),
                        &mut scratch,
                    );
                    if trends.feed(end, sample.time, &poll) {
                        changes.trend_links.push(end.0);
                    }
                }
                if sample.optical.carries_readings() {
                    newest_optical = Some(sample);
                }
                if let Some(code) = sample.oper
                    && state.oper.status_time.is_none_or(|t| t <= sample.time)
                {
                    state.oper.status = Some(code);
                    state.oper.status_time = Some(sample.time);
                }
                let rx = &sample.optical;
                if (rx.rx.is_some() || rx.rx_no_light)
                    && optical_time.is_none_or(|t| sample.time > t)
                {
                    state.oper.rx_poll(rx.rx_no_light && rx.rx.is_none());
                }
                if sample.counters.iter().all(Option::is_none) {
                    continue;
                }
                let Some(rates) = state.window.advance(sample.time, sample.counters, settings)
                else {
                    continue;
                };
                changes.windows += 1;
                if let Some(rate) = rates.rx_corruption {
                    let key = (end.0, received_at(end.1));
                    let direction = self.directions.entry(key).or_default();
                    touched_directions.entry(key).or_insert_with(|| {
                        changes.directions.push(key);
                        direction.health
                    });
                    if let Some(episode) = direction.corruption(rate, sample.time, settings) {
                        changes.ended.push((key, episode));
                    }
                }
                if let Some(rate) = rates.tx_congestion {
                    let key = (end.0, sent_from(end.1));
                    let direction = self.directions.entry(key).or_default();
                    touched_directions.entry(key).or_insert_with(|| {
                        changes.directions.push(key);
                        direction.health
                    });
                    direction.congestion = Some((rate, sample.time));
                }
            }
            if let Some(sample) = newest_optical {
                let optical = Optical {
                    time: Some(sample.time),
                    ..sample.optical
                };
                state.optical.update(&optical);
            }
            i = j;
        }
        self.decide_links(&mut batch_links, &settings.oper, &mut changes);
        changes.trend_links.sort_unstable();
        changes.trend_links.dedup();
        changes.ends = touched_order
            .into_iter()
            .filter(|end| match &touched_ends[end] {
                None => true,
                Some(before) => *before != self.ends[end].visible(),
            })
            .collect();
        changes.health_changed = changes
            .directions
            .iter()
            .copied()
            .filter(|key| self.directions[key].health != touched_directions[key])
            .collect();
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn poll(pkts: u64, fcs: u64) -> Counters {
        [Some(pkts), Some(fcs), None, Some(pkts), Some(0)]
    }

    #[test]
    fn a_window_gives_both_rates() {
        let mut w = Window::default();
        let s = settings();
        assert_eq!(w.advance(0, poll(0, 0), &s), None);
        let rates = w.advance(15 * MIN, poll(999_950, 50), &s).unwrap();
        assert_eq!(rates.rx_corruption, Some(50.0 / 1_000_000.0));
        assert_eq!(rates.tx_congestion, Some(0.0));
    }

    #[test]
    fn a_reset_restarts_the_window_and_an_old_poll_is_ignored() {
        let mut w = Window::default();
        let s = settings();
        w.advance(0, poll(5_000_000, 9), &s);
        assert_eq!(w.advance(15 * MIN, poll(10, 0), &s), None);
        assert_eq!(w.advance(10 * MIN, poll(1, 0), &s), None);
        assert_eq!(w.last_time, Some(15 * MIN));
        assert!(w.advance(30 * MIN, poll(2_000_010, 0), &s).is_some());
    }

    #[test]
    fn a_reset_behind_a_missing_counter_restarts_the_window() {
        // The error counter is missing at 5 minutes and has reset by 15: its
        // delta from the window's start would be negative (found by the
        // telemetry fuzz target's proptest: a corruption rate of -9.4).
        let mut w = Window::default();
        let s = settings();
        w.advance(0, poll(0, 175), &s);
        let missing = [Some(500_000), None, None, Some(500_000), Some(0)];
        assert_eq!(w.advance(5 * MIN, missing, &s), None);
        assert_eq!(w.advance(15 * MIN, poll(2_000_000, 174), &s), None);
        let rates = w.advance(30 * MIN, poll(3_000_000, 184), &s).unwrap();
        assert_eq!(rates.rx_corruption, Some(10.0 / 1_000_010.0));
    }

    #[test]
    fn a_gap_or_too_few_packets_gives_no_rate() {
        let s = settings();
        let mut w = Window::default();
        w.advance(0, poll(0, 0), &s);
        assert_eq!(w.advance(75 * MIN, poll(10_000_000, 500), &s), None);
        let mut w = Window::default();
        w.advance(0, poll(0, 0), &s);
        assert_eq!(w.advance(15 * MIN, poll(100, 1), &s), None);
    }

    #[test]
    fn corrupting_opens_an_episode_and_clean_ends_it() {
        let s = settings();
        let mut state = FabricState::default();
        let end = (7, true); // side Z receives a_to_z
        let errors = [0, 0, 50, 50, 0];
        let (mut pkts, mut fcs) = (0, 0);
        let mut samples = vec![];
        for (i, e) in errors.iter().enumerate() {
            samples.push(Sample {
                batch: 1,
                end,
                time: i as i64 * 15 * MIN,
                counters: poll(pkts, fcs),
                optical: Optical::default(),
                oper: None,
            });
            pkts += 1_000_000;
            fcs += e;
        }
        samples.push(Sample {
            batch: 1,
            end,
            time: 5 * 15 * MIN,
            counters: poll(pkts, fcs),
            optical: Optical::default(),
            oper: None,
        });
        let changes = state.apply(&samples, &s);
        assert_eq!(changes.windows, 5);
        assert_eq!(changes.directions, vec![(7, false), (7, true)]);
        let ended = &changes.ended[0];
        assert_eq!(ended.0, (7, false));
        assert_eq!(ended.1.first_seen, 3 * 15 * MIN);
        assert_eq!(ended.1.ended_at, Some(5 * 15 * MIN));
        let direction = &state.directions[&(7, false)];
        assert_eq!(direction.health, Health::Clean);
        assert_eq!(direction.health_since, Some(5 * 15 * MIN));
        assert!(direction.open.is_none());
    }

    #[test]
    fn an_episode_ended_outside_reopens_on_the_next_corrupting_window() {
        let s = settings();
        let mut state = FabricState::default();
        let end = (3, true);
        let sample = |time: i64, pkts: u64, fcs: u64| Sample {
            batch: 1,
            end,
            time,
            counters: poll(pkts, fcs),
            optical: Optical::default(),
            oper: None,
        };
        state.apply(&[sample(0, 0, 0), sample(15 * MIN, 1_000_000, 50)], &s);
        let first = state.directions[&(3, false)].open.unwrap();
        // A repair ended the stored event: no episode is open any more.
        state.set_open_episodes(&HashMap::new());
        let changes = state.apply(&[sample(30 * MIN, 2_000_000, 100)], &s);
        let reopened = state.directions[&(3, false)].open.unwrap();
        assert!(changes.ended.is_empty());
        assert_eq!(
            (first.first_seen, reopened.first_seen),
            (15 * MIN, 30 * MIN)
        );
    }

    #[test]
    fn only_the_links_kept_stay() {
        let mut state = FabricState::default();
        for link in [1, 2, 3] {
            state.ends.insert((link, false), EndState::default());
            state.ends.insert((link, true), EndState::default());
            state
                .directions
                .insert((link, true), DirectionState::default());
        }
        assert_eq!(state.retain_links(&HashSet::from([1, 3, 9])), 3);
        let mut links: Vec<i64> = state.ends.keys().map(|k| k.0).collect();
        links.sort_unstable();
        assert_eq!(links, vec![1, 1, 3, 3]);
        assert_eq!(state.directions.len(), 2);
    }

    #[test]
    fn the_newest_optical_sample_of_a_batch_wins_and_keeps_missing_fields() {
        let s = settings();
        let mut state = FabricState::default();
        let reading = |rx: Option<f64>, temperature: Option<f64>| Optical {
            rx,
            rx_min: rx,
            temperature,
            ..Optical::default()
        };
        let sample = |batch, time, optical| Sample {
            batch,
            end: (1, false),
            time,
            counters: [None; COUNTERS],
            optical,
            oper: None,
        };
        state.apply(
            &[
                sample(1, 0, reading(Some(-2.0), Some(40.0))),
                sample(1, MIN, reading(Some(-3.0), None)),
            ],
            &s,
        );
        let optical = state.ends[&(1, false)].optical;
        assert_eq!((optical.rx, optical.temperature), (Some(-3.0), None));
        state.apply(&[sample(2, 2 * MIN, reading(None, Some(41.0)))], &s);
        let optical = state.ends[&(1, false)].optical;
        assert_eq!((optical.rx, optical.temperature), (Some(-3.0), Some(41.0)));
        state.apply(&[sample(3, 0, reading(Some(-9.0), None))], &s);
        assert_eq!(state.ends[&(1, false)].optical.rx, Some(-3.0));
    }
    /// A sample of one end of link 1 in its own batch: oper-status and Rx.
    fn oper_sample(batch: i64, side: bool, time: i64, oper: Option<u8>, rx: Option<f64>) -> Sample {
        Sample {
            batch,
            end: (1, side),
            time,
            counters: [None; COUNTERS],
            optical: Optical {
                rx,
                rx_min: rx,
                rx_no_light: rx.is_none(),
                ..Optical::default()
            },
            oper,
        }
    }

    #[test]
    fn either_end_down_takes_the_link_down_and_both_up_bring_it_back() {
        let s = settings();
        let mut state = FabricState::default();
        let up = Some(OPER_UP);
        let changes = state.apply(
            &[
                oper_sample(1, false, 0, up, Some(-2.0)),
                oper_sample(1, true, 0, up, Some(-2.0)),
            ],
            &s,
        );
        assert_eq!(changes.oper, vec![(1, true)]);
        // Z reports lower_layer_down (7): down.
        let changes = state.apply(&[oper_sample(2, true, MIN, Some(7), Some(-2.0))], &s);
        assert_eq!(changes.oper, vec![(1, false)]);
        // A still up, Z not yet up again: no change.
        assert!(
            state
                .apply(&[oper_sample(3, false, 2 * MIN, up, Some(-2.0))], &s)
                .oper
                .is_empty()
        );
        let changes = state.apply(&[oper_sample(4, true, 3 * MIN, up, Some(-2.0))], &s);
        assert_eq!(changes.oper, vec![(1, true)]);
        assert_eq!(state.links[&1].changes, vec![MIN, 3 * MIN]);
    }

    #[test]
    fn an_end_without_oper_status_does_not_count_and_dark_ends_do() {
        let s = settings();
        let mut state = FabricState::default();
        // No oper-status at all: no decision.
        let changes = state.apply(&[oper_sample(1, false, 0, None, Some(-2.0))], &s);
        assert!(changes.oper.is_empty() && state.links.is_empty());
        // One dark poll is not enough, two are.
        assert!(
            state
                .apply(&[oper_sample(2, false, MIN, None, None)], &s)
                .oper
                .is_empty()
        );
        assert_eq!(
            state
                .apply(&[oper_sample(3, false, 2 * MIN, None, None)], &s)
                .oper,
            vec![(1, false)]
        );
        // Light again: the end that was dark counts as up.
        assert_eq!(
            state
                .apply(&[oper_sample(4, false, 3 * MIN, None, Some(-2.5))], &s)
                .oper,
            vec![(1, true)]
        );
        // With the setting off, darkness says nothing.
        let off = Settings {
            oper: OperSettings {
                dark_end_is_down: false,
                ..OperSettings::default()
            },
            ..s
        };
        let mut state = FabricState::default();
        let up = Some(OPER_UP);
        state.apply(&[oper_sample(1, false, 0, up, Some(-2.0))], &off);
        for (batch, time) in [(2, MIN), (3, 2 * MIN), (4, 3 * MIN)] {
            assert!(
                state
                    .apply(&[oper_sample(batch, false, time, up, None)], &off)
                    .oper
                    .is_empty()
            );
        }
        assert_eq!(state.links[&1].up, Some(true));
        // And with it on, a dark end reporting up is down.
        assert_eq!(
            state
                .apply(&[oper_sample(5, false, 4 * MIN, up, None)], &s)
                .oper,
            vec![(1, false)]
        );
    }

    #[test]
    fn a_link_that_changes_too_often_flaps_until_it_is_stable_for_the_window() {
        let s = settings(); // more than 4 changes in an hour
        let mut state = FabricState::default();
        let mut flapping = vec![];
        for k in 0..6i64 {
            let code = if k % 2 == 0 { OPER_UP } else { 2 };
            let changes = state.apply(
                &[oper_sample(k, false, k * MIN, Some(code), Some(-2.0))],
                &s,
            );
            flapping.extend(changes.flapping);
        }
        // Changes at minutes 1..5: the fifth makes it flap.
        assert_eq!(flapping, vec![(1, true)]);
        assert!(state.links[&1].flapping);
        // Still within the hour after the last change: still flapping.
        let changes = state.apply(&[oper_sample(7, false, 60 * MIN, Some(2), Some(-2.0))], &s);
        assert!(changes.flapping.is_empty());
        // An hour after the last change: stable again.
        let changes = state.apply(&[oper_sample(8, false, 66 * MIN, Some(2), Some(-2.0))], &s);
        assert_eq!(changes.flapping, vec![(1, false)]);
        assert!(state.links[&1].changes.is_empty());
    }

    #[test]
    fn an_older_status_does_not_replace_a_newer_one_and_deleted_links_go() {
        let s = settings();
        let mut state = FabricState::default();
        state.apply(
            &[oper_sample(1, false, 10 * MIN, Some(OPER_UP), Some(-2.0))],
            &s,
        );
        let changes = state.apply(&[oper_sample(2, false, MIN, Some(2), Some(-2.0))], &s);
        assert!(changes.oper.is_empty());
        assert_eq!(state.ends[&(1, false)].oper.status, Some(OPER_UP));
        assert_eq!(state.retain_links(&HashSet::new()), 2);
        assert!(state.links.is_empty());
    }
}
