//! Errors of the CorrOpt deciders. Messages name the offending link or switch.

use std::fmt;

use super::LinkState;
use crate::fabric::{LinkId, PathError, SwitchId};

/// A CorrOpt call got input it cannot act on.
#[derive(Debug, Clone, PartialEq)]
pub enum CorrOptError {
    /// Path counting failed (64-bit overflow).
    Path(PathError),
    /// The link-state array does not have one entry per link.
    StatesLength {
        /// Number of links in the fabric.
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// A link index is out of range.
    UnknownLink {
        /// The link index given.
        link: LinkId,
        /// Number of links in the fabric.
        num_links: usize,
    },
    /// The same link appears twice in one call.
    DuplicateLink {
        /// The link index.
        link: LinkId,
    },
    /// A loss rate is not a fraction in `[0, 1]`.
    LossRate {
        /// The link index.
        link: LinkId,
        /// The value given.
        value: f64,
        /// Whether it is the downward direction's rate.
        down: bool,
    },
    /// The fast checker or switch-local check was asked about a link that is
    /// not enabled, so there is nothing to decide.
    NotEnabled {
        /// The link index.
        link: LinkId,
        /// Its current state.
        state: LinkState,
    },
    /// A capacity threshold is not a fraction in `[0, 1]`.
    Threshold {
        /// The ToR of an override, `None` for the default.
        tor: Option<SwitchId>,
        /// The value given.
        value: f64,
    },
    /// A threshold override names a switch that is not a ToR of the fabric.
    NotATor {
        /// The switch index given.
        switch: SwitchId,
    },
    /// The switch-local share `s` is not a fraction in `[0, 1]`.
    LocalShare {
        /// The value given.
        value: f64,
    },
    /// A numeric parameter of the trace generator or simulator is out of
    /// range.
    Parameter {
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// An onset of a simulated trace is unusable.
    TraceOnset {
        /// Position of the onset in the trace.
        index: usize,
        /// What is wrong with it.
        problem: String,
    },
}

impl fmt::Display for CorrOptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorrOptError::Path(err) => err.fmt(f),
            CorrOptError::StatesLength { expected, got } => write!(
                f,
                "link states have length {got} but the fabric has {expected} links"
            ),
            CorrOptError::UnknownLink { link, num_links } => write!(
                f,
                "link {link} does not exist (the fabric has {num_links} links)"
            ),
            CorrOptError::DuplicateLink { link } => {
                write!(f, "link {link} is listed more than once")
            }
            CorrOptError::LossRate { link, value, down } => write!(
                f,
                "link {link}: {}loss rate {value} is not a fraction in [0, 1]",
                if *down { "downward " } else { "" }
            ),
            CorrOptError::NotEnabled { link, state } => {
                write!(
                    f,
                    "link {link} is {state:?}, not Enabled; nothing to decide"
                )
            }
            CorrOptError::Threshold { tor: None, value } => {
                write!(f, "capacity threshold {value} is not a fraction in [0, 1]")
            }
            CorrOptError::Threshold {
                tor: Some(tor),
                value,
            } => write!(
                f,
                "ToR {tor}: capacity threshold {value} is not a fraction in [0, 1]"
            ),
            CorrOptError::NotATor { switch } => write!(
                f,
                "threshold override for switch {switch}, which is not a ToR (tier 0) of the fabric"
            ),
            CorrOptError::LocalShare { value } => {
                write!(f, "switch-local share {value} is not a fraction in [0, 1]")
            }
            CorrOptError::Parameter {
                name,
                value,
                expected,
            } => write!(f, "{name} must be {expected}, got {value}"),
            CorrOptError::TraceOnset { index, problem } => {
                write!(f, "trace onset {index}: {problem}")
            }
        }
    }
}

impl std::error::Error for CorrOptError {}

impl From<PathError> for CorrOptError {
    fn from(err: PathError) -> Self {
        CorrOptError::Path(err)
    }
}
