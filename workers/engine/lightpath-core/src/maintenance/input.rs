//! What the planner is given: work orders, the crew, the travel model and
//! options, and the checks on them.

use std::collections::HashSet;
use std::time::Duration;

use super::PlanError;
use crate::corropt::{DEFAULT_REPAIR_DELAY_S, LinkState};
use crate::fabric::LinkId;

/// Where a work order is done: a rack in a row of the hall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    /// The rack (any number that identifies it within the fabric).
    pub rack: u32,
    /// The row the rack stands in.
    pub row: u32,
}

/// The row a rack stands in, by name: the switch's pod when it has one (a
/// pod's racks stand in one row), else the rack name before its last `-`
/// (`p1-rack5` in row `p1`), else the rack itself. The one rule of rows for
/// the backend (locations, plans) and the CLI's offline planner alike; there
/// is no row field, since the documents imported carry pods and rack names.
pub fn row_of(rack: &str, pod: Option<i64>) -> String {
    if let Some(pod) = pod {
        return format!("pod {pod}");
    }
    match rack.rsplit_once('-') {
        Some((head, _)) if !head.is_empty() => head.to_owned(),
        _ => rack.to_owned(),
    }
}

/// Seconds a technician needs to walk from one visit to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TravelModel {
    /// Between two visits at the same rack (usually 0).
    pub same_rack_s: u64,
    /// Between racks of the same row.
    pub same_row_s: u64,
    /// Between rows.
    pub elsewhere_s: u64,
}

impl TravelModel {
    /// Travel time from `from` to `to`.
    pub fn between(&self, from: Location, to: Location) -> u64 {
        if from.row != to.row {
            self.elsewhere_s
        } else if from.rack != to.rack {
            self.same_row_s
        } else {
            self.same_rack_s
        }
    }
}

/// Links re-enabled for the duration of a repair so that its footprint is
/// safe (computed by the capacity restoration; taken as given here).
#[derive(Debug, Clone, PartialEq)]
pub struct Restoration {
    /// Links now disabled for corruption, enabled while the repair lasts.
    pub links: Vec<LinkId>,
    /// Their penalty per hour while enabled.
    pub penalty_rate: f64,
}

/// One open work order: one visit repairs it (with some chance).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkOrder {
    /// Its id; first-in-first-out visits orders in ascending id.
    pub id: u64,
    /// Links out of service while the repair is done.
    pub footprint: Vec<LinkId>,
    /// How long the visit takes on site, in seconds.
    pub duration_s: u64,
    /// Chance that the visit fixes it (0.8 when the recommendation is
    /// followed, 0.5 otherwise, as CorrOpt measured).
    pub success_probability: f64,
    /// Where the work is done.
    pub location: Location,
    /// Penalty per hour while unrepaired: the penalty of its corrupting links
    /// still enabled (0 if they are all disabled).
    pub penalty_rate: f64,
    /// Links to enable during the visit when its footprint alone is unsafe.
    pub restoration: Option<Restoration>,
}

/// The technicians on shift. All start at time 0 and are alike; each starts
/// at the site of their first visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crew {
    /// How many technicians work at the same time.
    pub technicians: u32,
    /// Length of the shift in seconds; every visit ends within it.
    pub shift_s: u64,
}

/// How the planner searches and what it assumes after the shift.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanOptions {
    /// Time until a work order not fixed in the shift is fixed: the service
    /// time of the repair queue (two days, CorrOpt section 3.4.2).
    pub service_time_s: u64,
    /// At most this many work orders are solved exactly (branch and bound);
    /// more get the heuristic and a lower bound.
    pub exact_up_to: usize,
    /// Wall-clock budget of the search (branch and bound or local search).
    pub time_budget: Duration,
    /// Seed of the local search's random moves (the plan is reproducible
    /// for a seed when the budget is not what stops the search).
    pub seed: u64,
}

impl Default for PlanOptions {
    fn default() -> Self {
        Self {
            service_time_s: DEFAULT_REPAIR_DELAY_S as u64,
            exact_up_to: 10,
            time_budget: Duration::from_secs(3),
            seed: 0x5eed,
        }
    }
}

/// Checks every work order against the fabric's link states.
pub(crate) fn check_orders(
    orders: &[WorkOrder],
    crew: &Crew,
    states: &[LinkState],
) -> Result<(), PlanError> {
    if crew.technicians == 0 {
        return Err(PlanError::NoTechnicians);
    }
    let mut ids = HashSet::with_capacity(orders.len());
    for order in orders {
        let id = order.id;
        if !ids.insert(id) {
            return Err(PlanError::DuplicateOrder { id });
        }
        if order.footprint.is_empty() {
            return Err(PlanError::EmptyFootprint { id });
        }
        if order.duration_s == 0 {
            return Err(PlanError::ZeroDuration { id });
        }
        check_number(id, "success_probability", order.success_probability, 1.0)?;
        check_number(id, "penalty_rate", order.penalty_rate, f64::INFINITY)?;
        let mut seen = HashSet::new();
        let restored = order.restoration.iter().flat_map(|r| &r.links);
        for &link in order.footprint.iter().chain(restored) {
            if link as usize >= states.len() {
                return Err(PlanError::UnknownLink {
                    id,
                    link,
                    num_links: states.len(),
                });
            }
            if !seen.insert(link) {
                return Err(PlanError::RepeatedLink { id, link });
            }
        }
        if let Some(restoration) = &order.restoration {
            check_number(
                id,
                "restoration penalty_rate",
                restoration.penalty_rate,
                f64::INFINITY,
            )?;
            for &link in &restoration.links {
                let state = states[link as usize];
                if state != LinkState::Disabled {
                    return Err(PlanError::RestorationNotDisabled { id, link, state });
                }
            }
        }
    }
    Ok(())
}

/// `value` must lie in `[0, max]` (and not be NaN; infinity only as a bound).
fn check_number(id: u64, field: &'static str, value: f64, max: f64) -> Result<(), PlanError> {
    if value.is_finite() && (0.0..=max).contains(&value) {
        Ok(())
    } else {
        Err(PlanError::Number { id, field, value })
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_rack_stands_in_its_pods_row_else_its_name_prefixs() {
        assert_eq!(row_of("p1-rack5", Some(3)), "pod 3");
        assert_eq!(row_of("p1-rack5", None), "p1");
        assert_eq!(row_of("hall-a-r7", None), "hall-a");
        assert_eq!(row_of("rack5", None), "rack5");
        assert_eq!(row_of("-r1", None), "-r1");
    }

    use super::*;

    fn order(id: u64, footprint: Vec<LinkId>) -> WorkOrder {
        WorkOrder {
            id,
            footprint,
            duration_s: 900,
            success_probability: 0.8,
            location: Location { rack: 1, row: 1 },
            penalty_rate: 1.0,
            restoration: None,
        }
    }

    #[test]
    fn travel_depends_on_rack_and_row() {
        let travel = TravelModel {
            same_rack_s: 0,
            same_row_s: 120,
            elsewhere_s: 600,
        };
        let a = Location { rack: 1, row: 1 };
        assert_eq!(travel.between(a, a), 0);
        assert_eq!(travel.between(a, Location { rack: 2, row: 1 }), 120);
        assert_eq!(travel.between(a, Location { rack: 1, row: 2 }), 600);
    }

    #[test]
    fn bad_orders_are_refused_with_their_id() {
        let crew = Crew {
            technicians: 1,
            shift_s: 3600,
        };
        let states = vec![LinkState::Enabled, LinkState::Disabled, LinkState::Down];
        let check = |orders: &[WorkOrder]| check_orders(orders, &crew, &states);
        assert_eq!(check(&[order(1, vec![0])]), Ok(()));
        assert_eq!(
            check(&[order(1, vec![0]), order(1, vec![2])]),
            Err(PlanError::DuplicateOrder { id: 1 })
        );
        assert_eq!(
            check(&[order(4, vec![7])]).unwrap_err().to_string(),
            "work order 4: link 7 does not exist (the fabric has 3 links)"
        );
        let mut bad = order(5, vec![0]);
        bad.success_probability = 1.5;
        assert_eq!(
            check(&[bad]).unwrap_err().to_string(),
            "work order 5: success_probability 1.5 is out of range"
        );
        let mut bad = order(6, vec![0]);
        bad.restoration = Some(Restoration {
            links: vec![2],
            penalty_rate: 1.0,
        });
        assert_eq!(
            check(&[bad]),
            Err(PlanError::RestorationNotDisabled {
                id: 6,
                link: 2,
                state: LinkState::Down
            })
        );
        let mut bad = order(7, vec![1]);
        bad.restoration = Some(Restoration {
            links: vec![1],
            penalty_rate: 1.0,
        });
        assert_eq!(
            check(&[bad]),
            Err(PlanError::RepeatedLink { id: 7, link: 1 })
        );
        assert_eq!(
            check(&[order(8, vec![])]),
            Err(PlanError::EmptyFootprint { id: 8 })
        );
        let none = Crew {
            technicians: 0,
            shift_s: 3600,
        };
        assert_eq!(
            check_orders(&[], &none, &states),
            Err(PlanError::NoTechnicians)
        );
    }
}
