//! `TelemetryState`: one fabric's telemetry derivation state (counter windows,
//! direction health, open corruption episodes, newest optical readings) kept
//! between Python calls. Columns in, PostgreSQL COPY text and tuples out; the
//! COPY text is read and written by `lightpath_core::telemetry`.

use lightpath_core::telemetry::trend::{SCALE, Series};
use lightpath_core::telemetry::{
    COUNTERS, Counters, DirectionKey, DirectionState, EndState, Episode, FabricState,
    ForecastSettings, Health, Optical, Quantity, ReadingColumns, Settings, TrendSettings, Trends,
    read_samples_with_lanes, write_changed_directions, write_changed_ends,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

type Column<T> = Vec<T>;
type Floats = Vec<Option<f64>>;
/// (link, z_to_a, rate, first_seen, last_rate, peak_rate, last_seen, ended_at)
/// (rate, first_seen, last_rate, peak_rate, last_seen) of an open episode.
type OpenEpisode = (f64, i64, f64, f64, i64);
type EpisodeRow = (i64, bool, f64, i64, f64, f64, i64, Option<i64>);

/// Telemetry derivation state of one fabric (see `docs/telemetry.md`).
/// Times are microseconds since the epoch; a side is False for A, True for Z;
/// a direction False for a_to_z, True for z_to_a.
#[pyclass(module = "lightpath_engine", name = "TelemetryState")]
pub(crate) struct TelemetryState {
    state: FabricState,
    settings: Settings,
    /// The trends' settings, when the state keeps trends.
    trends: Option<TrendSettings>,
    changes: lightpath_core::telemetry::Changes,
}

fn counters_of(columns: &[Column<Option<u64>>; COUNTERS], i: usize) -> Counters {
    std::array::from_fn(|k| columns[k][i])
}

fn same_length(name: &str, len: usize, expected: usize) -> PyResult<()> {
    if len == expected {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "column {name} has {len} values, expected {expected}"
        )))
    }
}

#[pymethods]
impl TelemetryState {
    #[new]
    #[pyo3(signature = (window_s, max_gap_s, min_packets, action, report, *, dark_end_is_down=true, flap_changes=4, flap_window_s=3600.0, trends=true, trend_bucket_s=21600.0, trend_buckets=16))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        window_s: f64,
        max_gap_s: f64,
        min_packets: u64,
        action: f64,
        report: f64,
        dark_end_is_down: bool,
        flap_changes: u32,
        flap_window_s: f64,
        trends: bool,
        trend_bucket_s: f64,
        trend_buckets: usize,
    ) -> PyResult<Self> {
        let trend_settings = TrendSettings::from_seconds(trend_bucket_s, trend_buckets)
            .map_err(PyValueError::new_err)?;
        let trends = trends.then_some(trend_settings);
        let settings = Settings::from_seconds(
            window_s,
            max_gap_s,
            min_packets,
            action,
            report,
            dark_end_is_down,
            flap_changes,
            flap_window_s,
        )
        .map_err(PyValueError::new_err)?;
        Ok(Self {
            state: FabricState {
                trends: trends.map(Trends::new),
                ..FabricState::default()
            },
            settings,
            trends,
            changes: Default::default(),
        })
    }

    /// Number of link ends held.
    #[getter]
    fn num_ends(&self) -> usize {
        self.state.ends.len()
    }

    /// Loads stored end states (a checkpoint): counter windows and readings.
    #[allow(clippy::too_many_arguments)]
    fn load_ends(
        &mut self,
        link: Column<i64>,
        side: Column<bool>,
        last_time: Column<Option<i64>>,
        last: [Column<Option<u64>>; COUNTERS],
        start_time: Column<Option<i64>>,
        start: [Column<Option<u64>>; COUNTERS],
        optical_time: Column<Option<i64>>,
        readings: [Floats; 7],
        no_light: [Column<bool>; 2],
    ) -> PyResult<()> {
        let n = link.len();
        for (name, len) in [
            ("side", side.len()),
            ("last_time", last_time.len()),
            ("start_time", start_time.len()),
            ("optical_time", optical_time.len()),
        ]
        .into_iter()
        .chain(
            last.iter()
                .chain(start.iter())
                .map(|c| ("counters", c.len())),
        )
        .chain(readings.iter().map(|c| ("readings", c.len())))
        .chain(no_light.iter().map(|c| ("no_light", c.len())))
        {
            same_length(name, len, n)?;
        }
        for i in 0..n {
            let mut end = EndState::default();
            end.window.last_time = last_time[i];
            end.window.last = counters_of(&last, i);
            end.window.start_time = start_time[i];
            end.window.start = counters_of(&start, i);
            end.optical = optical(&readings, &no_light, i, optical_time[i]);
            self.state.ends.insert((link[i], side[i]), end);
        }
        Ok(())
    }

    /// Loads stored direction states; `open` gives each direction's open
    /// episode as (rate, first_seen, last_rate, peak_rate, last_seen) or None.
    #[allow(clippy::too_many_arguments)]
    fn load_directions(
        &mut self,
        link: Column<i64>,
        direction: Column<bool>,
        health: Column<String>,
        health_since: Column<Option<i64>>,
        corruption: Column<Option<(f64, i64)>>,
        congestion: Column<Option<(f64, i64)>>,
        open: Column<Option<OpenEpisode>>,
    ) -> PyResult<()> {
        let n = link.len();
        for len in [
            direction.len(),
            health.len(),
            health_since.len(),
            corruption.len(),
            congestion.len(),
            open.len(),
        ] {
            same_length("directions", len, n)?;
        }
        for i in 0..n {
            let health = Health::from_name(&health[i])
                .ok_or_else(|| PyValueError::new_err(format!("unknown health {:?}", health[i])))?;
            let open = open[i].map(
                |(rate, first_seen, last_rate, peak_rate, last_seen)| Episode {
                    rate,
                    first_seen,
                    last_rate,
                    peak_rate,
                    last_seen,
                    ended_at: None,
                },
            );
            self.state.directions.insert(
                (link[i], direction[i]),
                DirectionState {
                    health,
                    health_since: health_since[i],
                    corruption: corruption[i],
                    congestion: congestion[i],
                    open,
                },
            );
        }
        Ok(())
    }

    /// Drops the ends and directions of links not in `links` (deleted since);
    /// returns how many entries went.
    fn retain_links(&mut self, links: Vec<i64>) -> usize {
        self.state.retain_links(&links.into_iter().collect())
    }

    /// Makes these the open episodes, (rate, first_seen, last_rate, peak_rate,
    /// last_seen) per direction, and ends any other the state holds open: the
    /// stored open events win (a repair ends an episode outside derivation).
    fn set_open_episodes(
        &mut self,
        link: Column<i64>,
        direction: Column<bool>,
        open: Column<OpenEpisode>,
    ) -> PyResult<()> {
        same_length("direction", direction.len(), link.len())?;
        same_length("open", open.len(), link.len())?;
        let episodes = (0..link.len())
            .map(|i| {
                let (rate, first_seen, last_rate, peak_rate, last_seen) = open[i];
                let episode = Episode {
                    rate,
                    first_seen,
                    last_rate,
                    peak_rate,
                    last_seen,
                    ended_at: None,
                };
                ((link[i], direction[i]), episode)
            })
            .collect();
        self.state.set_open_episodes(&episodes);
        Ok(())
    }

    /// Applies samples given as PostgreSQL COPY text (what `COPY (SELECT ...)
    /// TO STDOUT` writes), one line per sample sorted by (batch, link, side,
    /// time): batch, link, side (`t` = Z), time (µs), the 5 counters, the 7
    /// readings (input power, its lowest lane, output power, its lowest lane,
    /// bias, temperature, voltage), Rx no light, Tx no light, oper-status
    /// (IF-MIB code 1 to 7), then the lanes of input power, output power and
    /// laser bias (PostgreSQL arrays; may be left off); `\N` for none. Every
    /// sample's optical readings feed the trends in time order per end.
    /// Returns (samples, completed windows). The changes are read with the
    /// `changed_*` methods.
    fn apply_copy(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<(usize, u64)> {
        let settings = self.settings;
        let state = &mut self.state;
        let (samples, changes) = py
            .detach(|| {
                let (samples, lanes) = read_samples_with_lanes(data)?;
                Ok::<_, lightpath_core::telemetry::CopyError>((
                    samples.len(),
                    state.apply_with_lanes(&samples, &lanes, &settings),
                ))
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.changes = changes;
        Ok((samples, self.changes.windows))
    }

    /// The whole state as checkpoint bytes (see `restore`).
    fn checkpoint<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let state = &self.state;
        let data = py.detach(|| state.checkpoint());
        PyBytes::new(py, &data)
    }

    /// The state as a split checkpoint: (bytes, [(segment, bytes)]): the
    /// small part every run rewrites, and the segments of the trends' closed
    /// buckets that changed since the previous call (or were never written),
    /// stamped with `stamp` (the run's watermark: each run's must differ).
    /// Store both in one transaction (a segment replaces the stored one of
    /// the same number), or drop this state: the changed segments are
    /// handed out once.
    fn checkpoint_split<'py>(
        &mut self,
        py: Python<'py>,
        stamp: i64,
    ) -> (Bound<'py, PyBytes>, Vec<(u32, Bound<'py, PyBytes>)>) {
        let state = &mut self.state;
        let (data, segments) = py.detach(|| state.checkpoint_split(stamp));
        let segments = segments
            .into_iter()
            .map(|(segment, bytes)| (segment, PyBytes::new(py, &bytes)))
            .collect();
        (PyBytes::new(py, &data), segments)
    }

    /// Replaces the state by the one `checkpoint` or `checkpoint_split`
    /// wrote (this object's settings are kept), with the stored `segments`
    /// (segment, bytes) of a split one. Raises ValueError on bytes that are
    /// not one, or a segment the bytes need that is missing or from another
    /// run. Trends are kept when this object keeps them with the
    /// checkpoint's settings; else they start empty (or stay off).
    #[pyo3(signature = (data, segments=vec![]))]
    fn restore<'py>(
        &mut self,
        py: Python<'py>,
        data: &[u8],
        segments: Vec<(u32, Bound<'py, PyBytes>)>,
    ) -> PyResult<()> {
        let segments: Vec<(u32, &[u8])> =
            segments.iter().map(|(s, d)| (*s, d.as_bytes())).collect();
        let mut state = py
            .detach(|| FabricState::restore_split(data, &segments))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        state.trends = match (self.trends, state.trends.take()) {
            (Some(mine), Some(kept)) if kept.settings == mine => Some(kept),
            (Some(mine), _) => Some(Trends::new(mine)),
            (None, _) => None,
        };
        self.state = state;
        self.changes = Default::default();
        Ok(())
    }

    /// Feeds only the trends with readings as little-endian columns (numpy's
    /// `tobytes`): link and time (µs) `<i8`, side `<u1` (0 = A, 1 = Z), rx,
    /// tx and bias `<f8` with `lanes` values per row (row-major),
    /// temperature `<f8`; NaN: no value. Rows in time order per end (a row
    /// at or before its end's newest reading is ignored). Returns the rows
    /// applied; `trend_changed_links` gives the links a bucket of which
    /// closed. Raises ValueError when the buffers' lengths do not match.
    #[allow(clippy::too_many_arguments)]
    fn apply_readings(
        &mut self,
        py: Python<'_>,
        link: &[u8],
        side: &[u8],
        time: &[u8],
        lanes: usize,
        rx: &[u8],
        tx: &[u8],
        bias: &[u8],
        temperature: &[u8],
    ) -> PyResult<usize> {
        let columns = ReadingColumns::new(link, side, time, lanes, rx, tx, bias, temperature)
            .map_err(|e| PyValueError::new_err(format!("apply_readings: {e}")))?;
        let state = &mut self.state;
        let (taken, links) = py.detach(|| state.apply_reading_columns(&columns));
        self.changes = lightpath_core::telemetry::Changes {
            trend_links: links,
            ..Default::default()
        };
        Ok(taken)
    }

    /// Links a trend bucket of which closed in the last `apply_copy` or
    /// `apply_readings` (sorted): their forecasts may have changed.
    fn trend_changed_links(&self) -> Vec<i64> {
        self.changes.trend_links.clone()
    }

    /// The forecasts of `links` (see docs/telemetry.md, "Trends and
    /// forecasts"): `limits` per link are (A Rx low, A Tx low, Z Rx low, Z Tx
    /// low) dBm or None; one dict per link with something to report.
    fn forecasts<'py>(
        &self,
        py: Python<'py>,
        links: Vec<i64>,
        limits: Vec<[Option<f64>; 4]>,
        now_us: i64,
        horizon_s: f64,
        min_confidence: f64,
    ) -> PyResult<Bound<'py, PyList>> {
        same_length("limits", limits.len(), links.len())?;
        if !(horizon_s.is_finite() && horizon_s > 0.0) {
            return Err(PyValueError::new_err(format!(
                "horizon_s must be positive, got {horizon_s}"
            )));
        }
        if !(0.0..=1.0).contains(&min_confidence) {
            return Err(PyValueError::new_err(format!(
                "min_confidence must be between 0 and 1, got {min_confidence}"
            )));
        }
        let settings = ForecastSettings {
            now_us,
            horizon_us: (horizon_s * 1e6).round() as i64,
            min_confidence,
        };
        let Some(trends) = &self.state.trends else {
            return Ok(PyList::empty(py));
        };
        let forecasts = py.detach(|| {
            links
                .iter()
                .zip(&limits)
                .filter_map(|(&link, limits)| trends.forecast(link, limits, &settings))
                .collect::<Vec<_>>()
        });
        let out = PyList::empty(py);
        for f in forecasts {
            let d = PyDict::new(py);
            d.set_item("link", f.link)?;
            d.set_item("at_risk", f.at_risk)?;
            d.set_item("crossing_us", f.crossing_us)?;
            d.set_item("earliest_us", f.earliest_us)?;
            d.set_item("latest_us", f.latest_us)?;
            d.set_item("confidence", f.confidence)?;
            d.set_item("cause", f.cause.name())?;
            d.set_item("side", f.side)?;
            d.set_item("quantity", f.quantity.name())?;
            d.set_item("lane", f.lane)?;
            d.set_item("level_dbm", f.level_dbm)?;
            d.set_item("slope_db_per_day", f.slope_db_per_day)?;
            d.set_item("limit_dbm", f.limit_dbm)?;
            d.set_item("cause_side", f.cause_side)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The trend series of one end (side True = Z) for charts and tests, or
    /// None when the end has none: per quantity ("rx", "tx", "bias",
    /// "temperature") a list of lanes, each with its window's buckets
    /// (end µs, value or None), slope per day and its 10th/90th percentile,
    /// level, noise, newest step (end µs, size) and dark flag.
    fn trend<'py>(
        &self,
        py: Python<'py>,
        link: i64,
        side: bool,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(trends) = &self.state.trends else {
            return Ok(None);
        };
        let Some(end) = trends.ends.get(&(link, side)) else {
            return Ok(None);
        };
        let settings = &trends.settings;
        let newest = end.newest_closed(link, settings);
        let out = PyDict::new(py);
        for quantity in Quantity::ALL {
            let lanes = PyList::empty(py);
            for series in end.series(quantity) {
                lanes.append(series_dict(py, series, link, newest, settings)?)?;
            }
            out.set_item(quantity.name(), lanes)?;
        }
        Ok(Some(out))
    }

    /// Links whose operational state the last `apply_copy` decided anew, with
    /// the state (True = up), one entry per link (its last decision). A link
    /// is down when either end's newest oper-status is not up (or, with
    /// `dark_end_is_down`, its receiver was dark on every lane for two polls),
    /// up when no end says down and one says up; ends that say nothing do
    /// not count. The first decision of a link is listed too.
    fn oper_changes(&self) -> Vec<(i64, bool)> {
        self.changes.oper_per_link()
    }

    /// Links whose flapping flag the last `apply_copy` changed, with the flag.
    fn flapping_changes(&self) -> Vec<(i64, bool)> {
        self.changes.flapping_per_link()
    }

    /// The decided state of every link held: (link, up or None, flapping).
    fn link_states(&self) -> Vec<(i64, Option<bool>, bool)> {
        self.state.link_states()
    }

    /// Links whose direction health changed in the last `apply_copy`.
    fn health_changed_links(&self) -> Vec<i64> {
        self.changes.health_changed_links()
    }

    /// The ends the last `apply` changed in what readers see, as COPY text,
    /// one line per end: link, side (a/z), counter time (µs), optical time
    /// (µs), input power, its lowest lane, output power, its lowest lane,
    /// bias, temperature, voltage, Rx no light, Tx no light (`\N` for none).
    /// Windows are not written: the checkpoint holds them.
    fn changed_ends_copy(&self) -> String {
        write_changed_ends(&self.state, &self.changes)
    }

    /// The directions changed by the last `apply` as COPY text: link,
    /// direction, health, health since, corruption rate and time, congestion
    /// rate and time.
    fn changed_directions_copy(&self) -> String {
        write_changed_directions(&self.state, &self.changes)
    }

    /// Episodes the last `apply` touched: those it ended, then the open
    /// episode of each direction it changed.
    fn changed_episodes(&self) -> Vec<EpisodeRow> {
        self.state
            .changed_episodes(&self.changes)
            .map(|(key, e): (DirectionKey, &Episode)| {
                (
                    key.0,
                    key.1,
                    e.rate,
                    e.first_seen,
                    e.last_rate,
                    e.peak_rate,
                    e.last_seen,
                    e.ended_at,
                )
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "TelemetryState(ends={}, directions={}, trend_ends={})",
            self.state.ends.len(),
            self.state.directions.len(),
            self.state.trends.as_ref().map_or(0, |t| t.ends.len())
        )
    }
}

/// One series as `trend` gives it.
fn series_dict<'py>(
    py: Python<'py>,
    series: &Series,
    link: i64,
    newest: i64,
    settings: &TrendSettings,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let first = newest - settings.buckets as i64 + 1;
    let buckets: Vec<(i64, Option<f64>)> = series
        .window(newest)
        .enumerate()
        .map(|(k, slot)| {
            let end = settings.bucket_end(link, first + k as i64);
            (
                end,
                slot.is_present().then(|| f64::from(slot.value) / SCALE),
            )
        })
        .collect();
    d.set_item("buckets", buckets)?;
    let fit = series.fit(newest, settings);
    d.set_item("slope_per_day", fit.as_ref().map(|f| f.slope))?;
    d.set_item("slope_low", fit.as_ref().map(|f| f.low))?;
    d.set_item("slope_high", fit.as_ref().map(|f| f.high))?;
    d.set_item("level", fit.as_ref().map(|f| f.level))?;
    d.set_item("noise", series.noise())?;
    d.set_item(
        "step",
        series.step.map(|s| {
            (
                settings.bucket_end(link, newest - i64::from(s.age)),
                f64::from(s.size) / SCALE,
            )
        }),
    )?;
    d.set_item("dark", series.is_dark())?;
    Ok(d)
}

fn optical(
    readings: &[Floats; 7],
    no_light: &[Column<bool>; 2],
    i: usize,
    time: Option<i64>,
) -> Optical {
    Optical {
        time,
        rx: readings[0][i],
        rx_min: readings[1][i],
        tx: readings[2][i],
        tx_min: readings[3][i],
        bias: readings[4][i],
        temperature: readings[5][i],
        voltage: readings[6][i],
        rx_no_light: no_light[0][i],
        tx_no_light: no_light[1][i],
    }
}
