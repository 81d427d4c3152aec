//! Errors of the maintenance planner. Messages name the offending work order.

use std::fmt;

use crate::corropt::{CorrOptError, LinkState};
use crate::fabric::LinkId;

/// The planner got input it cannot plan with.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    /// Evaluating a set of link changes failed (unknown link, overflow).
    CorrOpt(CorrOptError),
    /// No technicians: nobody can make a visit.
    NoTechnicians,
    /// Two work orders have the same id.
    DuplicateOrder {
        /// The id given twice.
        id: u64,
    },
    /// A list names a work order that is not in the input.
    UnknownOrder {
        /// The id given.
        id: u64,
    },
    /// A list names a technician beyond the crew.
    UnknownTechnician {
        /// The technician given.
        technician: u32,
        /// How many the crew has.
        technicians: u32,
    },
    /// A work order's footprint is empty: the repair would take nothing down,
    /// so it is not maintenance the planner can order.
    EmptyFootprint {
        /// The work order.
        id: u64,
    },
    /// A work order names a link the fabric does not have.
    UnknownLink {
        /// The work order.
        id: u64,
        /// The link index given.
        link: LinkId,
        /// Number of links in the fabric.
        num_links: usize,
    },
    /// A link appears twice in one work order's footprint or restoration.
    RepeatedLink {
        /// The work order.
        id: u64,
        /// The link index.
        link: LinkId,
    },
    /// A restoration link is not disabled now, so it cannot be re-enabled
    /// for the repair (an enabled link adds nothing, a down one cannot work).
    RestorationNotDisabled {
        /// The work order.
        id: u64,
        /// The link index.
        link: LinkId,
        /// Its current state.
        state: LinkState,
    },
    /// A visit must take time.
    ZeroDuration {
        /// The work order.
        id: u64,
    },
    /// A number that must be finite and at least 0 (a penalty rate) or a
    /// probability in `[0, 1]` is not.
    Number {
        /// The work order.
        id: u64,
        /// The field's name.
        field: &'static str,
        /// The value given.
        value: f64,
    },
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::CorrOpt(err) => err.fmt(f),
            PlanError::NoTechnicians => write!(f, "at least one technician is needed"),
            PlanError::DuplicateOrder { id } => write!(f, "work order {id} is given twice"),
            PlanError::UnknownOrder { id } => write!(f, "work order {id} is not open"),
            PlanError::UnknownTechnician {
                technician,
                technicians,
            } => write!(
                f,
                "technician {technician} does not exist (the crew has {technicians})"
            ),
            PlanError::EmptyFootprint { id } => {
                write!(f, "work order {id}: the footprint names no link")
            }
            PlanError::UnknownLink {
                id,
                link,
                num_links,
            } => write!(
                f,
                "work order {id}: link {link} does not exist (the fabric has {num_links} links)"
            ),
            PlanError::RepeatedLink { id, link } => {
                write!(f, "work order {id}: link {link} is named twice")
            }
            PlanError::RestorationNotDisabled { id, link, state } => write!(
                f,
                "work order {id}: restoration link {link} is {state:?}, not disabled"
            ),
            PlanError::ZeroDuration { id } => {
                write!(f, "work order {id}: duration_s must be at least 1")
            }
            PlanError::Number { id, field, value } => {
                write!(f, "work order {id}: {field} {value} is out of range")
            }
        }
    }
}

impl std::error::Error for PlanError {}

impl From<CorrOptError> for PlanError {
    fn from(err: CorrOptError) -> Self {
        PlanError::CorrOpt(err)
    }
}
