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
/// The bound of a node: the decoded orders' cost plus what the others cost
/// at least ([`Bnb::bound`]).
/// Two prunings keep one list per distinct schedule: technicians not yet
/// in the list are alike, so only the first of them is tried; and an entry
/// decodes the same wherever it stands after the last entry it depends on
/// (same technician or a shared ToR), so of the lists that differ only in
/// that, only the lexicographically smallest by order index is searched
/// ([`Bnb::canonical`]).
///
/// Returns the best schedule and whether the search finished (so it is
/// optimal over all lists) before `deadline`.
pub(crate) fn branch_and_bound(
    problem: &mut Problem,
    incumbent: Decoding,
    deadline: Instant,
) -> Result<Exact, PlanError> {
    let n = problem.orders.len();
    let mut search = Bnb {
        best_cost: incumbent.cost,
        best_moves: incumbent.moves(),
        priority: priority_list(problem),
        fixed: 0,
        deadline,
        nodes: 0,
        timed_out: false,
    };
    let mut schedule = Decoding::new(n, problem.crew.technicians);
    let mut remaining = vec![true; n];
    // Orders no list places are unscheduled in every list: they head the
    // list once, instead of being tried at every place of it.
    for (order, left) in remaining.iter_mut().enumerate() {
        if problem.never_placed(order)? {
            problem.push(&mut schedule, order, 0)?;
            *left = false;
        }
    }
    search.fixed = schedule.steps.len();
    search.explore(problem, &mut schedule, &mut remaining)?;
    let best = replay(problem, &search.best_moves)?;
    Ok(Exact {
        best,
        finished: !search.timed_out,
        nodes: search.nodes,
    })
}

/// What branch and bound found.
pub(crate) struct Exact {
    pub best: Decoding,
    /// Whether the search finished, so `best` is optimal over all lists.
    pub finished: bool,
    /// Nodes explored.
    pub nodes: u64,
}

struct Bnb {
    best_cost: f64,
    best_moves: Vec<(usize, u32)>,
    priority: Vec<usize>,
    /// Steps at the head of every list (orders never placed), outside the
    /// symmetry rules.
    fixed: usize,
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
    ) -> Result<(), PlanError> {
        // Orders without a penalty rate cost nothing wherever they go (a
        // visit with a dear restoration is dropped for leaving them), so
        // once only they are left the cost is final: they are placed once.
        let priced_left =
            (0..remaining.len()).any(|j| remaining[j] && problem.orders[j].penalty_rate > 0.0);
        if !priced_left {
            if better(schedule.cost, self.best_cost) {
                let before = schedule.steps.len();
                let unpriced: Vec<usize> = (0..remaining.len()).filter(|&j| remaining[j]).collect();
                for j in unpriced {
                    let (tech, placement) = best_technician(problem, schedule, j)?;
                    problem.commit(schedule, j, tech, placement);
                }
                self.best_cost = schedule.cost;
                self.best_moves = schedule.moves();
                while schedule.steps.len() > before {
                    schedule.pop();
                }
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
        // Technicians named by first use: of those not named yet, one.
        let mut named = vec![false; problem.crew.technicians as usize];
        for step in &schedule.steps[self.fixed..] {
            named[step.tech as usize] = true;
        }
        let fresh = named.iter().position(|&n| !n);
        let techs: Vec<u32> = (0..problem.crew.technicians)
            .filter(|&k| named[k as usize] || Some(k as usize) == fresh)
            .collect();
        for index in 0..self.priority.len() {
            let order = self.priority[index];
            if !remaining[order] {
                continue;
            }
            for &tech in &techs {
                if !self.canonical(problem, schedule, order, tech) {
                    continue;
                }
                problem.push(schedule, order, tech)?;
                remaining[order] = false;
                self.explore(problem, schedule, remaining)?;
                remaining[order] = true;
                schedule.pop();
            }
        }
        Ok(())
    }

    /// Whether `order` on `tech` may come next in a canonical list: the
    /// entries after the last one it depends on (same technician, or a
    /// shared ToR) must all have smaller indices, or it could have come
    /// before them and the list that has it there decodes the same.
    fn canonical(&self, problem: &Problem, schedule: &Decoding, order: usize, tech: u32) -> bool {
        for step in schedule.steps[self.fixed..].iter().rev() {
            if step.tech == tech || problem.conflict(step.order, order) {
                return true;
            }
            if step.order > order {
                return false;
            }
        }
        true
    }

    /// The node's bound: the decoded orders' cost plus a bound on the
    /// others'. Orders without a penalty rate cost nothing wherever they go,
    /// so only the priced ones are charged (the others can only delay them,
    /// which a lower bound may ignore); the larger of three:
    /// - every priced order not yet decoded ends no earlier than a
    ///   technician can reach it plus its duration; and all but
    ///   `technicians` of them come after another order on their technician
    ///   (or are unscheduled, which costs more than any visit), so start no
    ///   earlier than the shortest duration after a technician is first free
    ///   (travel from that other site unknown, so not counted); those are
    ///   taken to be the orders the delay costs least;
    /// - by levels: the `l`-th priced order of a technician starts no earlier
    ///   than the first free instant plus the `l - 1` shortest priced
    ///   durations and as many of the least walk between two orders left, at
    ///   most `technicians` priced orders are on each level, and the
    ///   cheapest way to fill the levels puts the highest penalty rates
    ///   lowest. Valid while every cost stays linear in the end (ends within
    ///   `T + p D`), which is checked; otherwise it is not counted;
    /// - on parallel machines (Eastman, Even and Isaacs 1964): ignoring
    ///   capacity, with every technician free at the first free instant,
    ///   `sum w C >= sum w C1 / m + (m - 1) / (2 m) sum w d`, `C1` the ends
    ///   on one machine in order of `w / d`. Orders left unscheduled are
    ///   appended after the shift, where their linear cost is still below
    ///   the unvisited one while the remaining work (walks included) is at
    ///   most `p D`, which is checked.
    fn bound(&self, problem: &Problem, schedule: &Decoding, remaining: &[bool]) -> f64 {
        let left: Vec<usize> = (0..remaining.len()).filter(|&j| remaining[j]).collect();
        let priced: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&j| problem.orders[j].penalty_rate > 0.0)
            .collect();
        if priced.is_empty() {
            return schedule.cost;
        }
        let mut durations: Vec<u64> = left.iter().map(|&j| problem.orders[j].duration_s).collect();
        durations.sort_unstable();
        let shortest = durations[0];
        let mut priced_durations: Vec<u64> = priced
            .iter()
            .map(|&j| problem.orders[j].duration_s)
            .collect();
        priced_durations.sort_unstable();
        let cost = |j: usize, end: u64| {
            let o = &problem.orders[j];
            if end <= problem.crew.shift_s {
                problem.cost.visited(o, end, false)
            } else {
                problem.cost.unvisited(o)
            }
        };
        let free = schedule.techs.iter().map(|t| t.free_at).min().unwrap_or(0);
        let technicians = problem.crew.technicians as usize;
        // The least walk into an order from another one left.
        let mut walk = u64::MAX;
        for &a in &left {
            for &b in left.iter().filter(|&&b| b != a) {
                let (from, to) = (problem.orders[a].location, problem.orders[b].location);
                walk = walk.min(problem.travel.between(from, to));
            }
        }
        let walk = if walk == u64::MAX { 0 } else { walk };
        let mut rest = 0.0;
        let mut delays: Vec<f64> = Vec::with_capacity(priced.len());
        for &j in &priced {
            let reach = (0..problem.crew.technicians)
                .map(|k| problem.ready(schedule, j, k))
                .min()
                .unwrap_or(0);
            let end = reach + problem.orders[j].duration_s;
            let first = cost(j, end);
            rest += first;
            let later_end = end.max(free + shortest + walk + problem.orders[j].duration_s);
            delays.push(cost(j, later_end) - first);
        }
        let later = priced.len().saturating_sub(technicians);
        if later > 0 {
            delays.sort_by(f64::total_cmp);
            rest += delays[..later].iter().sum::<f64>();
        }
        rest = rest.max(self.slots(problem, schedule, &left, &priced, &priced_durations, walk));
        let work: u64 = priced_durations.iter().sum::<u64>() + priced.len() as u64 * walk;
        let min_p = priced
            .iter()
            .map(|&j| problem.orders[j].success_probability)
            .fold(1.0, f64::min);
        if work as f64 <= min_p * problem.cost.service_time_s as f64 {
            rest = rest.max(self.parallel_machines(problem, &priced, free, walk));
        }
        schedule.cost + rest
    }

    /// The slots bound: technician `k`'s `l`-th priced order from now
    /// starts no earlier than `k` is free and has walked to an order left,
    /// plus the `l - 1` shortest priced durations and as many of the least
    /// walk between two orders left. The priced orders take distinct slots,
    /// so their starts are at least the earliest slots', and the cheapest
    /// way to fill those puts the highest penalty rates earliest. Counted
    /// while every cost stays linear in the end (ends within `T + p D`,
    /// beyond which a visit costs no more than leaving the order), which is
    /// checked; otherwise 0.
    fn slots(
        &self,
        problem: &Problem,
        schedule: &Decoding,
        left: &[usize],
        priced: &[usize],
        priced_durations: &[u64],
        walk: u64,
    ) -> f64 {
        let n = priced.len();
        let mut offsets: Vec<u64> = Vec::with_capacity(n);
        let mut elapsed = 0;
        for duration in &priced_durations[..n] {
            offsets.push(elapsed);
            elapsed += duration + walk;
        }
        let mut starts: Vec<u64> = Vec::with_capacity(n * schedule.techs.len());
        for tech in &schedule.techs {
            let arrive = match tech.at {
                None => tech.free_at,
                Some(at) => {
                    let to = left
                        .iter()
                        .map(|&j| problem.travel.between(at, problem.orders[j].location));
                    tech.free_at + to.min().unwrap_or(0)
                }
            };
            starts.extend(offsets.iter().map(|&o| arrive + o));
        }
        starts.sort_unstable();
        starts.truncate(n);
        let latest = starts[n - 1];
        let linear = priced.iter().all(|&j| {
            let o = &problem.orders[j];
            let end = (latest + o.duration_s) as f64;
            end <= problem.crew.shift_s as f64
                + o.success_probability * problem.cost.service_time_s as f64
        });
        if !linear {
            return 0.0;
        }
        let mut by_rate: Vec<(f64, f64)> = priced
            .iter()
            .map(|&j| {
                let o = &problem.orders[j];
                (o.penalty_rate, problem.cost.visited(o, o.duration_s, false))
            })
            .collect();
        by_rate.sort_by(|a, b| b.0.total_cmp(&a.0));
        by_rate
            .into_iter()
            .zip(starts)
            .map(|((rate, base), start)| base + rate * start as f64 / 3600.0)
            .sum()
    }

    /// The Eastman-Even-Isaacs bound on the linear costs of `left`, every
    /// technician free at `free`. Each order but a technician's first is
    /// walked to for at least `walk`: counted as part of its work, with the
    /// technicians free `walk` earlier so that first orders are not charged.
    fn parallel_machines(&self, problem: &Problem, left: &[usize], free: u64, walk: u64) -> f64 {
        let m = f64::from(problem.crew.technicians);
        let mut jobs: Vec<(f64, f64, usize)> = left
            .iter()
            .map(|&j| {
                let o = &problem.orders[j];
                (o.penalty_rate / 3600.0, (o.duration_s + walk) as f64, j)
            })
            .collect();
        jobs.sort_by(|a, b| (b.0 * a.1).total_cmp(&(a.0 * b.1)));
        let mut elapsed = 0.0;
        let mut total = 0.0;
        for (weight, duration, j) in jobs {
            elapsed += duration;
            let base = problem.cost.visited(&problem.orders[j], free, false) - weight * walk as f64;
            total += base + weight * (elapsed / m + (m - 1.0) / (2.0 * m) * duration);
        }
        total
    }
}
