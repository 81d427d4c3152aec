//! Why a work order is left for after the shift, in words a technician or an
//! operator reads (the CLI, the server's job and the UI show these as they
//! are).

use super::PlanError;
use super::decoder::Problem;

/// The kind of reason an order waits, most decisive first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaveReason {
    /// It takes longer than the whole shift.
    LongerThanShift,
    /// Its footprint leaves a ToR under its floor even alone, and no
    /// restoration of its own makes it safe.
    NeverSafe,
    /// It is safe alone only with its restoration, whose penalty makes the
    /// visit cost more than leaving the order.
    RestorationDearer,
    /// Its penalty rate is 0: a visit saves nothing.
    NoPenalty,
    /// The visits planned take the time, or footprints that cannot be down
    /// together with its own.
    NoRoom,
}

impl LeaveReason {
    /// The reason's name in answers (`longer_than_shift`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LongerThanShift => "longer_than_shift",
            Self::NeverSafe => "never_safe",
            Self::RestorationDearer => "restoration_dearer",
            Self::NoPenalty => "no_penalty",
            Self::NoRoom => "no_room",
        }
    }
}

/// One order left for later and why.
#[derive(Debug, Clone, PartialEq)]
pub struct LeftForLater {
    /// The work order's id.
    pub work_order: u64,
    /// What kind of reason it is.
    pub reason: LeaveReason,
    /// One sentence saying why, with the numbers that decide it.
    pub detail: String,
}

/// Why order `order` (unscheduled in the plan) waits: the first reason that
/// holds, in the order of [`LeaveReason`], except that an order without a
/// penalty is said to save nothing before its restoration is weighed.
pub(crate) fn why(problem: &mut Problem, order: usize) -> Result<LeftForLater, PlanError> {
    let o = &problem.orders[order];
    let work_order = o.id;
    let (duration, shift) = (o.duration_s, problem.crew.shift_s);
    let (reason, detail) = if duration > shift {
        (
            LeaveReason::LongerThanShift,
            format!(
                "it takes {} h, longer than the {} h shift",
                general(duration as f64 / 3600.0),
                general(shift as f64 / 3600.0)
            ),
        )
    } else if !problem.safe_alone(order, false)? {
        let restores = o.restoration.is_some() && problem.safe_alone(order, true)?;
        let o = &problem.orders[order];
        let done = problem.cost.visited(o, duration, true);
        let left = problem.cost.unvisited(o);
        if !restores {
            (
                LeaveReason::NeverSafe,
                "its footprint puts a ToR under its capacity floor at any time and no \
                 restoration makes it safe"
                    .to_string(),
            )
        } else if o.penalty_rate == 0.0 {
            // Nothing corrupts while it waits: "dearer than 0" would read as nonsense.
            (
                LeaveReason::NoPenalty,
                format!(
                    "its penalty rate is 0: doing it this shift saves nothing, and its \
                     restoration would add {} penalty-hours",
                    plain_number(done)
                ),
            )
        } else if done >= left {
            (
                LeaveReason::RestorationDearer,
                format!(
                    "it is safe only with its restoration, which costs more than leaving it \
                     ({} against {} penalty-hours)",
                    plain_number(done),
                    plain_number(left)
                ),
            )
        } else {
            unpriced_or_no_room(o.penalty_rate)
        }
    } else {
        unpriced_or_no_room(o.penalty_rate)
    };
    Ok(LeftForLater {
        work_order,
        reason,
        detail,
    })
}

fn unpriced_or_no_room(rate: f64) -> (LeaveReason, String) {
    if rate == 0.0 {
        (
            LeaveReason::NoPenalty,
            "its penalty rate is 0: doing it this shift saves nothing".to_string(),
        )
    } else {
        (
            LeaveReason::NoRoom,
            "no room in this shift next to the visits planned (their time, or footprints \
             that cannot be down together with its own)"
                .to_string(),
        )
    }
}

/// A number with six significant digits and no trailing zeros, as C's and
/// Python's `%g` write it (2, 0.25, 1.33333, 1e+06).
fn general(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    // The exponent after rounding to six digits.
    let scientific = format!("{value:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').expect("an exponent");
    let exponent: i32 = exponent.parse().expect("a whole exponent");
    if (-4..6).contains(&exponent) {
        let decimals = (5 - exponent) as usize;
        trim_zeros(format!("{value:.decimals$}"))
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!(
            "{}e{sign}{:02}",
            trim_zeros(mantissa.to_string()),
            exponent.abs()
        )
    }
}

/// A total as people write it: 1,310.4, 80, 2.25, 0.00464 (no exponent):
/// one decimal from 100, two from 1, else three significant digits.
pub(crate) fn plain_number(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return general(value);
    }
    let size = value.abs();
    let decimals = if size >= 100.0 {
        1
    } else if size >= 1.0 {
        2
    } else {
        (2 - size.log10().floor() as i64) as usize
    };
    let text = format!("{size:.decimals$}");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if value < 0.0 { "-" } else { "" };
    let text = if fraction.is_empty() {
        grouped
    } else {
        trim_zeros(format!("{grouped}.{fraction}"))
    };
    format!("{sign}{text}")
}

/// Drops trailing zeros after a decimal point, and the point if nothing
/// is left after it.
fn trim_zeros(text: String) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_the_cli_has_always_written_them() {
        assert_eq!(general(2.0), "2");
        assert_eq!(general(0.25), "0.25");
        assert_eq!(general(10.0), "10");
        assert_eq!(general(1000.0 / 3600.0), "0.277778");
        assert_eq!(general(1_000_000.0), "1e+06");
        assert_eq!(general(0.00001), "1e-05");
        assert_eq!(plain_number(1310.4), "1,310.4");
        assert_eq!(plain_number(80.0), "80");
        assert_eq!(plain_number(2.25), "2.25");
        assert_eq!(plain_number(0.004641), "0.00464");
        assert_eq!(plain_number(1_234_567.891), "1,234,567.9");
        assert_eq!(plain_number(0.0), "0");
    }
}
