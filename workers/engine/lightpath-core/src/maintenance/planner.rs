//! The planner's entry points and its result.

use std::collections::HashMap;
use std::time::Instant;

use super::cost::CostModel;
use super::decoder::{Decoding, Problem};
use super::input::check_orders;
use super::later::why;
use super::search::{branch_and_bound, fifo, greedy, local_search, priority_list, replay};
use super::{Crew, LeftForLater, PlanError, PlanOptions, TravelModel, WorkOrder};
use crate::corropt::CorrOptState;
use crate::fabric::LinkId;

/// One visit of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visit {
    /// The technician (0 to `technicians - 1`).
    pub technician: u32,
    /// The work order's id.
    pub work_order: u64,
    /// When the work starts on site, in seconds from the shift's start.
    pub start_s: u64,
    /// When it ends and the footprint is back.
    pub end_s: u64,
    /// The links out of service from `start_s` to `end_s` (the footprint).
    pub links_down: Vec<LinkId>,
    /// The disabled links enabled from `start_s` to `end_s` (the order's
    /// restoration, when the plan uses it; empty otherwise).
    pub restored: Vec<LinkId>,
}

/// A decoded list of visits and what it is expected to cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Visits by technician, each technician's in time order.
    pub visits: Vec<Visit>,
    /// Ids of the work orders no technician reaches within the shift,
    /// ascending.
    pub unscheduled: Vec<u64>,
    /// Expected penalty-hours of every work order under this schedule.
    pub expected_penalty_hours: f64,
}

/// The planner's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct MaintenancePlan {
    /// Visits by technician, each technician's in time order.
    pub visits: Vec<Visit>,
    /// Ids of the work orders left for after the shift, ascending.
    pub unscheduled: Vec<u64>,
    /// Why each of `unscheduled` waits, in the same order.
    pub left_for_later: Vec<LeftForLater>,
    /// Expected penalty-hours of this plan.
    pub expected_penalty_hours: f64,
    /// Expected penalty-hours of first in first out on the same input.
    pub fifo_penalty_hours: f64,
    /// No plan has lower expected penalty-hours than this.
    pub lower_bound: f64,
    /// Whether no list of the decoder gives a lower cost (branch and bound
    /// finished); then `lower_bound` is the plan's own cost.
    pub proven_optimal: bool,
    /// Branch-and-bound nodes explored (0 when the heuristic planned).
    pub nodes: u64,
}

impl MaintenancePlan {
    /// Relative gap between the plan and its lower bound (0 when optimal).
    pub fn gap(&self) -> f64 {
        if self.expected_penalty_hours <= 0.0 {
            0.0
        } else {
            (self.expected_penalty_hours - self.lower_bound) / self.expected_penalty_hours
        }
    }
}

/// Plans the visits of `orders` on the fabric state `state` (left as it
/// was). See the module documentation for the model.
pub fn plan(
    state: &mut CorrOptState<'_>,
    orders: &[WorkOrder],
    crew: Crew,
    travel: TravelModel,
    options: PlanOptions,
) -> Result<MaintenancePlan, PlanError> {
    Planner::new(state, orders, crew, travel, options)?.plan()
}

/// A planner on one input; besides [`Planner::plan`] it decodes a list
/// given by hand ([`Planner::schedule_list`]) and first in first out
/// ([`Planner::fifo`]). It keeps the guard's verdicts between calls.
pub struct Planner<'p, 'g> {
    problem: Problem<'p, 'g>,
    options: PlanOptions,
}

impl<'p, 'g> Planner<'p, 'g> {
    /// Checks the input and derives what every search needs from it.
    pub fn new(
        state: &'p mut CorrOptState<'g>,
        orders: &'p [WorkOrder],
        crew: Crew,
        travel: TravelModel,
        options: PlanOptions,
    ) -> Result<Self, PlanError> {
        check_orders(orders, &crew, state.link_states())?;
        let cost = CostModel {
            shift_s: crew.shift_s,
            service_time_s: options.service_time_s,
        };
        Ok(Self {
            problem: Problem::new(state, orders, crew, travel, cost),
            options,
        })
    }

    /// The plan of least expected penalty-hours found within the options.
    pub fn plan(&mut self) -> Result<MaintenancePlan, PlanError> {
        let deadline = Instant::now() + self.options.time_budget;
        let problem = &mut self.problem;
        let first_in_first_out = fifo(problem)?;
        let list = priority_list(problem);
        let greedy_schedule = greedy(problem, &list)?;
        let start = if greedy_schedule.cost < first_in_first_out.cost {
            greedy_schedule
        } else {
            first_in_first_out.clone()
        };
        let (best, proven_optimal, nodes) = if problem.orders.len() <= self.options.exact_up_to {
            let exact = branch_and_bound(problem, start, deadline)?;
            (exact.best, exact.finished, exact.nodes)
        } else {
            let best = local_search(problem, list, start, deadline, self.options.seed)?;
            (best, false, 0)
        };
        // Never worse than first in first out, whatever the search found.
        let best = if first_in_first_out.cost < best.cost {
            first_in_first_out.clone()
        } else {
            best
        };
        let lower_bound = if proven_optimal {
            best.cost
        } else {
            // An order no list places costs its unvisited penalty in every
            // plan: the bounds count no saving for it.
            let (orders, technicians) = (problem.orders, problem.crew.technicians);
            let mut placeable: Vec<&WorkOrder> = Vec::with_capacity(orders.len());
            let mut never_visited = 0.0;
            for (i, order) in orders.iter().enumerate() {
                if problem.never_placed(i)? {
                    never_visited += problem.cost.unvisited(order);
                } else {
                    placeable.push(order);
                }
            }
            let knapsack = problem.cost.lower_bound(&placeable, technicians);
            let sequenced = problem.cost.sequenced_lower_bound(&placeable, technicians);
            (never_visited + knapsack.max(sequenced)).min(best.cost)
        };
        let mut left_for_later = (0..problem.orders.len())
            .filter(|&i| best.placed[i].is_none())
            .map(|i| why(problem, i))
            .collect::<Result<Vec<_>, _>>()?;
        left_for_later.sort_by_key(|left| left.work_order);
        let schedule = self.output(&best);
        Ok(MaintenancePlan {
            visits: schedule.visits,
            unscheduled: schedule.unscheduled,
            left_for_later,
            expected_penalty_hours: schedule.expected_penalty_hours,
            fifo_penalty_hours: first_in_first_out.cost,
            lower_bound,
            proven_optimal,
            nodes,
        })
    }

    /// First in first out: orders in ascending id, each to the technician
    /// free first, who waits until its footprint is safe.
    pub fn fifo(&mut self) -> Result<Schedule, PlanError> {
        let decoding = fifo(&mut self.problem)?;
        Ok(self.output(&decoding))
    }

    /// Decodes a list of `(work order id, technician)`: each order in turn
    /// starts as early as its technician and the fabric allow (the plan's
    /// own rule). Orders not in the list are unscheduled.
    pub fn schedule_list(&mut self, list: &[(u64, u32)]) -> Result<Schedule, PlanError> {
        let index: HashMap<u64, usize> = self
            .problem
            .orders
            .iter()
            .enumerate()
            .map(|(i, o)| (o.id, i))
            .collect();
        let mut moves = Vec::with_capacity(list.len());
        let mut seen = vec![false; self.problem.orders.len()];
        for &(id, tech) in list {
            let &order = index.get(&id).ok_or(PlanError::UnknownOrder { id })?;
            if std::mem::replace(&mut seen[order], true) {
                return Err(PlanError::DuplicateOrder { id });
            }
            if tech >= self.problem.crew.technicians {
                return Err(PlanError::UnknownTechnician {
                    technician: tech,
                    technicians: self.problem.crew.technicians,
                });
            }
            moves.push((order, tech));
        }
        let mut decoding = replay(&mut self.problem, &moves)?;
        let unlisted: f64 = (0..seen.len())
            .filter(|&i| !seen[i])
            .map(|i| self.problem.cost.unvisited(&self.problem.orders[i]))
            .sum();
        decoding.cost += unlisted;
        Ok(self.output(&decoding))
    }

    /// The public form of a decoding: visits by technician and start,
    /// unscheduled ids ascending.
    fn output(&self, decoding: &Decoding) -> Schedule {
        let orders = self.problem.orders;
        let mut visits: Vec<Visit> = decoding
            .steps
            .iter()
            .filter_map(|step| {
                let p = step.placement?;
                let order = &orders[step.order];
                let restored = match (&order.restoration, p.restored) {
                    (Some(r), true) => r.links.clone(),
                    _ => Vec::new(),
                };
                Some(Visit {
                    technician: step.tech,
                    work_order: order.id,
                    start_s: p.start,
                    end_s: p.end,
                    links_down: order.footprint.clone(),
                    restored,
                })
            })
            .collect();
        visits.sort_by_key(|v| (v.technician, v.start_s));
        let mut unscheduled: Vec<u64> = (0..orders.len())
            .filter(|&i| decoding.placed[i].is_none())
            .map(|i| orders[i].id)
            .collect();
        unscheduled.sort_unstable();
        Schedule {
            visits,
            unscheduled,
            expected_penalty_hours: decoding.cost,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::corropt::{LinkState, Thresholds};
    use crate::fabric::generators::fat_tree;
    use crate::maintenance::{LeaveReason, Location, Restoration};

    const RACK: Location = Location { rack: 1, row: 1 };
    const TRAVEL: TravelModel = TravelModel {
        same_rack_s: 0,
        same_row_s: 300,
        elsewhere_s: 900,
    };

    fn order(id: u64, footprint: Vec<LinkId>, duration_s: u64, rate: f64) -> WorkOrder {
        WorkOrder {
            id,
            footprint,
            duration_s,
            success_probability: 0.8,
            location: RACK,
            penalty_rate: rate,
            restoration: None,
        }
    }

    fn crew(technicians: u32, hours: u64) -> Crew {
        Crew {
            technicians,
            shift_s: hours * 3600,
        }
    }

    fn options() -> PlanOptions {
        PlanOptions {
            time_budget: Duration::from_secs(10),
            ..PlanOptions::default()
        }
    }

    #[test]
    fn repairs_that_together_cut_a_tor_under_its_floor_take_turns() {
        // k = 4 fat tree at c = 0.5: ToR 0 has two up-links and needs one.
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let orders = [order(1, vec![a], 3600, 1.0), order(2, vec![b], 1800, 4.0)];
        let plan = plan(&mut state, &orders, crew(2, 8), TRAVEL, options()).unwrap();
        assert!(plan.proven_optimal);
        // The dearer, shorter order first, then the other: never both down.
        let times: Vec<(u64, u64, u64)> = plan
            .visits
            .iter()
            .map(|v| (v.work_order, v.start_s, v.end_s))
            .collect();
        assert!(times.contains(&(2, 0, 1800)), "{times:?}");
        assert!(times.contains(&(1, 1800, 5400)), "{times:?}");
        // 4 * (0.5 h + 0.2 * 48 h) + 1 * (1.5 h + 0.2 * 48 h)
        let expected = 4.0 * (0.5 + 9.6) + (1.5 + 9.6);
        assert!((plan.expected_penalty_hours - expected).abs() < 1e-9);
        // First in first out does order 1 first and makes order 2 wait.
        let fifo = 1.0 * (1.0 + 9.6) + 4.0 * (1.5 + 9.6);
        assert!((plan.fifo_penalty_hours - fifo).abs() < 1e-9);
        assert_eq!(plan.lower_bound, plan.expected_penalty_hours);
        assert_eq!(
            state.link_states(),
            &vec![LinkState::Enabled; g.num_links()][..]
        );
    }

    #[test]
    fn a_restoration_lets_a_repair_start_now_when_waiting_costs_more() {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        states[b as usize] = LinkState::Disabled;
        let mut state = CorrOptState::new(&g, states, &Thresholds::new(0.5).unwrap()).unwrap();
        // Taking `a` down alone cuts ToR 0 off; enabling lossy `b` for the
        // hour makes it safe at a small penalty.
        let mut repair = order(7, vec![a], 3600, 2.0);
        repair.restoration = Some(Restoration {
            links: vec![b],
            penalty_rate: 0.01,
        });
        let orders = [repair];
        let plan = plan(&mut state, &orders, crew(1, 8), TRAVEL, options()).unwrap();
        assert_eq!(plan.visits.len(), 1);
        assert_eq!(plan.visits[0].restored, vec![b]);
        assert_eq!(plan.visits[0].links_down, vec![a]);
        assert_eq!((plan.visits[0].start_s, plan.visits[0].end_s), (0, 3600));
        // Without a restoration it cannot be done at all today.
        let mut bare = orders.clone();
        bare[0].restoration = None;
        let plan = super::plan(&mut state, &bare, crew(1, 8), TRAVEL, options()).unwrap();
        assert!(plan.visits.is_empty());
        assert_eq!(plan.unscheduled, vec![7]);
        assert!((plan.expected_penalty_hours - 2.0 * 56.0).abs() < 1e-9);
        assert_eq!(plan.left_for_later[0].reason, LeaveReason::NeverSafe);
        // With a restoration dearer than the order's own penalty, it waits.
        let mut dear = orders.clone();
        dear[0].restoration.as_mut().unwrap().penalty_rate = 500.0;
        let plan = super::plan(&mut state, &dear, crew(1, 8), TRAVEL, options()).unwrap();
        assert_eq!(plan.unscheduled, vec![7]);
        let left = &plan.left_for_later[0];
        assert_eq!(left.reason, LeaveReason::RestorationDearer);
        // Done at 1 h: 2 * (1 + 0.2 * 48) + 500 * 1; left: 2 * (8 + 48).
        assert_eq!(
            left.detail,
            "it is safe only with its restoration, which costs more than leaving it \
             (521.2 against 112 penalty-hours)"
        );
        // Without a penalty of its own, the reason is that it saves nothing (not "dearer than 0").
        let mut free = dear.clone();
        free[0].penalty_rate = 0.0;
        let plan = super::plan(&mut state, &free, crew(1, 8), TRAVEL, options()).unwrap();
        assert_eq!(plan.unscheduled, vec![7]);
        let left = &plan.left_for_later[0];
        assert_eq!(left.reason, LeaveReason::NoPenalty);
        assert_eq!(
            left.detail,
            "its penalty rate is 0: doing it this shift saves nothing, and its restoration \
             would add 500 penalty-hours"
        );
    }

    #[test]
    fn a_technician_batches_work_at_one_rack_before_walking_away() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.0).unwrap()).unwrap();
        let far = Location { rack: 9, row: 3 };
        let mut orders = vec![
            order(1, vec![0], 1800, 1.0),
            order(2, vec![4], 1800, 1.0),
            order(3, vec![8], 1800, 1.0),
        ];
        orders[1].location = far;
        let plan = plan(&mut state, &orders, crew(1, 8), TRAVEL, options()).unwrap();
        assert!(plan.proven_optimal);
        let sequence: Vec<u64> = plan.visits.iter().map(|v| v.work_order).collect();
        assert_eq!(sequence[2], 2, "{sequence:?}");
        assert_eq!(plan.visits[2].start_s, 3600 + 900);
        // First in first out walks there and back.
        assert!(plan.fifo_penalty_hours > plan.expected_penalty_hours);
    }

    #[test]
    fn orders_longer_than_what_is_left_of_the_shift_are_unscheduled() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.0).unwrap()).unwrap();
        let orders = [
            order(1, vec![0], 5 * 3600, 1.0),
            order(2, vec![4], 4 * 3600, 1.0),
            order(3, vec![8], 9 * 3600, 5.0),
        ];
        let plan = plan(&mut state, &orders, crew(1, 8), TRAVEL, options()).unwrap();
        assert_eq!(plan.visits.len(), 1);
        assert_eq!(plan.visits[0].work_order, 2);
        assert_eq!(plan.unscheduled, vec![1, 3]);
        let why: Vec<(u64, &str, &str)> = plan
            .left_for_later
            .iter()
            .map(|l| (l.work_order, l.reason.as_str(), l.detail.as_str()))
            .collect();
        assert_eq!(
            why,
            vec![
                (
                    1,
                    "no_room",
                    "no room in this shift next to the visits planned (their time, or \
                     footprints that cannot be down together with its own)"
                ),
                (
                    3,
                    "longer_than_shift",
                    "it takes 9 h, longer than the 8 h shift"
                ),
            ]
        );
    }

    #[test]
    fn a_hand_made_list_is_decoded_by_the_same_rule() {
        let g = fat_tree(4);
        let mut state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let orders = [order(1, vec![a], 3600, 1.0), order(2, vec![b], 1800, 4.0)];
        let mut planner = Planner::new(&mut state, &orders, crew(2, 8), TRAVEL, options()).unwrap();
        let list = planner.schedule_list(&[(1, 1), (2, 0)]).unwrap();
        assert_eq!(list.visits[0].technician, 0);
        assert_eq!((list.visits[0].start_s, list.visits[0].end_s), (3600, 5400));
        assert_eq!(list.visits[1].start_s, 0);
        // First in first out gives order 2 the technician free first, who
        // waits for order 1's hour: the same plan with the names swapped.
        let fifo = planner.fifo().unwrap();
        assert_eq!(fifo, planner.schedule_list(&[(1, 0), (2, 1)]).unwrap());
        assert_eq!(fifo.expected_penalty_hours, list.expected_penalty_hours);
        assert_eq!(
            planner.schedule_list(&[(3, 0)]).unwrap_err().to_string(),
            "work order 3 is not open"
        );
        assert_eq!(
            planner.schedule_list(&[(1, 2)]).unwrap_err().to_string(),
            "technician 2 does not exist (the crew has 2)"
        );
        let only_one = planner.schedule_list(&[(1, 0)]).unwrap();
        assert_eq!(only_one.unscheduled, vec![2]);
    }
}
