//! Expected penalty-hours of one work order and the lower bound on a whole
//! plan's (the formulas are stated in the module documentation).

use super::WorkOrder;

const SECONDS_PER_HOUR: f64 = 3600.0;

/// The numbers every cost needs besides the order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CostModel {
    pub shift_s: u64,
    pub service_time_s: u64,
}

impl CostModel {
    /// Penalty-hours of `order` visited with its visit ending at `end_s`,
    /// with its restoration enabled during the visit or not.
    pub fn visited(&self, order: &WorkOrder, end_s: u64, restored: bool) -> f64 {
        let failure = 1.0 - order.success_probability;
        let expected_fix_s = end_s as f64 + failure * self.service_time_s as f64;
        let mut cost = order.penalty_rate * expected_fix_s / SECONDS_PER_HOUR;
        if restored && let Some(r) = &order.restoration {
            cost += r.penalty_rate * order.duration_s as f64 / SECONDS_PER_HOUR;
        }
        cost
    }

    /// Penalty-hours of `order` left for after the shift.
    pub fn unvisited(&self, order: &WorkOrder) -> f64 {
        order.penalty_rate * (self.shift_s + self.service_time_s) as f64 / SECONDS_PER_HOUR
    }

    /// A lower bound on the expected penalty-hours of any plan with
    /// `technicians` (see the module documentation for the proof): each
    /// order costs its unvisited penalty, minus the saving of a visit, which
    /// is at most `rate * (shift + p * service - duration)` since a visit
    /// ends no earlier than its duration; the visits of a plan fit in
    /// `technicians * shift` seconds of work, so the savings are at most the
    /// fractional knapsack of those values and durations.
    pub fn lower_bound(&self, orders: &[&WorkOrder], technicians: u32) -> f64 {
        let unvisited: f64 = orders.iter().map(|o| self.unvisited(o)).sum();
        let mut items: Vec<(f64, f64)> = orders
            .iter()
            .filter(|o| o.duration_s <= self.shift_s)
            .map(|o| {
                let saving = o.penalty_rate * (self.shift_s - o.duration_s) as f64
                    + o.penalty_rate * o.success_probability * self.service_time_s as f64;
                (saving / SECONDS_PER_HOUR, o.duration_s as f64)
            })
            .filter(|&(saving, _)| saving > 0.0)
            .collect();
        items.sort_by(|a, b| (b.0 / b.1).total_cmp(&(a.0 / a.1)));
        let mut room = f64::from(technicians) * self.shift_s as f64;
        let mut savings = 0.0;
        for (saving, duration) in items {
            if room <= 0.0 {
                break;
            }
            let share = (room / duration).min(1.0);
            savings += share * saving;
            room -= share * duration;
        }
        (unvisited - savings).max(0.0)
    }

    /// A second lower bound, which charges the sequencing the knapsack
    /// ignores: for the set `V` of orders a plan visits, the ends `e` on
    /// `technicians` parallel technicians satisfy (Eastman, Even and Isaacs
    /// 1964) `sum r e >= sum r C1 / m + (m - 1) / (2 m) sum r d`, `C1` the
    /// ends of `V` done one after another by one technician in order of
    /// `r / d`. The plan's savings `sum_V r (K - e)` are therefore at most
    /// the best over sets `V` fitting in `technicians * shift` of work of
    /// `sum_V r (K - (m - 1) / (2 m) d - C1 / m)`, found exactly by dynamic
    /// programming over the work done, in order of `r / d`. Durations are
    /// rounded down to a grid of at most `GRID_STEPS` steps for the work
    /// done, which only makes `C1` earlier and the room larger, so the
    /// savings only larger: the bound stays valid.
    pub fn sequenced_lower_bound(&self, orders: &[&WorkOrder], technicians: u32) -> f64 {
        const GRID_STEPS: u64 = 20_000;
        let unvisited: f64 = orders.iter().map(|o| self.unvisited(o)).sum();
        let m = f64::from(technicians);
        let room = u64::from(technicians) * self.shift_s;
        let step = room.div_ceil(GRID_STEPS).max(1);
        let cells = (room / step) as usize;
        let mut jobs: Vec<&WorkOrder> = orders
            .iter()
            .copied()
            .filter(|o| o.duration_s <= self.shift_s && o.penalty_rate > 0.0)
            .collect();
        jobs.sort_by(|a, b| {
            (b.penalty_rate / b.duration_s as f64)
                .total_cmp(&(a.penalty_rate / a.duration_s as f64))
        });
        // best[t]: the largest savings (penalty-seconds) of a set whose
        // rounded work is t steps.
        let mut best = vec![f64::NEG_INFINITY; cells + 1];
        best[0] = 0.0;
        let mut reached = 0;
        for o in jobs {
            let d = (o.duration_s / step) as usize;
            let r = o.penalty_rate;
            let k = self.shift_s as f64 + o.success_probability * self.service_time_s as f64;
            let fixed = r * (k - (m - 1.0) / (2.0 * m) * o.duration_s as f64);
            for t in (0..=reached.min(cells.saturating_sub(d))).rev() {
                if best[t] == f64::NEG_INFINITY {
                    continue;
                }
                let end = ((t + d) as u64 * step) as f64;
                let saving = best[t] + fixed - r * end / m;
                if saving > best[t + d] {
                    best[t + d] = saving;
                }
            }
            reached = (reached + d).min(cells);
        }
        let savings = best.iter().copied().fold(0.0, f64::max) / SECONDS_PER_HOUR;
        (unvisited - savings).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maintenance::{Location, Restoration};

    fn order(rate: f64, p: f64, duration_s: u64) -> WorkOrder {
        WorkOrder {
            id: 1,
            footprint: vec![0],
            duration_s,
            success_probability: p,
            location: Location { rack: 0, row: 0 },
            penalty_rate: rate,
            restoration: None,
        }
    }

    #[test]
    fn a_visit_costs_its_end_plus_the_failed_share_of_the_service_time() {
        let model = CostModel {
            shift_s: 8 * 3600,
            service_time_s: 48 * 3600,
        };
        let mut o = order(2.0, 0.8, 3600);
        // Fixed at 1 h with p = 0.8, else after two more days: 1 + 0.2 * 48 h.
        assert!((model.visited(&o, 3600, false) - 2.0 * 10.6).abs() < 1e-9);
        // Not visited: the shift, then the two days.
        assert!((model.unvisited(&o) - 2.0 * 56.0).abs() < 1e-9);
        o.restoration = Some(Restoration {
            links: vec![1],
            penalty_rate: 0.5,
        });
        assert!((model.visited(&o, 3600, true) - (2.0 * 10.6 + 0.5)).abs() < 1e-9);
        assert!((model.visited(&o, 3600, false) - 2.0 * 10.6).abs() < 1e-9);
    }

    #[test]
    fn the_lower_bound_fills_the_crews_hours_with_the_best_savings() {
        let model = CostModel {
            shift_s: 2 * 3600,
            service_time_s: 48 * 3600,
        };
        // Two 2-hour orders, one technician with a 2-hour shift: at most one
        // is visited, and it ends at 2 h at the earliest.
        let orders = [&order(1.0, 1.0, 7200), &order(3.0, 1.0, 7200)];
        let bound = model.lower_bound(&orders, 1);
        assert!((bound - (50.0 + 3.0 * 2.0)).abs() < 1e-9, "{bound}");
        // Doing nothing is the unvisited cost, never below the bound.
        let nothing: f64 = orders.iter().map(|o| model.unvisited(o)).sum();
        assert!(bound < nothing);
    }

    #[test]
    fn the_sequenced_bound_charges_the_visits_done_one_after_another() {
        let model = CostModel {
            shift_s: 2 * 3600,
            service_time_s: 48 * 3600,
        };
        // One technician, two 1-hour orders: the best plan ends them at 1 h
        // and 2 h (3 penalty-hours); the knapsack lets both end at 1 h.
        let orders = [&order(1.0, 1.0, 3600), &order(1.0, 1.0, 3600)];
        assert!((model.lower_bound(&orders, 1) - 2.0).abs() < 1e-9);
        let bound = model.sequenced_lower_bound(&orders, 1);
        assert!((bound - 3.0).abs() < 1e-9, "{bound}");
        // Two technicians do both at once: ends at 1 h each.
        let bound = model.sequenced_lower_bound(&orders, 2);
        assert!(bound <= 2.0 + 1e-9, "{bound}");
    }
}
