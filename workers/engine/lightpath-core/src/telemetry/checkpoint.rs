//! A compact, lossless byte encoding of a [`FabricState`]: the checkpoint a
//! process restores instead of rebuilding the state from a row per link end.
//!
//! Layout (version 3): the magic `LPTS`, a version byte, then the ends, the
//! directions, the ends' oper-status (only ends that hold one), the links'
//! operational state and the trends, each a count followed by entries sorted
//! by key (version 2, still read, has no trends; version 1 neither oper-status
//! nor link states; both restore without trends). Integers
//! are LEB128 varints; signed ones zigzag-encoded. Link ids are deltas from
//! the previous entry's; every time is a delta from the previous time
//! written, so the polls of one sweep, which share their times, take a byte
//! each. A window's first counters are deltas from its newest ones. Readings
//! that are short decimals (what devices report) are stored as scaled
//! integers, other floats as their 8 bytes.
//!
//! Version 4 (a split checkpoint, [`FabricState::checkpoint_split`]) has the
//! same sections but for the trends, which keep only what every poll moves:
//! the stamps of the stored segments, then per end its newest reading time
//! and per series its flags and open bucket. The closed buckets (rings and
//! steps) go to segments, one per bucket-phase class of links (see
//! [`TREND_SEGMENTS`]): the magic `LPTR`, a version byte, the segment's
//! number, its stamp, then per end (sorted) its series counts and per series
//! a step flag, its ring (encoded as below) and its step. A split checkpoint
//! hands out only the segments where a bucket closed (or a link went) since
//! the previous one: the closed buckets change only then, so the others stay
//! as stored. A segment's ring is read at its end's newest closed bucket,
//! which the bytes give (the end's time), and which moves only when a bucket
//! closes, so a stored segment always matches the bytes that list it.
//!
//! Trends (see [`super::trend`]) take about 25 bytes per series in the
//! common case (30 with a diurnal swing, which widens the open bucket): each bucket of the ring is predicted by the one a day
//! earlier (a diurnal swing cancels) or the previous present one, and its
//! value and noise differences usually fit one byte together (those of two
//! quiet buckets share one); the open
//! bucket is stored as its rounded mean (predicted the same way), the
//! remainders and `n * sum of squares - sum^2`, all small numbers.

use super::trend::{EndTrend, MISSING, Open, Quantity, Series, Slot, Step, TrendSettings};
use std::collections::{HashMap, HashSet};

use super::{
    COUNTERS, Counters, DirectionState, EndKey, EndState, Episode, FabricState, Health, LinkOper,
    OPER_MAX, OperEnd, Optical, Trends, Window,
};

const MAGIC: &[u8; 4] = b"LPTS";
const VERSION: u8 = 3;
/// The version of a split checkpoint's bytes ([`FabricState::checkpoint_split`]).
const SPLIT_VERSION: u8 = 4;
/// What a segment of closed trend buckets starts with, and its version.
const SEGMENT_MAGIC: &[u8; 4] = b"LPTR";
const SEGMENT_VERSION: u8 = 1;
/// Segments of a split checkpoint's closed trend buckets: bucket-phase
/// classes, so a run whose polls span 5 minutes of 6-hour buckets rewrites
/// about 5 of them (1/256 of the rings each) and the rest stay as stored.
pub const TREND_SEGMENTS: u32 = 256;
/// Decimal digits tried for a reading before storing its 8 bytes.
const MAX_DIGITS: u32 = 6;

/// A checkpoint that cannot be read: not one, another version, or cut short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointError(pub String);

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "telemetry checkpoint: {}", self.0)
    }
}

impl std::error::Error for CheckpointError {}

fn zigzag(v: i128) -> u128 {
    ((v << 1) ^ (v >> 127)) as u128
}

fn unzigzag(v: u128) -> i128 {
    (v >> 1) as i128 ^ -((v & 1) as i128)
}

struct Writer {
    out: Vec<u8>,
    time: i64,
    /// Per quantity, the last present bucket value and noise written.
    bases: [(i16, u16); 4],
}

impl Writer {
    fn varint(&mut self, mut v: u128) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn signed(&mut self, v: i128) {
        self.varint(zigzag(v));
    }

    /// 0 for None, else the value's zigzag delta from the previous time + 1.
    fn time(&mut self, t: Option<i64>) {
        match t {
            None => self.varint(0),
            Some(t) => {
                self.varint(zigzag(i128::from(t) - i128::from(self.time)) + 1);
                self.time = t;
            }
        }
    }

    fn counter(&mut self, c: Option<u64>, base: Option<u64>) {
        match (c, base) {
            (None, _) => self.varint(0),
            (Some(c), None) => self.varint(u128::from(c) + 1),
            (Some(c), Some(b)) => self.varint(zigzag(i128::from(c) - i128::from(b)) + 1),
        }
    }

    fn float(&mut self, v: f64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    /// Tag 0: None; 1: 8 bytes follow; 2 + k: a zigzag varint m with v = m / 10^k.
    fn reading(&mut self, v: Option<f64>) {
        let Some(v) = v else {
            self.out.push(0);
            return;
        };
        for digits in 0..=MAX_DIGITS {
            let scale = 10f64.powi(digits as i32);
            let scaled = (v * scale).round();
            // The check decodes as `restore` does, so -0.0 and the like keep their 8 bytes.
            if scaled.abs() < 9.0e15 && ((scaled as i128) as f64 / scale).to_bits() == v.to_bits() {
                self.out.push(2 + digits as u8);
                self.signed(scaled as i128);
                return;
            }
        }
        self.out.push(1);
        self.float(v);
    }

    fn opt_rate(&mut self, rate: Option<(f64, i64)>) {
        match rate {
            None => self.out.push(0),
            Some((r, t)) => {
                self.out.push(1);
                self.float(r);
                self.time(Some(t));
            }
        }
    }
}

/// Rounded `sum / n` (n > 0), halves away from zero.
fn rounded_mean(sum: i64, n: u16) -> i64 {
    let n = i64::from(n);
    if sum >= 0 {
        (sum + n / 2) / n
    } else {
        -((-sum + n / 2) / n)
    }
}

/// The bucket a bucket is predicted by: the one a day earlier (a diurnal
/// swing moves both its value and its noise the same), else the previous
/// present one, else the quantity's base.
fn predicted(window: &[Slot], i: usize, day: usize, base: (i16, u16)) -> (i16, u16) {
    if i >= day && window[i - day].value != MISSING {
        let s = window[i - day];
        return (s.value, s.std);
    }
    window[..i]
        .iter()
        .rev()
        .find(|s| s.value != MISSING)
        .map_or(base, |s| (s.value, s.std))
}

impl Writer {
    fn trends(&mut self, trends: Option<&Trends>) {
        let Some(trends) = trends else {
            self.varint(0);
            return;
        };
        let settings = &trends.settings;
        self.varint(1);
        self.varint(trends.settings.bucket_us as u128);
        self.varint(trends.settings.buckets as u128);
        let mut ends: Vec<_> = trends.ends.iter().collect();
        ends.sort_unstable_by_key(|(key, _)| **key);
        self.varint(ends.len() as u128);
        let mut link = 0i64;
        for (&(id, side), end) in ends {
            self.end_header(&mut link, (id, side), end);
            let newest = end.newest_closed(id, settings);
            for (k, q) in Quantity::ALL.into_iter().enumerate() {
                for series in end.series(q) {
                    self.series(series, newest, k, settings);
                }
            }
        }
    }

    /// An end's key (its link a delta from `link`), whether it has a
    /// temperature, its newest reading time and its Rx, Tx and bias lanes.
    fn end_header(&mut self, link: &mut i64, (id, side): EndKey, end: &EndTrend) {
        self.signed(i128::from(id) - i128::from(*link));
        *link = id;
        self.out
            .push(u8::from(side) | (end.temperature.len().min(1) as u8) << 1);
        self.time(Some(end.time));
        for q in [Quantity::Rx, Quantity::Tx, Quantity::Bias] {
            self.varint(end.series(q).len() as u128);
        }
    }

    /// Flags (dark polls, lit, a step, an open bucket), the ring oldest
    /// first, the open bucket, the step.
    fn series(&mut self, s: &Series, newest: i64, q: usize, settings: &TrendSettings) {
        self.out.push(
            s.dark_polls.min(3)
                | u8::from(s.lit) << 2
                | u8::from(s.step.is_some()) << 3
                | u8::from(s.open.n > 0) << 4,
        );
        let window = self.ring(s, newest, q, settings);
        if s.open.n > 0 {
            let base = predicted(&window, window.len(), usize::MAX, self.bases[q]).0;
            self.open(&s.open, base);
        }
        self.step(s.step);
    }

    /// The ring oldest first: per present bucket its value's and noise's
    /// differences from their predictions; two small pairs share a byte.
    /// Returns the window.
    fn ring(&mut self, s: &Series, newest: i64, q: usize, settings: &TrendSettings) -> Vec<Slot> {
        let window: Vec<Slot> = s.window(newest).collect();
        let day = settings.day_lag();
        let mut codes: Vec<Option<(u128, u128)>> = Vec::with_capacity(window.len());
        for (i, slot) in window.iter().enumerate() {
            if slot.value == MISSING {
                codes.push(None);
                continue;
            }
            let (value, std) = predicted(&window, i, day, self.bases[q]);
            codes.push(Some((
                zigzag(i128::from(slot.value) - i128::from(value)),
                zigzag(i128::from(slot.std) - i128::from(std)),
            )));
            self.bases[q] = (slot.value, slot.std);
        }
        let tiny = |c: Option<(u128, u128)>| c.filter(|&(dv, ds)| dv < 4 && ds < 2);
        let mut i = 0;
        while i < codes.len() {
            match (
                codes[i],
                tiny(codes[i]).and(codes.get(i + 1).copied().and_then(tiny)),
            ) {
                (None, _) => self.out.push(0),
                (Some((dv, ds)), Some((dv2, ds2))) => {
                    let byte = (dv << 4 | ds << 3 | dv2 << 1 | ds2) as u8;
                    self.out.push(0x40 | byte);
                    i += 1;
                }
                (Some((dv, ds)), None) if dv < 16 && ds < 8 => {
                    self.out.push(0x80 | (ds as u8) << 4 | dv as u8);
                }
                (Some((dv, ds)), None) => {
                    self.out.push(1);
                    self.varint(dv);
                    self.varint(ds);
                }
            }
            i += 1;
        }
        window
    }

    /// An open bucket with samples: its count, its rounded mean as a
    /// difference from `base`, and the rest as small remainders.
    fn open(&mut self, open: &Open, base: i16) {
        let mean = rounded_mean(open.sum, open.n);
        self.varint(u128::from(open.n));
        self.signed(i128::from(mean) - i128::from(base));
        self.signed(i128::from(open.sum) - i128::from(mean) * i128::from(open.n));
        self.signed(i128::from(open.min) - i128::from(mean));
        self.signed(i128::from(open.max) - i128::from(mean));
        let m2 = i128::from(open.n) * i128::from(open.sumsq) - i128::from(open.sum).pow(2);
        self.varint(m2.max(0) as u128);
    }

    fn step(&mut self, step: Option<Step>) {
        if let Some(step) = step {
            self.out.push(step.age);
            self.signed(i128::from(step.size));
        }
    }
}

impl Writer {
    /// The trends without their closed buckets (version 4): settings, the
    /// stored segments' stamps, then per end its newest reading time and per
    /// series its flags and open bucket (the mean predicted by the previous
    /// open bucket of the same quantity).
    fn open_trends(&mut self, trends: Option<&Trends>) {
        let Some(trends) = trends else {
            self.varint(0);
            return;
        };
        self.varint(1);
        self.varint(trends.settings.bucket_us as u128);
        self.varint(trends.settings.buckets as u128);
        self.varint(trends.stamps.len() as u128);
        let (mut segment, mut stamp) = (0u32, 0i64);
        for (&s, &t) in &trends.stamps {
            self.varint(u128::from(s - segment));
            self.signed(i128::from(t) - i128::from(stamp));
            (segment, stamp) = (s, t);
        }
        let mut ends: Vec<_> = trends.ends.iter().collect();
        ends.sort_unstable_by_key(|(key, _)| **key);
        self.varint(ends.len() as u128);
        let mut link = 0i64;
        for (&(id, side), end) in ends {
            self.end_header(&mut link, (id, side), end);
            for (k, q) in Quantity::ALL.into_iter().enumerate() {
                for s in end.series(q) {
                    self.out.push(
                        s.dark_polls.min(3) | u8::from(s.lit) << 2 | u8::from(s.open.n > 0) << 4,
                    );
                    if s.open.n > 0 {
                        self.open(&s.open, self.bases[k].0);
                        self.bases[k].0 = rounded_mean(s.open.sum, s.open.n) as i16;
                    }
                }
            }
        }
    }
}

/// The segments `dirty` (sorted) of the trends' closed buckets, stamped:
/// per end of the segment its series' rings and steps (the open buckets are
/// in the checkpoint's bytes).
fn segments(trends: &Trends, dirty: &[u32], stamp: i64) -> Vec<(u32, Vec<u8>)> {
    if dirty.is_empty() {
        return vec![];
    }
    let wanted: HashSet<u32> = dirty.iter().copied().collect();
    let mut members: HashMap<u32, Vec<(&EndKey, &EndTrend)>> =
        dirty.iter().map(|&s| (s, vec![])).collect();
    for entry in &trends.ends {
        let segment = trends.segment_of(entry.0.0);
        if wanted.contains(&segment) {
            members
                .get_mut(&segment)
                .expect("a dirty segment")
                .push(entry);
        }
    }
    let settings = &trends.settings;
    dirty
        .iter()
        .map(|&segment| {
            let mut ends = members.remove(&segment).unwrap_or_default();
            ends.sort_unstable_by_key(|(key, _)| **key);
            let mut w = Writer {
                out: Vec::with_capacity(16 + ends.len() * 100),
                time: 0,
                bases: [(0, 0); 4],
            };
            w.out.extend_from_slice(SEGMENT_MAGIC);
            w.out.push(SEGMENT_VERSION);
            w.varint(u128::from(segment));
            w.signed(i128::from(stamp));
            w.varint(ends.len() as u128);
            let mut link = 0i64;
            for (&(id, side), end) in ends {
                w.signed(i128::from(id) - i128::from(link));
                link = id;
                w.out.push(u8::from(side));
                for q in Quantity::ALL {
                    w.varint(end.series(q).len() as u128);
                }
                let newest = end.newest_closed(id, settings);
                for (k, q) in Quantity::ALL.into_iter().enumerate() {
                    for s in end.series(q) {
                        w.out.push(u8::from(s.step.is_some()));
                        w.ring(s, newest, k, settings);
                        w.step(s.step);
                    }
                }
            }
            (segment, w.out)
        })
        .collect()
}

/// Reads the listed segments into the trends the split checkpoint's bytes
/// restored (their ends, times and open buckets).
fn read_segments(trends: &mut Trends, stored: &[(u32, &[u8])]) -> Read<()> {
    let settings = trends.settings;
    let stamps = trends.stamps.clone();
    for (&segment, &stamp) in &stamps {
        let data = stored
            .iter()
            .find(|(s, _)| *s == segment)
            .map(|(_, data)| *data)
            .ok_or_else(|| CheckpointError(format!("trend segment {segment} is missing")))?;
        if data.len() < 5 || &data[..4] != SEGMENT_MAGIC || data[4] != SEGMENT_VERSION {
            return Err(CheckpointError(format!(
                "trend segment {segment} is not one (or of another version)"
            )));
        }
        let mut r = Reader {
            data,
            at: 5,
            time: 0,
            bases: [(0, 0); 4],
        };
        let (id, written) = (r.varint()?, r.signed()?);
        if id != u128::from(segment) || written != i128::from(stamp) {
            return Err(CheckpointError(format!(
                "trend segment {segment} holds segment {id} of run {written}, \
                 the checkpoint needs that of run {stamp}"
            )));
        }
        let count = r.varint()?;
        let mut link = 0i64;
        for _ in 0..count {
            link = int(i128::from(link) + r.signed()?)?;
            let side = r.byte()? & 1 != 0;
            let mut lanes = [0usize; 4];
            for lane in &mut lanes {
                *lane = int(r.varint()? as i128)?;
            }
            let here = trends.segment_of(link) == segment;
            let end = trends
                .ends
                .get_mut(&(link, side))
                .filter(|_| here)
                .ok_or_else(|| {
                    CheckpointError(format!(
                        "trend segment {segment} holds an end of link {link} the checkpoint has not"
                    ))
                })?;
            let newest = end.newest_closed(link, &settings);
            for (k, (q, n)) in Quantity::ALL.into_iter().zip(lanes).enumerate() {
                if n > end.series(q).len() {
                    return Err(CheckpointError(format!(
                        "trend segment {segment} has more {} lanes of link {link} than the checkpoint",
                        q.name()
                    )));
                }
                for lane in 0..n {
                    let flags = r.byte()?;
                    let window = r.ring(k, &settings)?;
                    let step = if flags & 1 != 0 {
                        Some(r.step()?)
                    } else {
                        None
                    };
                    let series = &mut end.series_mut(q)[lane];
                    place(series, &window, newest);
                    series.step = step;
                }
            }
        }
        r.finished()?;
    }
    Ok(())
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    time: i64,
    /// As [`Writer::bases`].
    bases: [(i16, u16); 4],
}

type Read<T> = Result<T, CheckpointError>;
/// A trend end's key, the end without series, and its lanes per quantity.
type EndHeader = (EndKey, EndTrend, [usize; 4]);

fn int<T: TryFrom<i128>>(v: i128) -> Read<T> {
    T::try_from(v).map_err(|_| CheckpointError(format!("value {v} out of range")))
}

/// A trend value in hundredths (never [`MISSING`]).
fn small(v: i128) -> Read<i16> {
    i16::try_from(v)
        .ok()
        .filter(|v| *v != MISSING)
        .ok_or_else(|| CheckpointError(format!("trend value {v} out of range")))
}

/// Puts a window (oldest first, the newest being bucket `newest`) in a
/// series' ring.
fn place(series: &mut Series, window: &[Slot], newest: i64) {
    let len = window.len() as i64;
    for (i, slot) in window.iter().enumerate() {
        let bucket = newest - len + 1 + i as i64;
        series.ring[bucket.rem_euclid(len) as usize] = *slot;
    }
}

fn short() -> CheckpointError {
    CheckpointError("cut short".into())
}

impl Reader<'_> {
    fn byte(&mut self) -> Read<u8> {
        let b = *self.data.get(self.at).ok_or_else(short)?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Read<u128> {
        let mut v = 0u128;
        for shift in (0..128).step_by(7) {
            let b = self.byte()?;
            v |= u128::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(CheckpointError("varint too long".into()))
    }

    fn signed(&mut self) -> Read<i128> {
        Ok(unzigzag(self.varint()?))
    }

    fn time(&mut self) -> Read<Option<i64>> {
        match self.varint()? {
            0 => Ok(None),
            v => {
                let t = int(i128::from(self.time) + unzigzag(v - 1))?;
                self.time = t;
                Ok(Some(t))
            }
        }
    }

    fn counter(&mut self, base: Option<u64>) -> Read<Option<u64>> {
        match (self.varint()?, base) {
            (0, _) => Ok(None),
            (v, None) => Ok(Some(int((v - 1) as i128)?)),
            (v, Some(b)) => Ok(Some(int(i128::from(b) + unzigzag(v - 1))?)),
        }
    }

    fn float(&mut self) -> Read<f64> {
        let bytes = self.data.get(self.at..self.at + 8).ok_or_else(short)?;
        self.at += 8;
        Ok(f64::from_le_bytes(bytes.try_into().expect("8 bytes")))
    }

    fn reading(&mut self) -> Read<Option<f64>> {
        match self.byte()? {
            0 => Ok(None),
            1 => Ok(Some(self.float()?)),
            tag if u32::from(tag - 2) <= MAX_DIGITS => {
                let scale = 10f64.powi(i32::from(tag - 2));
                Ok(Some(self.signed()? as f64 / scale))
            }
            tag => Err(CheckpointError(format!("unknown reading tag {tag}"))),
        }
    }

    /// The sections of version 2: the ends' oper-status and the links' state.
    fn opers_and_links(&mut self, state: &mut FabricState) -> Read<()> {
        let opers = self.varint()?;
        let mut link = 0i64;
        for _ in 0..opers {
            link = int(i128::from(link) + self.signed()?)?;
            let flags = self.byte()?;
            let (status, status_time) = if flags & 16 != 0 {
                let code = self.byte()?;
                if !(1..=OPER_MAX).contains(&code) {
                    return Err(CheckpointError(format!("unknown oper-status {code}")));
                }
                (Some(code), self.time()?)
            } else {
                (None, None)
            };
            let end = state.ends.get_mut(&(link, flags & 1 != 0)).ok_or_else(|| {
                CheckpointError(format!("oper-status of an unknown end of link {link}"))
            })?;
            end.oper = OperEnd {
                status,
                status_time,
                dark_polls: (flags >> 2) & 3,
                relit: flags & 2 != 0,
            };
        }
        let links = self.varint()?;
        state.links.reserve(links.min(1 << 24) as usize);
        link = 0;
        for _ in 0..links {
            link = int(i128::from(link) + self.signed()?)?;
            let flags = self.byte()?;
            let up = match flags & 3 {
                0 => None,
                1 => Some(false),
                _ => Some(true),
            };
            let count = self.varint()?.min(1 << 16) as usize;
            let mut changes = Vec::with_capacity(count);
            for _ in 0..count {
                changes.push(self.time()?.ok_or_else(short)?);
            }
            state.links.insert(
                link,
                LinkOper {
                    up,
                    changes,
                    flapping: flags & 4 != 0,
                },
            );
        }
        Ok(())
    }

    fn trend_settings(&mut self) -> Read<TrendSettings> {
        let bucket_us: i64 = int(self.varint()? as i128)?;
        let buckets: usize = int(self.varint()? as i128)?;
        let settings = TrendSettings::from_seconds(bucket_us as f64 / 1e6, buckets)
            .map_err(CheckpointError)?;
        if settings.bucket_us != bucket_us {
            return Err(CheckpointError(format!("bad trend bucket {bucket_us}")));
        }
        Ok(settings)
    }

    /// What [`Writer::end_header`] wrote: the end's key, the end resumed at
    /// its time (no series yet) and its lanes per quantity.
    fn end_header(&mut self, link: &mut i64, settings: &TrendSettings) -> Read<EndHeader> {
        *link = int(i128::from(*link) + self.signed()?)?;
        let flags = self.byte()?;
        let time = self.time()?.ok_or_else(short)?;
        let end = EndTrend::resume(*link, time, settings);
        let mut lanes = [0usize; 4];
        for lane in lanes.iter_mut().take(3) {
            *lane = int::<usize>(self.varint()? as i128)?.min(1 << 16);
        }
        lanes[3] = usize::from(flags & 2 != 0);
        Ok(((*link, flags & 1 != 0), end, lanes))
    }

    fn trends(&mut self) -> Read<Option<Trends>> {
        if self.varint()? == 0 {
            return Ok(None);
        }
        let settings = self.trend_settings()?;
        let mut trends = Trends::new(settings);
        let count = self.varint()?;
        trends.ends.reserve(count.min(1 << 24) as usize);
        let mut link = 0i64;
        for _ in 0..count {
            let (key, mut end, lanes) = self.end_header(&mut link, &settings)?;
            let newest = end.newest_closed(link, &settings);
            for (k, n) in lanes.into_iter().enumerate() {
                let series = (0..n)
                    .map(|_| self.series(newest, k, &settings))
                    .collect::<Read<Vec<Series>>>()?;
                match k {
                    0 => end.rx = series,
                    1 => end.tx = series,
                    2 => end.bias = series,
                    _ => end.temperature = series,
                }
            }
            trends.ends.insert(key, end);
        }
        Ok(Some(trends))
    }

    /// The trends of a split checkpoint's bytes (see [`Writer::open_trends`]):
    /// every series with its open bucket and an empty ring.
    fn open_trends(&mut self) -> Read<Option<Trends>> {
        if self.varint()? == 0 {
            return Ok(None);
        }
        let mut trends = Trends::new(self.trend_settings()?);
        let settings = trends.settings;
        let stamps = self.varint()?;
        let (mut segment, mut stamp) = (0u32, 0i64);
        for _ in 0..stamps {
            segment = int(i128::from(segment) + self.varint()? as i128)?;
            stamp = int(i128::from(stamp) + self.signed()?)?;
            trends.stamps.insert(segment, stamp);
        }
        let count = self.varint()?;
        trends.ends.reserve(count.min(1 << 24) as usize);
        let mut link = 0i64;
        for _ in 0..count {
            let (key, mut end, lanes) = self.end_header(&mut link, &settings)?;
            for (k, (q, n)) in Quantity::ALL.into_iter().zip(lanes).enumerate() {
                for _ in 0..n {
                    let flags = self.byte()?;
                    let mut series = Series::new(settings.buckets);
                    if flags & 16 != 0 {
                        series.open = self.open(self.bases[k].0)?;
                        self.bases[k].0 = rounded_mean(series.open.sum, series.open.n) as i16;
                    }
                    series.dark_polls = flags & 3;
                    series.lit = flags & 4 != 0;
                    end.series_mut(q).push(series);
                }
            }
            trends.ends.insert(key, end);
        }
        Ok(Some(trends))
    }

    /// Refuses bytes left over.
    fn finished(&self) -> Read<()> {
        if self.at != self.data.len() {
            return Err(CheckpointError(format!(
                "{} bytes left over",
                self.data.len() - self.at
            )));
        }
        Ok(())
    }

    fn series(&mut self, newest: i64, q: usize, settings: &TrendSettings) -> Read<Series> {
        let flags = self.byte()?;
        let window = self.ring(q, settings)?;
        let mut series = Series::new(settings.buckets);
        place(&mut series, &window, newest);
        if flags & 16 != 0 {
            let base = predicted(&window, window.len(), usize::MAX, self.bases[q]).0;
            series.open = self.open(base)?;
        }
        if flags & 8 != 0 {
            series.step = Some(self.step()?);
        }
        series.dark_polls = flags & 3;
        series.lit = flags & 4 != 0;
        Ok(series)
    }

    /// A ring as [`Writer::ring`] wrote it: the window, oldest first.
    fn ring(&mut self, q: usize, settings: &TrendSettings) -> Read<Vec<Slot>> {
        let len = settings.buckets;
        let day = settings.day_lag();
        let mut window = vec![Slot::EMPTY; len];
        let mut i = 0;
        while i < len {
            let mut codes = [None, None];
            match self.byte()? {
                0 => {}
                1 => codes[0] = Some((self.varint()?, self.varint()?)),
                b if b & 0x80 != 0 => {
                    codes[0] = Some((u128::from(b & 15), u128::from((b >> 4) & 7)))
                }
                b if b & 0xC0 == 0x40 && i + 1 < len => {
                    let b = u128::from(b);
                    codes = [Some((b >> 4 & 3, b >> 3 & 1)), Some((b >> 1 & 3, b & 1))];
                }
                b => return Err(CheckpointError(format!("unknown trend bucket tag {b}"))),
            }
            for (dv, ds) in codes.into_iter().flatten() {
                let (value, std) = predicted(&window, i, day, self.bases[q]);
                let value = small(i128::from(value) + unzigzag(dv))?;
                let std: u16 = int(i128::from(std) + unzigzag(ds))?;
                window[i] = Slot { value, std };
                self.bases[q] = (value, std);
                i += 1;
            }
            if codes[0].is_none() {
                i += 1;
            }
        }
        Ok(window)
    }

    /// An open bucket as [`Writer::open`] wrote it.
    fn open(&mut self, base: i16) -> Read<Open> {
        let n: u16 = int(self.varint()? as i128)?;
        if n == 0 {
            return Err(CheckpointError(
                "an open trend bucket without samples".into(),
            ));
        }
        let mean = i128::from(base) + self.signed()?;
        let sum = mean * i128::from(n) + self.signed()?;
        let min = small(mean + self.signed()?)?;
        let max = small(mean + self.signed()?)?;
        let m2 = self.varint()? as i128;
        let sumsq = (m2 + sum * sum) / i128::from(n);
        Ok(Open {
            n,
            min,
            max,
            sum: int(sum)?,
            sumsq: int(sumsq)?,
        })
    }

    fn step(&mut self) -> Read<Step> {
        let age = self.byte()?;
        let size = small(self.signed()?)?;
        Ok(Step { age, size })
    }

    fn opt_rate(&mut self) -> Read<Option<(f64, i64)>> {
        match self.byte()? {
            0 => Ok(None),
            _ => {
                let rate = self.float()?;
                Ok(Some((rate, self.time()?.ok_or_else(short)?)))
            }
        }
    }
}

fn health_code(h: Health) -> u8 {
    match h {
        Health::Unknown => 0,
        Health::Clean => 1,
        Health::Lossy => 2,
        Health::Corrupting => 3,
    }
}

impl FabricState {
    /// The whole state as checkpoint bytes (version 3: the trends' rings
    /// inside); [`FabricState::restore`] reads them back.
    pub fn checkpoint(&self) -> Vec<u8> {
        let mut w = self.common(VERSION);
        w.trends(self.trends.as_ref());
        w.out
    }

    /// The state as a split checkpoint: the bytes of everything but the
    /// trends' closed buckets (version 4), and the segments whose closed
    /// buckets changed since the previous split checkpoint (or were never
    /// written), each stamped with `stamp` (the caller's run, e.g. its
    /// watermark; a later run's stamp must differ). The bytes list the stamp
    /// of every segment they need, so a restore refuses segments from another
    /// run. Takes the dirty set: store the segments with the bytes, in one
    /// transaction, or drop this state.
    pub fn checkpoint_split(&mut self, stamp: i64) -> (Vec<u8>, Vec<(u32, Vec<u8>)>) {
        let segments = match &mut self.trends {
            Some(trends) => {
                let mut dirty: Vec<u32> = trends.dirty.drain().collect();
                dirty.sort_unstable();
                let written = segments(trends, &dirty, stamp);
                trends.stamps.extend(dirty.iter().map(|&s| (s, stamp)));
                written
            }
            None => vec![],
        };
        let mut w = self.common(SPLIT_VERSION);
        w.open_trends(self.trends.as_ref());
        (w.out, segments)
    }

    /// Magic, version and the sections every version has but the trends.
    fn common(&self, version: u8) -> Writer {
        let mut w = Writer {
            out: Vec::with_capacity(16 + self.ends.len() * 80 + self.directions.len() * 30),
            time: 0,
            bases: [(0, 0); 4],
        };
        w.out.extend_from_slice(MAGIC);
        w.out.push(version);
        let mut ends: Vec<_> = self.ends.iter().collect();
        ends.sort_unstable_by_key(|(key, _)| **key);
        w.varint(ends.len() as u128);
        let mut link = 0i64;
        for (&(id, side), end) in ends {
            w.signed(i128::from(id) - i128::from(link));
            link = id;
            let o = &end.optical;
            w.out
                .push(u8::from(side) | u8::from(o.rx_no_light) << 1 | u8::from(o.tx_no_light) << 2);
            let win = &end.window;
            w.time(win.last_time);
            win.last.iter().for_each(|c| w.counter(*c, None));
            w.time(win.start_time);
            for k in 0..COUNTERS {
                w.counter(win.start[k], win.last[k]);
            }
            w.time(o.time);
            w.reading(o.rx);
            w.reading(o.rx_min);
            w.reading(o.tx);
            w.reading(o.tx_min);
            w.reading(o.bias);
            w.reading(o.temperature);
            w.reading(o.voltage);
        }
        let mut directions: Vec<_> = self.directions.iter().collect();
        directions.sort_unstable_by_key(|(key, _)| **key);
        w.varint(directions.len() as u128);
        link = 0;
        for (&(id, z_to_a), d) in directions {
            w.signed(i128::from(id) - i128::from(link));
            link = id;
            w.out.push(
                u8::from(z_to_a) | health_code(d.health) << 1 | u8::from(d.open.is_some()) << 3,
            );
            w.time(d.health_since);
            w.opt_rate(d.corruption);
            w.opt_rate(d.congestion);
            if let Some(e) = &d.open {
                w.float(e.rate);
                w.time(Some(e.first_seen));
                w.float(e.last_rate);
                w.float(e.peak_rate);
                w.time(Some(e.last_seen));
                w.time(e.ended_at);
            }
        }
        // Oper-status of the ends that hold one: flags (side, relit, dark
        // polls, a status follows), then the status code and its time.
        let mut opers: Vec<_> = self
            .ends
            .iter()
            .filter(|(_, end)| !end.oper.is_empty())
            .map(|(key, end)| (*key, end.oper))
            .collect();
        opers.sort_unstable_by_key(|(key, _)| *key);
        w.varint(opers.len() as u128);
        link = 0;
        for ((id, side), oper) in opers {
            w.signed(i128::from(id) - i128::from(link));
            link = id;
            w.out.push(
                u8::from(side)
                    | u8::from(oper.relit) << 1
                    | oper.dark_polls.min(3) << 2
                    | u8::from(oper.status.is_some()) << 4,
            );
            if let Some(code) = oper.status {
                w.out.push(code);
                w.time(oper.status_time);
            }
        }
        let mut links: Vec<_> = self.links.iter().collect();
        links.sort_unstable_by_key(|(key, _)| **key);
        w.varint(links.len() as u128);
        link = 0;
        for (&id, state) in links {
            w.signed(i128::from(id) - i128::from(link));
            link = id;
            let up = match state.up {
                None => 0,
                Some(false) => 1,
                Some(true) => 2,
            };
            w.out.push(up | u8::from(state.flapping) << 2);
            w.varint(state.changes.len() as u128);
            for &t in &state.changes {
                w.time(Some(t));
            }
        }
        w
    }

    /// The state a [`FabricState::checkpoint`] wrote (or a split one
    /// without segments: it refuses one that lists any).
    pub fn restore(data: &[u8]) -> Result<FabricState, CheckpointError> {
        Self::restore_split(data, &[])
    }

    /// The state a [`FabricState::checkpoint_split`] wrote: its bytes and the
    /// stored segments (those the bytes do not list are left unread: stale
    /// rows of an older state). Refuses a listed segment that is missing or
    /// carries another stamp. Whole checkpoints (versions 1 to 3) restore
    /// too, ignoring `segments`; their trends' segments are then all dirty,
    /// so the next split checkpoint writes every one.
    pub fn restore_split(
        data: &[u8],
        segments: &[(u32, &[u8])],
    ) -> Result<FabricState, CheckpointError> {
        if data.len() < 5 || &data[..4] != MAGIC {
            return Err(CheckpointError("not a telemetry checkpoint".into()));
        }
        let version = data[4];
        if !(1..=SPLIT_VERSION).contains(&version) {
            return Err(CheckpointError(format!("unknown version {version}")));
        }
        let mut r = Reader {
            data,
            at: 5,
            time: 0,
            bases: [(0, 0); 4],
        };
        let mut state = FabricState::default();
        let ends = r.varint()?;
        state.ends.reserve(ends.min(1 << 24) as usize);
        let mut link = 0i64;
        for _ in 0..ends {
            link = int(i128::from(link) + r.signed()?)?;
            let flags = r.byte()?;
            let last_time = r.time()?;
            let mut last: Counters = [None; COUNTERS];
            for c in &mut last {
                *c = r.counter(None)?;
            }
            let start_time = r.time()?;
            let mut start: Counters = [None; COUNTERS];
            for k in 0..COUNTERS {
                start[k] = r.counter(last[k])?;
            }
            let optical = Optical {
                time: r.time()?,
                rx: r.reading()?,
                rx_min: r.reading()?,
                tx: r.reading()?,
                tx_min: r.reading()?,
                bias: r.reading()?,
                temperature: r.reading()?,
                voltage: r.reading()?,
                rx_no_light: flags & 2 != 0,
                tx_no_light: flags & 4 != 0,
            };
            let window = Window {
                last_time,
                last,
                start_time,
                start,
            };
            state.ends.insert(
                (link, flags & 1 != 0),
                EndState {
                    window,
                    optical,
                    oper: OperEnd::default(),
                },
            );
        }
        let directions = r.varint()?;
        state.directions.reserve(directions.min(1 << 24) as usize);
        link = 0;
        for _ in 0..directions {
            link = int(i128::from(link) + r.signed()?)?;
            let flags = r.byte()?;
            let health = match (flags >> 1) & 3 {
                0 => Health::Unknown,
                1 => Health::Clean,
                2 => Health::Lossy,
                _ => Health::Corrupting,
            };
            let health_since = r.time()?;
            let corruption = r.opt_rate()?;
            let congestion = r.opt_rate()?;
            let open = if flags & 8 != 0 {
                Some(Episode {
                    rate: r.float()?,
                    first_seen: r.time()?.ok_or_else(short)?,
                    last_rate: r.float()?,
                    peak_rate: r.float()?,
                    last_seen: r.time()?.ok_or_else(short)?,
                    ended_at: r.time()?,
                })
            } else {
                None
            };
            state.directions.insert(
                (link, flags & 1 != 0),
                DirectionState {
                    health,
                    health_since,
                    corruption,
                    congestion,
                    open,
                },
            );
        }
        if version >= 2 {
            r.opers_and_links(&mut state)?;
        }
        if version == 3 {
            state.trends = r.trends()?;
            if let Some(trends) = &mut state.trends {
                let all: HashSet<u32> =
                    trends.ends.keys().map(|k| trends.segment_of(k.0)).collect();
                trends.dirty = all;
            }
        }
        if version == SPLIT_VERSION {
            state.trends = r.open_trends()?;
        }
        r.finished()?;
        if let Some(trends) = &mut state.trends
            && version == SPLIT_VERSION
        {
            read_segments(trends, segments)?;
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn readings_round_trip_exactly_whatever_their_digits() {
        let mut state = FabricState::default();
        let values = [
            -2.53,
            41.0,
            -0.1 + 0.2,
            1.0 / 3.0,
            -40.125,
            6.5,
            1e300,
            -0.0,
            f64::MIN_POSITIVE,
        ];
        for (i, v) in values.iter().enumerate() {
            let mut end = EndState::default();
            end.optical.rx = Some(*v);
            end.optical.tx_min = Some(-*v);
            state.ends.insert((i as i64, i % 2 == 0), end);
        }
        let restored = FabricState::restore(&state.checkpoint()).unwrap();
        for (key, end) in &state.ends {
            let back = &restored.ends[key];
            assert_eq!(
                back.optical.rx.unwrap().to_bits(),
                end.optical.rx.unwrap().to_bits()
            );
            assert_eq!(
                back.optical.tx_min.unwrap().to_bits(),
                end.optical.tx_min.unwrap().to_bits()
            );
        }
    }

    #[test]
    fn extreme_counters_and_times_round_trip() {
        let mut state = FabricState::default();
        let end = EndState {
            window: Window {
                last_time: Some(i64::MAX),
                last: [Some(u64::MAX), Some(0), None, Some(1), Some(u64::MAX)],
                start_time: Some(i64::MIN),
                start: [Some(0), Some(u64::MAX), Some(7), None, Some(u64::MAX)],
            },
            ..EndState::default()
        };
        state.ends.insert((i64::MAX, true), end);
        state.ends.insert((i64::MIN, false), EndState::default());
        assert_eq!(FabricState::restore(&state.checkpoint()).unwrap(), state);
    }

    #[test]
    fn oper_status_and_link_states_round_trip_and_version_1_still_reads() {
        let mut state = FabricState::default();
        state.ends.insert((3, false), EndState::default());
        let end = EndState {
            oper: OperEnd {
                status: Some(7),
                status_time: Some(1_000),
                dark_polls: 2,
                relit: true,
            },
            ..EndState::default()
        };
        state.ends.insert((3, true), end);
        state.links.insert(
            3,
            LinkOper {
                up: Some(false),
                changes: vec![500, 1_000],
                flapping: true,
            },
        );
        state.links.insert(9, LinkOper::default());
        assert_eq!(FabricState::restore(&state.checkpoint()).unwrap(), state);
        // Version 1 had neither section nor trends (version 3 adds their
        // byte): the same bytes without them.
        let plain = FabricState {
            ends: HashMap::from([((3, false), EndState::default())]),
            ..FabricState::default()
        };
        let mut v1 = plain.checkpoint();
        v1.truncate(v1.len() - 3);
        v1[4] = 1;
        assert_eq!(FabricState::restore(&v1).unwrap(), plain);
    }

    #[test]
    fn version_2_restores_without_trends_and_trends_round_trip() {
        use super::super::trend::Poll;
        let mut state = FabricState::default();
        state.ends.insert((4, true), EndState::default());
        // Version 2: the same bytes without the trends' byte.
        let mut v2 = state.checkpoint();
        v2.truncate(v2.len() - 1);
        v2[4] = 2;
        assert_eq!(FabricState::restore(&v2).unwrap(), state);
        state.trends = Some(Trends::new(TrendSettings::default()));
        // Five days of 5-minute polls: 4 Rx lanes (one goes dark), Tx with a
        // step, bias and temperature, at both ends of two links.
        let trends = state.trends.as_mut().unwrap();
        for k in 0..5 * 288i64 {
            let t = k as f64 / 288.0;
            let wobble = ((k * 7919) % 13) as f64 / 100.0;
            let dark = if k > 5 * 288 - 3 { f64::NAN } else { -3.2 };
            let rx = [-3.0 - 0.1 * t + wobble, dark, -3.1, -2.9 - wobble];
            let tx = [if t > 2.3 { -4.0 } else { -1.0 } + wobble];
            let bias = [30.0 + t + wobble, 31.0];
            for end in [(1, false), (1, true), (900, false), (900, true)] {
                let poll = Poll {
                    rx: &rx,
                    tx: &tx,
                    bias: &bias,
                    temperature: if k % 17 == 0 { f64::NAN } else { 40.0 + wobble },
                };
                trends.feed(end, 1_000 + k * 300_000_000, &poll);
            }
        }
        let series = &trends.ends[&(1, false)];
        assert!(series.rx[1].is_dark() && series.tx[0].step.is_some());
        let restored = FabricState::restore(&state.checkpoint()).unwrap();
        assert_eq!(restored, state);
    }

    #[test]
    fn a_steady_series_with_a_diurnal_swing_takes_about_30_bytes() {
        use super::super::trend::Poll;
        // 50 links, 4.5 days of 5-minute polls of one lane with 0.05 dB (and
        // 0.1 mA, 0.1 °C) of noise and a diurnal swing of ±0.3 dB and ±1.5
        // °C (without the swing: about 25 bytes, as the 10K-link run found).
        let mut state = FabricState {
            trends: Some(Trends::new(TrendSettings::default())),
            ..FabricState::default()
        };
        let trends = state.trends.as_mut().unwrap();
        let mut x = 0x9E37_79B9u64;
        let mut noise = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for k in 0..1296i64 {
            let swing = (k as f64 / 288.0 * std::f64::consts::TAU).sin();
            for link in 0..50 {
                for side in [false, true] {
                    let rx = [-3.0 - link as f64 / 10.0 + 0.3 * swing + 0.17 * noise()];
                    let tx = [-1.0 + 0.2 * swing + 0.17 * noise()];
                    let bias = [30.0 + 0.35 * noise()];
                    let poll = Poll {
                        rx: &rx,
                        tx: &tx,
                        bias: &bias,
                        temperature: 40.0 + 1.5 * swing + 0.35 * noise(),
                    };
                    trends.feed((link, side), k * 300_000_000, &poll);
                }
            }
        }
        let base = FabricState::default().checkpoint().len();
        let data = state.checkpoint();
        let per_series = (data.len() - base) as f64 / (100 * 4) as f64;
        assert!(per_series < 32.0, "{per_series} bytes per series");
        assert_eq!(FabricState::restore(&data).unwrap(), state);
    }

    #[test]
    fn a_run_of_five_minutes_rewrites_a_few_segments_of_the_rings() {
        use super::super::trend::Poll;
        // 2,000 links polled every 5 minutes for 4.5 days, then one more poll.
        let mut state = FabricState {
            trends: Some(Trends::new(TrendSettings::default())),
            ..FabricState::default()
        };
        let poll = |k: i64| {
            let v = -3.0 - (k % 7) as f64 / 100.0;
            ([v], [v + 1.0], [30.0])
        };
        let feed = |state: &mut FabricState, k: i64| {
            let (rx, tx, bias) = poll(k);
            let p = Poll {
                rx: &rx,
                tx: &tx,
                bias: &bias,
                temperature: 40.0,
            };
            for link in 0..2000 {
                let trends = state.trends.as_mut().unwrap();
                trends.feed((link, false), k * 300_000_000, &p);
            }
        };
        for k in 0..1296 {
            feed(&mut state, k);
        }
        let (whole, segments) = state.checkpoint_split(1);
        assert_eq!(segments.len(), TREND_SEGMENTS as usize);
        let rings: usize = segments.iter().map(|(_, d)| d.len()).sum();
        feed(&mut state, 1296);
        let (bytes, segments) = state.checkpoint_split(2);
        let rewritten: usize = segments.iter().map(|(_, d)| d.len()).sum();
        // 5 minutes of 6-hour buckets (1/72 of the links closed one) span
        // 4 or 5 segments of 84 s of phase.
        assert!(
            (4..=5).contains(&segments.len()),
            "{} segments",
            segments.len()
        );
        assert!(rewritten * 50 < rings, "{rewritten} of {rings} bytes");
        assert!(bytes.len() < whole.len() + 100);
    }

    #[test]
    fn a_segment_of_another_run_is_refused() {
        use super::super::trend::Poll;
        let mut state = FabricState {
            trends: Some(Trends::new(TrendSettings::default())),
            ..FabricState::default()
        };
        let p = Poll {
            rx: &[-3.0],
            tx: &[],
            bias: &[],
            temperature: f64::NAN,
        };
        for k in 0..200 {
            state
                .trends
                .as_mut()
                .unwrap()
                .feed((7, true), k * 300_000_000, &p);
        }
        let (first, old) = state.checkpoint_split(10);
        assert_eq!(old.len(), 1);
        let segment = old[0].0;
        let slices: Vec<(u32, &[u8])> = old.iter().map(|(k, d)| (*k, d.as_slice())).collect();
        assert_eq!(FabricState::restore_split(&first, &slices).unwrap(), state);
        // Six more hours close a bucket: the segment is rewritten, stamped 11.
        for k in 200..300 {
            state
                .trends
                .as_mut()
                .unwrap()
                .feed((7, true), k * 300_000_000, &p);
        }
        let (_, new) = state.checkpoint_split(11);
        assert_eq!(new[0].0, segment);
        let newer: Vec<(u32, &[u8])> = vec![(segment, new[0].1.as_slice())];
        assert_eq!(
            FabricState::restore_split(&first, &newer),
            Err(CheckpointError(format!(
                "trend segment {segment} holds segment {segment} of run 11, the checkpoint needs that of run 10"
            )))
        );
        assert!(FabricState::restore_split(&first, &[]).is_err());
        assert!(FabricState::restore(&first).is_err());
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let mut state = FabricState::default();
        state.ends.insert((5, false), EndState::default());
        let data = state.checkpoint();
        assert!(FabricState::restore(&data[..data.len() - 1]).is_err());
        assert!(FabricState::restore(b"nope").is_err());
        let mut other = data.clone();
        other[4] = 9;
        assert_eq!(
            FabricState::restore(&other),
            Err(CheckpointError("unknown version 9".into()))
        );
        let mut longer = data;
        longer.push(0);
        assert!(FabricState::restore(&longer).is_err());
    }
}
