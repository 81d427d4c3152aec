//! CorrOpt: which corrupting links to disable so that the remaining corruption
//! penalty is smallest while every ToR keeps its required share of up-paths
//! (Zhuo et al., SIGCOMM 2017; see `shared/reference/corropt.md`).
//!
//! [`CorrOptState`] holds the link states of one fabric and its live up-path
//! counts. On it run the three deciders of the paper:
//! - the fast checker ([`CorrOptState::check`], [`CorrOptState::check_batch`]):
//!   disable a new corrupting link if and only if no ToR below it falls under
//!   its threshold; each decision costs the link's down-cone, not the fabric;
//! - the switch-local baseline ([`CorrOptState::switch_local`]): each switch
//!   may disable `floor(m (1 - s))` of its `m` up-links;
//! - the capacity guard ([`CorrOptState::evaluate`]): what a set of link
//!   state changes by anyone would do to every ToR, decided as one set;
//! - the exact optimizer ([`CorrOptState::optimize`]): prune, segment, then
//!   branch and bound, with an optional time budget;
//! - the capacity restoration ([`CorrOptState::restore`],
//!   [`CorrOptState::recover`]): the optimizer in reverse. Which links now
//!   disabled for corruption to enable, at the least added penalty, so that a
//!   repair's footprint can go out of service without a ToR falling under its
//!   floor (or so that ToRs under their requirement get back to it); or which
//!   ToRs no choice can save. The same search as the optimizer's, with the
//!   footprint down, every candidate enabled, and the floors given.
//!
//! Around them, [`generate_trace`] draws synthetic corruption onsets and
//! [`simulate`] replays a trace under a policy with a repair model
//! (section 3.6), recording penalty and capacity over time.
//!
//! Capacity constraint. ToR `t` must keep `required(t) = ceil(c_t * design(t))`
//! up-paths over enabled links, `design(t)` counting every link as usable.
//! A ToR already below that (links down, thresholds raised) must not lose any
//! more: its floor is `min(required(t), current(t))`, which is exactly what
//! "disable iff no ToR falls under its threshold" means for the fast checker.

mod checker;
mod error;
mod guard;
mod model;
mod optimizer;
mod restore;
mod sim;
mod state;
mod trace;

pub use checker::{Decision, Refusal, TorImpact, switch_local_share};
pub use error::CorrOptError;
pub use guard::SetEvaluation;
pub use model::{CorruptingLink, LinkState, Penalty, Thresholds, required_paths};
pub use optimizer::Optimization;
pub use restore::{Restoration, UnreachableTor};
pub use sim::{
    DEFAULT_FIX_PROBABILITY, DEFAULT_REPAIR_DELAY_S, Policy, PolicyComparison, REPORT_EVERY_EVENTS,
    SimConfig, SimCounts, SimResult, SimSeries, compare_policies, compare_policies_reporting,
    simulate, simulate_reporting,
};
pub use state::CorrOptState;
pub use trace::{LossBucket, Onset, TABLE_3_1_CORRUPTION, generate_trace};
