//! RAIL (Zhuo, thesis ch. 4; see `shared/reference/rail.md`): running cheap
//! transceivers beyond their rated reach and living with the few gray links
//! that makes.
//!
//! - [`plan_stretch`]: per-link part choice without and with stretch, cost in
//!   the categories of the seed's Table 4.1, expected good-path fractions and
//!   savings curves against the maximum link length.
//! - [`worst_path`]: the worst ECMP path of a Clos fabric in linear time (the
//!   seed's Algorithm 2 with argmax pointers), correct also when a switch has
//!   several children in one pod.
//! - [`build_classes`]: K nested reliability classes by greedy removal.
//! - [`pair_fractions`]: per ToR pair, the (expected) share of good paths.
//! - [`fec::choose`]: the end-to-end coding a path of a given loss needs.

mod catalog;
mod classes;
mod cone;
mod error;
pub mod fec;
mod pairs;
mod stretch;
mod worst;

pub use catalog::{CostParams, Fiber, StretchReach, Technology, standard_catalog};
pub use classes::{Classes, DEFAULT_BOUNDS, DEFAULT_REPAIR_ABOVE, ReliabilityClass, build_classes};
pub use error::RailError;
pub use fec::{FecChoice, FecScheme, PathCoding, code_paths};
pub use pairs::{PairFractions, pair_fractions};
pub use stretch::{
    CostBreakdown, CostCategory, CostLine, LengthBand, LinkChoice, LinkLengths, PlanConfig,
    StretchPlan, SweepCurve, SweepPoint, plan_stretch,
};
pub use worst::{PathHop, WorstPath, worst_path};
