//! Errors of the RAIL computations. An invalid input reports every problem
//! found, not only the first, so a planner can fix them in one go.

use std::fmt;

/// RAIL input that cannot be computed on.
#[derive(Debug, Clone, PartialEq)]
pub struct RailError {
    /// Every problem found, each naming what it concerns (`links[3]: ...`).
    pub problems: Vec<String>,
}

impl RailError {
    /// An error with one problem.
    pub fn one(problem: impl Into<String>) -> Self {
        Self {
            problems: vec![problem.into()],
        }
    }

    /// `Err` with the collected problems, `Ok` if there are none.
    pub fn check(problems: Vec<String>) -> Result<(), Self> {
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Self { problems })
        }
    }
}

impl fmt::Display for RailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for RailError {}

/// Checks that `values` has one entry per link and every entry is a fraction
/// in `[0, 1]`; problems are appended to `problems`, at most 10 values named.
pub(crate) fn check_fractions(
    name: &str,
    values: &[f64],
    num_links: usize,
    problems: &mut Vec<String>,
) {
    if values.len() != num_links {
        problems.push(format!(
            "{name}: expected one value per link ({num_links}), got {}",
            values.len()
        ));
        return;
    }
    let bad: Vec<String> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| !(0.0..=1.0).contains(*v))
        .map(|(i, v)| format!("{name}[{i}]: {v} is not a fraction in [0, 1]"))
        .collect();
    let extra = bad.len().saturating_sub(10);
    problems.extend(bad.into_iter().take(10));
    if extra > 0 {
        problems.push(format!("{name}: {extra} more values outside [0, 1]"));
    }
}
