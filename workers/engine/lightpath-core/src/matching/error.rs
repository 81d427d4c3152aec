//! Errors of circuit scheduling. An invalid input reports every problem
//! found, not only the first, so a planner can fix them in one go.

use std::fmt;

/// Scheduling input that cannot be computed on.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchingError {
    /// Every problem found, each naming what it concerns.
    pub problems: Vec<String>,
}

impl MatchingError {
    /// `Err` with the collected problems, `Ok` if there are none.
    pub fn check(problems: Vec<String>) -> Result<(), Self> {
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Self { problems })
        }
    }
}

impl fmt::Display for MatchingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for MatchingError {}
