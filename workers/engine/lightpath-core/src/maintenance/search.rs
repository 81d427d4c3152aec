//! Searches over decoder lists: first in first out, the greedy list, local
//! search, and branch and bound.

use std::time::Instant;

use super::PlanError;
use super::decoder::{Decoding, Placement, Problem};

/// Relative tolerance when comparing expected penalty-hours.
const TOLERANCE: f64 = 1e-9;

fn better(cost: f64, than: f64) -> bool {
    cost < than - TOLERANCE * than.abs().max(1.0)
}

/// Decodes `moves` (order index, technician) in order.
pub(crate) fn replay(problem: &mut Problem, moves: &[(usize, u32)]) -> Result<Decoding, PlanError> {
    let mut schedule = Decoding::new(problem.orders.len(), problem.crew.technicians);
    for &(order, tech) in moves {
        problem.push(&mut schedule, order, tech)?;
    }
    Ok(schedule)
}

/// First in first out: orders by ascending id, each to the technician free
/// first (the lowest-numbered on a tie), who waits until it is safe.
pub(crate) fn fifo(problem: &mut Problem) -> Result<Decoding, PlanError> {
    let mut by_id: Vec<usize> = (0..problem.orders.len()).collect();
    by_id.sort_by_key(|&i| problem.orders[i].id);
    let mut schedule = Decoding::new(problem.orders.len(), problem.crew.technicians);
    for order in by_id {
        let tech = (0..problem.crew.technicians)
            .min_by_key(|&k| schedule.techs[k as usize].free_at)
            .expect("the crew has a technician");
        problem.push(&mut schedule, order, tech)?;
    }
    Ok(schedule)
}

/// Orders by what a visit saves per second of work: the penalty rate times
/// the time it would otherwise wait (the shift and the service time of a
/// successful visit), over the duration; ties by id.
pub(crate) fn priority_list(problem: &Problem) -> Vec<usize> {
    let model = problem.cost;
    let key = |i: usize| {
        let o = &problem.orders[i];
        let waits = model.shift_s as f64 + o.success_probability * model.service_time_s as f64;
        o.penalty_rate * waits / o.duration_s as f64
    };
    let mut list: Vec<usize> = (0..problem.orders.len()).collect();
    list.sort_by(|&a, &b| {
        key(b)
            .total_cmp(&key(a))
            .then(problem.orders[a].id.cmp(&problem.orders[b].id))
    });
    list
}

/// Decodes `list`, giving each order the technician with which it costs
/// least (the earliest safe end, unless a restoration changes that).
pub(crate) fn greedy(problem: &mut Problem, list: &[usize]) -> Result<Decoding, PlanError> {
    let mut schedule = Decoding::new(problem.orders.len(), problem.crew.technicians);
    for &order in list {
        let (tech, placement) = best_technician(problem, &schedule, order)?;
        problem.commit(&mut schedule, order, tech, placement);
    }
    Ok(schedule)
}

fn best_technician(
    problem: &mut Problem,
    schedule: &Decoding,
    order: usize,
) -> Result<(u32, Option<Placement>), PlanError> {
    let o = &problem.orders[order];
    let duration = o.duration_s;
    // Technicians by when they could start; of those not yet out, one will do.
    let mut candidates: Vec<(u64, u32)> = Vec::new();
    let mut fresh_seen = false;
    for k in 0..problem.crew.technicians {
        if schedule.techs[k as usize].at.is_none() {
            if fresh_seen {
                continue;
            }
            fresh_seen = true;
        }
        candidates.push((problem.ready(schedule, order, k), k));
    }
    candidates.sort_unstable();
    let mut best: Option<(f64, u32, Option<Placement>)> = None;
    for (ready, k) in candidates {
        if ready + duration > problem.crew.shift_s {
            break;
        }
        let floor = problem.cost.visited(o, ready + duration, false);
        if best.is_some_and(|(cost, _, _)| floor >= cost) {
            break;
        }
        if let Some(p) = problem.attempt(schedule, order, k)? {
            let cost = problem.cost.visited(o, p.end, p.restored);
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, k, Some(p)));
            }
        }
    }
    Ok(match best {
        Some((_, k, p)) => (k, p),
        None => (0, None),
    })
}

/// A SplitMix64 stream for the local search's moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Improves the greedy list until `deadline`: moves an order left
/// unscheduled (or a random one) to an earlier place in the list, or swaps
/// two, re-decodes, and keeps the list if its plan costs less.
pub(crate) fn local_search(
    problem: &mut Problem,
    mut list: Vec<usize>,
    mut best: Decoding,
    deadline: Instant,
    seed: u64,
) -> Result<Decoding, PlanError> {
    let n = list.len();
    if n < 2 {
        return Ok(best);
    }
    let mut rng = SplitMix(seed);
    while Instant::now() < deadline {
        let mut candidate = list.clone();
        let unscheduled: Vec<usize> = (0..n)
            .filter(|&pos| best.placed[candidate[pos]].is_none())
            .collect();
        if !unscheduled.is_empty() && rng.below(2) == 0 {
            let from = unscheduled[rng.below(unscheduled.len())];
            let to = rng.below(from.max(1));
            let order = candidate.remove(from);
            candidate.insert(to, order);
        } else {
            let (a, b) = (rng.below(n), rng.below(n));
            candidate.swap(a, b);
        }
        let schedule = greedy(problem, &candidate)?;
        if better(schedule.cost, best.cost) {
            best = schedule;
            list = candidate;
        }
    }
    Ok(best)
}

/// Branch and bound over decoder lists with explicit technicians.
///
/// The bound of a node: the decoded orders' cost plus, for every other
/// order, its cost ending at the earliest instant any technician is free
/// plus its duration (or its unvisited cost when that is after the shift).
/// Two prunings keep one list per distinct schedule: technicians with no
/// visit are alike, so only the first of them is tried; and two consecutive
/// entries on different technicians that share no ToR decode the same in
/// either order, so only the order with the smaller index first is tried.
///
/// Returns the best schedule and whether the search finished (so it is
/// optimal over all lists) before `deadline`.
pub(crate) fn branch_and_bound(
    problem: &mut Problem,
    incumbent: Decoding,
    deadline: Instant,
) -> Result<(Decoding, bool), PlanError> {
    let n = problem.orders.len();
    let mut search = Bnb {
        best_cost: incumbent.cost,
        best_moves: incumbent.moves(),
        priority: priority_list(problem),
        deadline,
        nodes: 0,
        timed_out: false,
    };
    let mut schedule = Decoding::new(n, problem.crew.technicians);
    let mut remaining = vec![true; n];
    search.explore(problem, &mut schedule, &mut remaining, n)?;
    let best = replay(problem, &search.best_moves)?;
    Ok((best, !search.timed_out))
}

struct Bnb {
    best_cost: f64,
    best_moves: Vec<(usize, u32)>,
    priority: Vec<usize>,
    deadline: Instant,
    nodes: u64,
    timed_out: bool,
}

impl Bnb {
    fn explore(
        &mut self,
        problem: &mut Problem,
        schedule: &mut Decoding,
        remaining: &mut [bool],
        left: usize,
    ) -> Result<(), PlanError> {
        if left == 0 {
            if better(schedule.cost, self.best_cost) {
                self.best_cost = schedule.cost;
                self.best_moves = schedule.moves();
            }
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && Instant::now() >= self.deadline {
            self.timed_out = true;
        }
        if self.timed_out || !better(self.bound(problem, schedule, remaining), self.best_cost) {
            return Ok(());
        }
        let mut techs: Vec<u32> = Vec::new();
        for k in 0..problem.crew.technicians {
            let fresh = schedule.techs[k as usize].at.is_none();
            if !fresh
                || !techs
                    .iter()
                    .any(|&t| schedule.techs[t as usize].at.is_none())
            {
                techs.push(k);
            }
        }
        let last = schedule.steps.last().map(|s| (s.order, s.tech));
        for index in 0..self.priority.len() {
            let order = self.priority[index];
            if !remaining[order] {
                continue;
            }
            for &tech in &techs {
                if let Some((prev, prev_tech)) = last
                    && prev_tech != tech
                    && prev > order
                    && !problem.conflict(prev, order)
                {
                    continue;
                }
                problem.push(schedule, order, tech)?;
                remaining[order] = false;
                self.explore(problem, schedule, remaining, left - 1)?;
                remaining[order] = true;
                schedule.pop();
            }
        }
        Ok(())
    }

    fn bound(&self, problem: &Problem, schedule: &Decoding, remaining: &[bool]) -> f64 {
        let free = schedule.techs.iter().map(|t| t.free_at).min().unwrap_or(0);
        let rest: f64 = (0..remaining.len())
            .filter(|&j| remaining[j])
            .map(|j| {
                let o = &problem.orders[j];
                let end = free + o.duration_s;
                if end <= problem.crew.shift_s {
                    problem.cost.visited(o, end, false)
                } else {
                    problem.cost.unvisited(o)
                }
            })
            .sum();
        schedule.cost + rest
    }
}
