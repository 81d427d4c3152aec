//! Optical circuit schedules (c-Through, seed 004 chapters 3-4; see
//! `shared/reference/circuits-cthrough.md`): every period an optical circuit
//! switch joins pairs of racks, chosen from the rack-to-rack demand.
//!
//! - [`max_weight_matching`]: exact maximum-weight matching (Edmonds'
//!   blossom algorithm, O(n^3)) on general graphs.
//! - [`slot`]: one slot's circuits: exact (b-matching by reduction when a rack
//!   has several ports), greedy, round-robin, random maximal, and the upper
//!   bound every answer's gap is measured against.
//! - [`groups`]: edge groups (pairs worth a bonus when all scheduled
//!   together): exact by subset enumeration, a local search beyond.
//! - [`plan`]: a schedule over a demand series (replay or drain), with
//!   per-port or global reconfiguration, burst filter, hysteresis, zones,
//!   unavailable ports and a time budget; [`verify`] checks one.
//! - [`ScheduleOptions`], [`choose_slot`], [`check_edges`]: the input as
//!   callers name it (option names, weighted pairs), checked once.

mod blossom;
mod error;
pub mod groups;
mod input;
mod rng;
mod schedule;
pub mod slot;
mod verify;

pub use blossom::{WeightedEdge, max_weight_matching};
pub use error::MatchingError;
pub use input::{ScheduleOptions, SlotChoice, check_edges, checked_matching, choose_slot};
pub use schedule::{
    Algorithm, Metrics, Mode, ReconfigMode, Schedule, ScheduleConfig, Slot, VisitDelayBin, Window,
    plan, plan_reporting, visit_delay_histogram,
};
pub use slot::{Candidate, Circuit};
pub use verify::verify;
