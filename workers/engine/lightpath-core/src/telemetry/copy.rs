//! PostgreSQL COPY text (the format `COPY ... TO STDOUT` writes and
//! `COPY ... FROM STDIN` reads) in and out of the derivation: the samples a
//! run reads, and the ends and directions it changed for the backend to write.
//!
//! Fields are tab-separated, one row per line, `\N` for NULL, booleans `t` and
//! `f`. The values written and read here never hold a tab, a newline or a
//! backslash, so no escaping is needed.

use std::fmt::Write;

use super::{COUNTERS, Changes, Counters, FabricState, OPER_MAX, Optical, Sample, SampleLanes};

/// COPY text that is not the samples [`read_samples`] expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyError {
    /// The bytes are not UTF-8 (the error's text).
    NotUtf8(String),
    /// A line is malformed.
    Line {
        /// Line number, from 1.
        number: usize,
        /// What is wrong ("too few fields", "not an integer", ...).
        problem: &'static str,
        /// The line.
        text: String,
    },
    /// Two samples are out of (batch, link, side, time) order, or repeated.
    Unsorted,
}

impl std::fmt::Display for CopyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotUtf8(err) => write!(f, "COPY text is not UTF-8: {err}"),
            Self::Line {
                number,
                problem,
                text,
            } => write!(f, "COPY line {number}: {problem}: {text:?}"),
            Self::Unsorted => {
                f.write_str("samples must be sorted by (batch, link, side, time) without repeats")
            }
        }
    }
}

impl std::error::Error for CopyError {}

/// Samples from COPY text, one line per sample sorted by (batch, link, side,
/// time) without repeats: batch, link, side (`t` = Z), time (µs), the 5
/// counters, the 7 readings (input power, its lowest lane, output power, its
/// lowest lane, bias, temperature, voltage), Rx no light, Tx no light,
/// oper-status (IF-MIB code 1 to [`OPER_MAX`]); `\N` for none. The lane
/// arrays that may follow are read and dropped (see
/// [`read_samples_with_lanes`]).
pub fn read_samples(data: &[u8]) -> Result<Vec<Sample>, CopyError> {
    Ok(read_samples_with_lanes(data)?.0)
}

/// [`read_samples`] with the per-lane readings: a line may end with three
/// more fields, the lanes of input power, output power and laser bias, each
/// PostgreSQL array text (`{-2.1,-2.3,NULL,-2.2}`, NULL: a dark or missing
/// lane) or `\N`. A line without them (the layout before lanes) has none.
pub fn read_samples_with_lanes(data: &[u8]) -> Result<(Vec<Sample>, SampleLanes), CopyError> {
    let text = std::str::from_utf8(data).map_err(|e| CopyError::NotUtf8(e.to_string()))?;
    let mut samples = Vec::with_capacity(text.len() / 80);
    let mut lanes = SampleLanes {
        offsets: vec![0],
        values: vec![],
    };
    for (n, line) in text.lines().enumerate() {
        samples.push(sample(line, &mut lanes).map_err(|problem| CopyError::Line {
            number: n + 1,
            problem,
            text: line.to_owned(),
        })?);
    }
    let order = |s: &Sample| (s.batch, s.end, s.time);
    if samples.windows(2).any(|w| order(&w[0]) >= order(&w[1])) {
        return Err(CopyError::Unsorted);
    }
    Ok((samples, lanes))
}

/// Appends the values of a PostgreSQL array text (NaN for NULL or a value
/// that is not finite), or nothing for `\N`.
fn lane_array(field: &str, values: &mut Vec<f64>) -> Result<(), &'static str> {
    if field == "\\N" {
        return Ok(());
    }
    let inner = field
        .strip_prefix('{')
        .and_then(|f| f.strip_suffix('}'))
        .ok_or("not an array")?;
    if inner.is_empty() {
        return Ok(());
    }
    for item in inner.split(',') {
        values.push(match item {
            "NULL" => f64::NAN,
            item => {
                let v = item.parse::<f64>().map_err(|_| "not an array of numbers")?;
                if v.is_finite() { v } else { f64::NAN }
            }
        });
    }
    Ok(())
}

/// One line of [`read_samples`], or what is wrong with it; its lanes go to `lanes`.
fn sample(line: &str, lanes: &mut SampleLanes) -> Result<Sample, &'static str> {
    let mut fields = line.split('\t');
    let mut next = || fields.next().ok_or("too few fields");
    let int = |f: &str| f.parse::<i64>().map_err(|_| "not an integer");
    let flag = |f: &str| match f {
        "t" => Ok(true),
        "f" => Ok(false),
        _ => Err("not a boolean"),
    };
    let batch = int(next()?)?;
    let link = int(next()?)?;
    let side = flag(next()?)?;
    let time = int(next()?)?;
    let mut counters: Counters = [None; COUNTERS];
    for c in &mut counters {
        *c = match next()? {
            "\\N" => None,
            f => Some(f.parse::<u64>().map_err(|_| "not a counter")?),
        };
    }
    let mut readings = [None; 7];
    for r in &mut readings {
        *r = match next()? {
            "\\N" => None,
            f => Some(f.parse::<f64>().map_err(|_| "not a number")?),
        };
    }
    let rx_no_light = flag(next()?)?;
    let tx_no_light = flag(next()?)?;
    let oper = match next()? {
        "\\N" => None,
        f => match f.parse::<u8>() {
            Ok(code) if (1..=OPER_MAX).contains(&code) => Some(code),
            _ => return Err("not an oper-status code"),
        },
    };
    // The three lane arrays come together or not at all.
    let arrays: Vec<&str> = fields.collect();
    if arrays.len() != 3 && !arrays.is_empty() {
        return Err("too many fields");
    }
    for q in 0..3 {
        if let Some(field) = arrays.get(q) {
            lane_array(field, &mut lanes.values)?;
        }
        lanes.offsets.push(lanes.values.len() as u32);
    }
    let [rx, rx_min, tx, tx_min, bias, temperature, voltage] = readings;
    Ok(Sample {
        batch,
        end: (link, side),
        time,
        counters,
        optical: Optical {
            time: None,
            rx,
            rx_min,
            tx,
            tx_min,
            bias,
            temperature,
            voltage,
            rx_no_light,
            tx_no_light,
        },
        oper,
    })
}

/// The ends `changes` lists, as COPY text, one line per end: link, side
/// (a/z), counter time (µs), optical time (µs), input power, its lowest lane,
/// output power, its lowest lane, bias, temperature, voltage, Rx no light, Tx
/// no light. Windows are not written: the checkpoint holds them.
pub fn write_changed_ends(state: &FabricState, changes: &Changes) -> String {
    let mut out = String::with_capacity(changes.ends.len() * 100);
    for key in &changes.ends {
        let end = &state.ends[key];
        let o = &end.optical;
        let _ = write!(out, "{}\t{}", key.0, if key.1 { 'z' } else { 'a' });
        field(&mut out, end.window.last_time);
        field(&mut out, o.time);
        for value in [
            o.rx,
            o.rx_min,
            o.tx,
            o.tx_min,
            o.bias,
            o.temperature,
            o.voltage,
        ] {
            field(&mut out, value);
        }
        let _ = writeln!(out, "\t{}\t{}", o.rx_no_light, o.tx_no_light);
    }
    out
}

/// The directions `changes` lists, as COPY text: link, direction (a_to_z or
/// z_to_a), health, health since, corruption rate and time, congestion rate
/// and time.
pub fn write_changed_directions(state: &FabricState, changes: &Changes) -> String {
    let mut out = String::with_capacity(changes.directions.len() * 100);
    for key in &changes.directions {
        let d = &state.directions[key];
        let direction = if key.1 { "z_to_a" } else { "a_to_z" };
        let _ = write!(out, "{}\t{direction}\t{}", key.0, d.health.name());
        field(&mut out, d.health_since);
        field(&mut out, d.corruption.map(|c| c.0));
        field(&mut out, d.corruption.map(|c| c.1));
        field(&mut out, d.congestion.map(|c| c.0));
        field(&mut out, d.congestion.map(|c| c.1));
        out.push('\n');
    }
    out
}

/// A tab and the value, or `\N`; floats in their shortest exact form (what
/// PostgreSQL reads back as the same double).
fn field<T: std::fmt::Display>(out: &mut String, value: Option<T>) {
    match value {
        Some(v) => {
            let _ = write!(out, "\t{v}");
        }
        None => out.push_str("\t\\N"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{OperSettings, Settings};
    use super::*;

    const LINE: &str =
        "7\t42\tt\t1000\t100\t2\t\\N\t50\t0\t-3.4\t\\N\t1.25\t1\t6.5\t41\t3.3\tf\tt\t2";

    #[test]
    fn reads_a_line_with_nulls() {
        let samples = read_samples(format!("{LINE}\n").as_bytes()).unwrap();
        assert_eq!(samples.len(), 1);
        let s = &samples[0];
        assert_eq!((s.batch, s.end, s.time), (7, (42, true), 1000));
        assert_eq!(s.counters, [Some(100), Some(2), None, Some(50), Some(0)]);
        assert_eq!(s.optical.rx, Some(-3.4));
        assert_eq!(s.optical.rx_min, None);
        assert_eq!(s.optical.voltage, Some(3.3));
        assert!(!s.optical.rx_no_light && s.optical.tx_no_light);
        assert_eq!(s.optical.time, None);
        assert_eq!(s.oper, Some(2));
        assert_eq!(read_samples(b"").unwrap(), vec![]);
    }

    #[test]
    fn names_the_line_and_the_problem() {
        let cases = [
            (LINE.replacen("7", "x", 1), "not an integer"),
            (LINE.replacen("\tt\t", "\ty\t", 1), "not a boolean"),
            (LINE.replacen("\t100\t", "\t-1\t", 1), "not a counter"),
            (LINE.replacen("-3.4", "low", 1), "not a number"),
            (LINE.replace("\tt\t2", "\tt\t8"), "not an oper-status code"),
            (LINE.replace("\tt\t2", "\tt\t0"), "not an oper-status code"),
            (LINE.replace("\tt\t2", "\tt"), "too few fields"),
            (format!("{LINE}\tx"), "too many fields"),
        ];
        for (line, problem) in cases {
            let data = format!("{LINE}\n{line}\n");
            let err = read_samples(data.as_bytes()).unwrap_err();
            assert_eq!(
                err,
                CopyError::Line {
                    number: 2,
                    problem,
                    text: line.clone()
                },
                "{line}"
            );
            assert_eq!(err.to_string(), format!("COPY line 2: {problem}: {line:?}"));
        }
        let err = read_samples(b"\xff").unwrap_err();
        assert!(err.to_string().starts_with("COPY text is not UTF-8: "));
    }

    #[test]
    fn refuses_unsorted_and_repeated_samples() {
        let later = LINE.replacen("\t1000\t", "\t2000\t", 1);
        assert!(read_samples(format!("{LINE}\n{later}\n").as_bytes()).is_ok());
        for data in [format!("{later}\n{LINE}\n"), format!("{LINE}\n{LINE}\n")] {
            assert_eq!(read_samples(data.as_bytes()), Err(CopyError::Unsorted));
        }
    }

    #[test]
    fn writes_what_changed() {
        let settings = Settings {
            window_us: 10,
            max_gap_us: 100,
            min_packets: 1,
            action: 1e-6,
            report: 1e-8,
            oper: OperSettings::default(),
        };
        let second =
            LINE.replacen("\t1000\t", "\t1010\t", 1)
                .replacen("\t100\t2\t", "\t300\t4\t", 1);
        let samples = read_samples(format!("{LINE}\n{second}\n").as_bytes()).unwrap();
        let mut state = FabricState::default();
        let changes = state.apply(&samples, &settings);
        assert_eq!(
            write_changed_ends(&state, &changes),
            "42\tz\t1010\t1010\t-3.4\t\\N\t1.25\t1\t6.5\t41\t3.3\tfalse\ttrue\n"
        );
        // 2 of 202 frames corrupted on the direction Z receives (a_to_z).
        assert_eq!(
            write_changed_directions(&state, &changes),
            format!(
                "42\ta_to_z\tcorrupting\t1010\t{}\t1010\t\\N\t\\N\n",
                2.0 / 202.0
            )
        );
    }
}
