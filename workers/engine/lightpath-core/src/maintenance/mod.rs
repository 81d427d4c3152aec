//! The maintenance planner: which technician repairs which work order when,
//! so that no instant of the day puts a ToR under its capacity floor and
//! corruption costs the fewest expected penalty-hours (issue #18; CorrOpt
//! sections 3.4.2 and 3.6.2 for the repair model).
//!
//! Input. A fabric state ([`CorrOptState`]: link states, thresholds), the
//! open [`WorkOrder`]s (footprint links, duration, success probability,
//! location, penalty rate while unrepaired, an optional [`Restoration`]),
//! the [`Crew`] (technicians, shift length), a [`TravelModel`] (same rack,
//! same row, elsewhere) and [`PlanOptions`].
//!
//! Capacity. While a visit lasts, `[start_s, end_s)`, its footprint links are
//! down and, if the plan uses its restoration, the restoration's links (now
//! disabled) are enabled; outside visits every link is in its given state
//! (what a repair brings back is not counted on). At every instant the
//! visits active then are evaluated as one set by the capacity guard
//! ([`CorrOptState::evaluate`]): every ToR keeps at least its floor,
//! `min(required, current)`. A visit whose restoration enables a link never
//! overlaps a visit with that link in its footprint: a technician is never
//! told to enable a link another technician has out, and a visit's
//! `restored` links are up for the whole visit.
//!
//! Expected penalty-hours. With `T` the shift length, `D` the service time
//! of the repair queue ([`PlanOptions::service_time_s`], two days) and
//! times in hours, an order of penalty rate `r` and success probability `p`
//! costs
//! - visited, its visit ending at `e`: `r * (e + (1 - p) * D)` (fixed at `e`
//!   with probability `p`, otherwise it waits `D` more), plus, if its
//!   restoration is used, the restoration's rate times the visit's duration;
//! - not visited in the shift: `r * (T + D)`.
//!
//! A plan's cost is the sum over the orders. Visiting always costs less than
//! not visiting (`e <= T`), so the planner's question is which orders fit in
//! the shift and how early.
//!
//! Plans. A plan is decoded from a list of (work order, technician): in list
//! order, each order starts at the earliest instant that its technician can
//! be on site (after the previous visit and the travel; a technician's first
//! visit can start at 0) and at which it is safe for its whole duration
//! together with the visits already placed, without its restoration or with
//! it, whichever costs less; an order that fits nowhere in the shift, or
//! whose only visits cost more than leaving it (a dear restoration), is
//! unscheduled, and the plan says why ([`LeftForLater`]). First in first out is the list in id order, each to the
//! technician free first. Up to [`PlanOptions::exact_up_to`] orders (10),
//! branch and bound over all lists finds the least cost
//! ([`MaintenancePlan::proven_optimal`]); beyond, a greedy list (by penalty
//! saved per second of work, each order to the technician where it ends
//! first) is improved by local search within the time budget. The plan
//! returned never costs more than first in first out.
//!
//! Lower bound (for the heuristic). Write an order's cost as
//! `r (1 - p) D + r K` when not visited, `K = T + p D`, and
//! `r (1 - p) D + r e` when visited; so a plan costs
//! `sum r ((1 - p) D + K) - sum_visited r (K - e)` (restorations only add).
//! A visit ends no earlier than its duration `d`, so it saves at most
//! `r (K - d)`, and the visits of a plan fit in `technicians * T` seconds of
//! work. The savings are therefore at most the fractional knapsack of values
//! `r (K - d)` and weights `d` in that capacity. A second bound charges the
//! visits' sequencing: on `m` technicians the ends of the visited set `V`
//! satisfy `sum r e >= sum r C1 / m + (m - 1) / (2 m) sum r d` (Eastman, Even
//! and Isaacs), `C1` the ends of `V` done by one technician in order of
//! `r / d`, and the best `V` under that charge is found exactly by dynamic
//! programming over the work done. The larger of the two is
//! [`MaintenancePlan::lower_bound`]; [`MaintenancePlan::gap`] is relative to
//! the plan's cost. Both bounds take only the orders some list could place:
//! one unsafe even beside every restoration that could be up with it, or
//! longer than the shift, costs its unvisited penalty in every plan.
//!
//! [`CorrOptState`]: crate::corropt::CorrOptState
//! [`CorrOptState::evaluate`]: crate::corropt::CorrOptState::evaluate

mod cost;
mod decoder;
mod error;
mod input;
mod later;
mod planner;
mod search;

pub use error::PlanError;
pub use input::{Crew, Location, PlanOptions, Restoration, TravelModel, WorkOrder, row_of};
pub use later::{LeaveReason, LeftForLater};
pub use planner::{MaintenancePlan, Planner, Schedule, Visit, plan};
