//! The exact optimizer (CorrOpt, section 3.4.3, with the segmentation of
//! section 3.7): the subset of enabled corrupting links to disable that leaves
//! the least penalty while every ToR keeps its floor.
//!
//! 1. Prune. Disable every candidate at once; the ToRs then under their floor
//!    are the *constrained* ToRs. A candidate no constrained ToR reaches over
//!    enabled links can be disabled outright: the other ToRs are fine even
//!    with every candidate gone, and counts only fall as links go.
//! 2. Segment. Candidates reached by a common constrained ToR are joined
//!    (union-find); different segments affect disjoint constrained ToRs, so
//!    each is solved alone and the optima add up.
//! 3. Branch and bound per segment, candidates in decreasing penalty, the
//!    "disable" branch first (so the first leaf is the fast checker's greedy
//!    answer). Feasibility is checked incrementally as each link is
//!    disabled: an infeasible set makes every superset infeasible, so the
//!    branch is cut where it first fails, which does the job of the paper's
//!    cache of infeasible subsets. Bound: penalty removed so far plus the
//!    penalty of the undecided candidates that still fit. After each disable
//!    the undecided candidates are re-tested (most penalising first, until
//!    the bound prunes); one that no longer fits is dropped for the whole
//!    subtree, by the same monotonicity. On the crowded-pod benchmark with
//!    step penalties this takes the search from unfinished after 1 s to
//!    proven in 25 ms.
//!
//! Anytime: once each segment has its greedy answer, the search stops at the
//! deadline and reports the best found, whether it is proven optimal, and a
//! lower bound on the remaining penalty: total penalty minus the largest
//! bound of any unexplored branch (or the best found, if larger). Depth-first
//! order leaves branches near the root open, so this bound is valid but loose.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::checker::by_decreasing_penalty;
use super::{CorrOptError, CorrOptState, CorruptingLink, LinkState, Penalty};
use crate::fabric::{CountChange, FabricGraph, LinkId, PathCounts, PathError, SwitchId};

/// The optimizer's answer. Applying it (see [`CorrOptState::apply`]) disables
/// `disable`; links not enabled when it ran are left as they are.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimization {
    /// Enabled corrupting links to disable, ascending.
    pub disable: Vec<LinkId>,
    /// Enabled corrupting links to keep enabled, ascending.
    pub keep_enabled: Vec<LinkId>,
    /// Penalty of `keep_enabled`: the objective.
    pub remaining_penalty: f64,
    /// No feasible choice leaves less penalty than this. Equals
    /// `remaining_penalty` when `proven_optimal`.
    pub remaining_penalty_lower_bound: f64,
    /// Whether the search finished within the time budget.
    pub proven_optimal: bool,
    /// Candidates disabled outright because no constrained ToR reaches them.
    pub pruned: usize,
    /// Number of independent segments searched.
    pub segments: usize,
    /// Candidates in the largest segment.
    pub largest_segment: usize,
    /// Branch-and-bound nodes visited.
    pub nodes: u64,
}

/// How often (in nodes) the search reads the clock.
const CLOCK_EVERY: u64 = 64;

impl CorrOptState<'_> {
    /// The subset of the enabled links among `links` to disable that
    /// minimises the penalty left enabled, subject to every ToR keeping its
    /// floor. Links of `links` that are disabled or down are ignored (disabled
    /// links stay disabled). The state is not changed.
    ///
    /// With `budget`, the search stops once every segment has a feasible
    /// answer and the budget is spent; see [`Optimization::proven_optimal`].
    pub fn optimize(
        &self,
        links: &[CorruptingLink],
        penalty: Penalty,
        budget: Option<Duration>,
    ) -> Result<Optimization, CorrOptError> {
        let deadline = budget.and_then(|b| Instant::now().checked_add(b));
        self.check_corrupting(links)?;
        let candidates: Vec<(LinkId, f64)> = by_decreasing_penalty(links, penalty)
            .into_iter()
            .filter(|&(l, _)| self.states[l as usize] == LinkState::Enabled)
            .collect();
        let total_penalty: f64 = candidates.iter().map(|c| c.1).sum();

        let fabric: &FabricGraph = &self.fabric;
        let current = self.paths.counts();
        let mut floor = vec![0u64; fabric.num_switches()];
        for &t in fabric.tors() {
            floor[t as usize] = self.floor(t, current[t as usize]);
        }
        let Selection {
            disable,
            removable,
            proven_optimal,
            pruned,
            segments,
            largest_segment,
            nodes,
        } = select_to_disable(fabric, &self.paths, &candidates, &floor, deadline)?;

        let mut keep_enabled: Vec<LinkId> = candidates
            .iter()
            .map(|c| c.0)
            .filter(|l| disable.binary_search(l).is_err())
            .collect();
        keep_enabled.sort_unstable();
        let remaining_penalty: f64 = candidates
            .iter()
            .filter(|c| keep_enabled.binary_search(&c.0).is_ok())
            .map(|c| c.1)
            .sum();
        let remaining_penalty_lower_bound = if proven_optimal {
            remaining_penalty
        } else {
            (total_penalty - removable).clamp(0.0, remaining_penalty)
        };
        Ok(Optimization {
            disable,
            keep_enabled,
            remaining_penalty,
            remaining_penalty_lower_bound,
            proven_optimal,
            pruned,
            segments,
            largest_segment,
            nodes,
        })
    }

    /// Disables the links an [`Optimization`] chose.
    pub fn apply(&mut self, optimization: &Optimization) -> Result<(), CorrOptError> {
        for &l in &optimization.disable {
            self.set_link_state(l, LinkState::Disabled)?;
        }
        Ok(())
    }
}

/// What [`select_to_disable`] chose, with the bound and the search's figures.
pub(crate) struct Selection {
    /// Candidates to make unusable, ascending.
    pub(crate) disable: Vec<LinkId>,
    /// No feasible choice removes more penalty than this (the penalty
    /// `disable` removes when the search was proven optimal).
    pub(crate) removable: f64,
    pub(crate) proven_optimal: bool,
    pub(crate) pruned: usize,
    pub(crate) segments: usize,
    pub(crate) largest_segment: usize,
    pub(crate) nodes: u64,
}

/// The search shared by the optimizer and the capacity restoration: the
/// subset of `candidates` (usable in `base`, in decreasing penalty as
/// [`by_decreasing_penalty`] orders them) to make unusable that removes the
/// most penalty while no ToR ends below `floor` (indexed by switch; `base`
/// meets it). Prune, segment, then branch and bound per segment, as the module
/// documentation describes; with `deadline`, anytime.
pub(crate) fn select_to_disable(
    fabric: &FabricGraph,
    base: &PathCounts,
    candidates: &[(LinkId, f64)],
    floor: &[u64],
    deadline: Option<Instant>,
) -> Result<Selection, PathError> {
    let mut all_off = base.clone();
    for &(l, _) in candidates {
        all_off.set_link_usable(fabric, l, false)?;
    }
    let constrained: Vec<SwitchId> = fabric
        .tors()
        .iter()
        .copied()
        .filter(|&t| all_off.counts()[t as usize] < floor[t as usize])
        .collect();
    drop(all_off);

    let segments = segments(fabric, base.usable(), candidates, &constrained);
    let mut work = base.clone();
    let mut disable = Vec::with_capacity(candidates.len());
    let mut in_segment = vec![false; candidates.len()];
    for segment in &segments {
        for &c in segment {
            in_segment[c] = true;
        }
    }
    // Upper bound on the penalty any feasible choice can remove.
    let mut removable = 0.0;
    for (c, &(l, p)) in candidates.iter().enumerate() {
        if !in_segment[c] {
            work.set_link_usable(fabric, l, false)?;
            disable.push(l);
            removable += p;
        }
    }
    let pruned = disable.len();

    let mut nodes = 0;
    let mut proven_optimal = true;
    for segment in &segments {
        let links: Vec<(LinkId, f64)> = segment.iter().map(|&c| candidates[c]).collect();
        let mut search = Search::new(fabric, floor, &mut work, &links, deadline);
        let open = links.iter().map(|l| l.1).sum();
        search.run(0, 0.0, open, false)?;
        nodes += search.nodes;
        proven_optimal &= !search.timed_out;
        removable += search.best_removed.max(search.open_bound);
        disable.extend(
            links
                .iter()
                .zip(&search.best)
                .filter(|&(_, &chosen)| chosen)
                .map(|(&(l, _), _)| l),
        );
    }
    disable.sort_unstable();
    Ok(Selection {
        disable,
        removable,
        proven_optimal,
        pruned,
        segments: segments.len(),
        largest_segment: segments.iter().map(Vec::len).max().unwrap_or(0),
        nodes,
    })
}

/// Groups the candidates reached (over links usable in `usable`) by a
/// constrained ToR into segments sharing no constrained ToR. Each segment
/// lists candidate indices in ascending order, hence in decreasing penalty.
fn segments(
    fabric: &FabricGraph,
    usable: &[bool],
    candidates: &[(LinkId, f64)],
    constrained: &[SwitchId],
) -> Vec<Vec<usize>> {
    let mut by_lower: HashMap<SwitchId, Vec<usize>> = HashMap::new();
    for (c, &(l, _)) in candidates.iter().enumerate() {
        by_lower.entry(fabric.lower(l)).or_default().push(c);
    }
    let mut parent: Vec<usize> = (0..candidates.len()).collect();
    let mut reached = vec![false; candidates.len()];
    let mut seen = vec![usize::MAX; fabric.num_switches()];
    let mut stack = Vec::new();
    for (k, &tor) in constrained.iter().enumerate() {
        let mut first: Option<usize> = None;
        seen[tor as usize] = k;
        stack.push(tor);
        while let Some(s) = stack.pop() {
            for &c in by_lower.get(&s).into_iter().flatten() {
                reached[c] = true;
                match first {
                    None => first = Some(c),
                    Some(f) => union(&mut parent, f, c),
                }
            }
            for &l in fabric.up_links(s) {
                let up = fabric.upper(l);
                if usable[l as usize] && seen[up as usize] != k {
                    seen[up as usize] = k;
                    stack.push(up);
                }
            }
        }
    }
    let mut segment_of_root: HashMap<usize, usize> = HashMap::new();
    let mut segments: Vec<Vec<usize>> = Vec::new();
    for c in (0..candidates.len()).filter(|&c| reached[c]) {
        let root = find(&mut parent, c);
        let next = segments.len();
        let s = *segment_of_root.entry(root).or_insert(next);
        if s == next {
            segments.push(Vec::new());
        }
        segments[s].push(c);
    }
    segments
}
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

/// Depth-first branch and bound over one segment.
struct Search<'a> {
    fabric: &'a FabricGraph,
    floor: &'a [u64],
    work: &'a mut PathCounts,
    links: &'a [(LinkId, f64)],
    /// Links found infeasible below the current node, and the order they
    /// were marked in (to unmark on backtracking).
    dead: Vec<bool>,
    dead_marks: Vec<usize>,
    chosen: Vec<bool>,
    best: Vec<bool>,
    best_removed: f64,
    found: bool,
    deadline: Option<Instant>,
    timed_out: bool,
    /// Largest bound of a branch left unexplored at the deadline.
    open_bound: f64,
    nodes: u64,
}

impl<'a> Search<'a> {
    fn new(
        fabric: &'a FabricGraph,
        floor: &'a [u64],
        work: &'a mut PathCounts,
        links: &'a [(LinkId, f64)],
        deadline: Option<Instant>,
    ) -> Self {
        Self {
            fabric,
            floor,
            work,
            links,
            dead: vec![false; links.len()],
            dead_marks: Vec::new(),
            chosen: vec![false; links.len()],
            best: vec![false; links.len()],
            best_removed: f64::NEG_INFINITY,
            found: false,
            deadline,
            timed_out: false,
            open_bound: f64::NEG_INFINITY,
            nodes: 0,
        }
    }

    /// Explores the decisions on `links[i..]` with `removed` penalty already
    /// disabled by `chosen[..i]` and `open` the penalty of the undecided links
    /// not known to be infeasible. `tighten`: the parent just disabled a
    /// link, so more undecided links may have become infeasible. Leaves
    /// `work` and `dead` as it found them.
    fn run(&mut self, i: usize, removed: f64, open: f64, tighten: bool) -> Result<(), PathError> {
        self.nodes += 1;
        let marks = self.dead_marks.len();
        let result = self.node(i, removed, open, tighten);
        for j in self.dead_marks.drain(marks..) {
            self.dead[j] = false;
        }
        result
    }

    fn node(
        &mut self,
        mut i: usize,
        removed: f64,
        mut open: f64,
        tighten: bool,
    ) -> Result<(), PathError> {
        if self.found && removed + open <= self.best_removed {
            return Ok(());
        }
        if self.found && (self.timed_out || self.past_deadline()) {
            self.timed_out = true;
            self.open_bound = self.open_bound.max(removed + open);
            return Ok(());
        }
        if tighten && self.found {
            // A link that cannot be disabled on top of the current set cannot
            // be on top of any superset either: drop it from this subtree's
            // bound, stopping as soon as the bound prunes.
            for j in i..self.links.len() {
                if self.dead[j] || self.fits(self.links[j].0)? {
                    continue;
                }
                self.dead[j] = true;
                self.dead_marks.push(j);
                open -= self.links[j].1;
                if removed + open <= self.best_removed {
                    return Ok(());
                }
            }
        }
        while i < self.links.len() && self.dead[i] {
            i += 1;
        }
        if i == self.links.len() {
            self.best.copy_from_slice(&self.chosen);
            self.best_removed = removed;
            self.found = true;
            return Ok(());
        }
        let (link, penalty) = self.links[i];
        open -= penalty;
        let changes = self.work.set_link_usable(self.fabric, link, false)?;
        if self.feasible(&changes) {
            self.chosen[i] = true;
            let explored = self.run(i + 1, removed + penalty, open, true);
            self.chosen[i] = false;
            if let Err(err) = explored {
                self.work.set_link_usable(self.fabric, link, true)?;
                return Err(err);
            }
        }
        self.work.set_link_usable(self.fabric, link, true)?;
        self.run(i + 1, removed, open, false)
    }

    /// Whether `link` can be disabled on top of the current set.
    fn fits(&mut self, link: LinkId) -> Result<bool, PathError> {
        let changes = self.work.set_link_usable(self.fabric, link, false)?;
        let fits = self.feasible(&changes);
        self.work.set_link_usable(self.fabric, link, true)?;
        Ok(fits)
    }

    fn feasible(&self, changes: &[CountChange]) -> bool {
        changes
            .iter()
            .all(|c| self.fabric.tier(c.switch) != 0 || c.after >= self.floor[c.switch as usize])
    }

    fn past_deadline(&self) -> bool {
        self.nodes.is_multiple_of(CLOCK_EVERY) && self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corropt::Thresholds;
    use crate::fabric::generators::fat_tree;

    fn corrupting(links: &[(LinkId, f64)]) -> Vec<CorruptingLink> {
        links
            .iter()
            .map(|&(link, loss_rate)| CorruptingLink::new(link, loss_rate))
            .collect()
    }

    #[test]
    fn prunes_links_no_constrained_tor_depends_on() {
        // k=4 fat tree at c = 0.5: ToR 0 loses both up-links if all go, so it
        // is constrained; the core link of pod 3 constrains nobody.
        let g = fat_tree(4);
        let state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let far = g.up_links(g.upper(g.up_links(6)[0]))[0];
        let links = corrupting(&[(a, 1e-4), (b, 1e-3), (far, 1e-6)]);
        let opt = state.optimize(&links, Penalty::Linear, None).unwrap();
        assert_eq!(opt.pruned, 1);
        assert_eq!(opt.segments, 1);
        let mut expected = vec![b, far];
        expected.sort_unstable();
        assert_eq!(opt.disable, expected);
        assert_eq!(opt.keep_enabled, vec![a]);
        assert_eq!(opt.remaining_penalty, 1e-4);
        assert!(opt.proven_optimal);
    }

    #[test]
    fn beats_greedy_when_one_bad_link_blocks_two_others() {
        // ToR 0 (4 paths, c = 0.5) can lose 2 paths. Greedy takes its up-link
        // to agg X (penalty 3, -2 paths), which blocks the two core links of
        // the other agg Y (penalty 2 each, -1 path each); the optimum keeps
        // the up-link and takes both core links.
        let g = fat_tree(4);
        let state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let up = g.up_links(0)[0];
        let y = g.upper(g.up_links(0)[1]);
        let [c0, c1] = [g.up_links(y)[0], g.up_links(y)[1]];
        let links = corrupting(&[(up, 3e-4), (c0, 2e-4), (c1, 2e-4)]);
        let mut greedy = state.clone();
        let decisions = greedy.check_batch(&links, Penalty::Linear).unwrap();
        let greedy_left: f64 = decisions
            .iter()
            .filter(|d| !d.disabled)
            .map(|d| d.penalty)
            .sum();
        assert!((greedy_left - 4e-4).abs() < 1e-15);
        let opt = state.optimize(&links, Penalty::Linear, None).unwrap();
        assert_eq!(opt.keep_enabled, vec![up]);
        assert!((opt.remaining_penalty - 3e-4).abs() < 1e-15);
        let mut applied = state.clone();
        applied.apply(&opt).unwrap();
        assert!(applied.tors_below_threshold().is_empty());
    }

    #[test]
    fn minimises_the_sum_of_both_directions_penalties() {
        // As the checker's test: ToR 0 keeps one of a (1e-5 both ways) and b
        // (1e-4 one way). Under log the optimum keeps b (4 < 6); with a's
        // rates summed into one (log 3.3) it would keep a.
        let g = fat_tree(4);
        let state = CorrOptState::all_enabled(&g, &Thresholds::new(0.5).unwrap()).unwrap();
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let pair = [
            CorruptingLink::both_directions(a, 1e-5, 1e-5),
            CorruptingLink::new(b, 1e-4),
        ];
        let opt = state.optimize(&pair, Penalty::Log, None).unwrap();
        assert_eq!(
            (opt.disable.clone(), opt.keep_enabled.clone()),
            (vec![a], vec![b])
        );
        assert!((opt.remaining_penalty - Penalty::Log.of(1e-4)).abs() < 1e-12);
        let summed = [CorruptingLink::new(a, 2e-5), CorruptingLink::new(b, 1e-4)];
        let opt = state.optimize(&summed, Penalty::Log, None).unwrap();
        assert_eq!(opt.keep_enabled, vec![a]);
        let opt = state.optimize(&pair, Penalty::Linear, None).unwrap();
        assert_eq!(opt.keep_enabled, vec![a]);
        assert!((opt.remaining_penalty - 2e-5).abs() < 1e-18);
    }

    #[test]
    fn ignores_links_that_are_not_enabled() {
        let g = fat_tree(4);
        let mut states = vec![LinkState::Enabled; g.num_links()];
        let up = g.up_links(0)[0];
        states[up as usize] = LinkState::Disabled;
        let state = CorrOptState::new(&g, states, &Thresholds::new(0.5).unwrap()).unwrap();
        let links = corrupting(&[(up, 1e-3), (g.up_links(0)[1], 1e-4)]);
        let opt = state.optimize(&links, Penalty::Linear, None).unwrap();
        // ToR 0 is at 2 of 4 = its floor; the other up-link must stay.
        assert!(opt.disable.is_empty());
        assert_eq!(opt.keep_enabled, vec![g.up_links(0)[1]]);
    }

    #[test]
    fn zero_budget_still_returns_a_feasible_answer_with_a_bound() {
        // Every link of a k=8 fat tree corrupts: 256 candidates in 8 segments.
        let g = fat_tree(8);
        let state = CorrOptState::all_enabled(&g, &Thresholds::new(0.75).unwrap()).unwrap();
        let links: Vec<(LinkId, f64)> = (0..g.num_links() as LinkId)
            .map(|l| (l, [1e-6, 2e-5, 3e-4][l as usize % 3]))
            .collect();
        let links = corrupting(&links);
        let quick = state
            .optimize(&links, Penalty::Linear, Some(Duration::ZERO))
            .unwrap();
        assert!(!quick.proven_optimal);
        assert_eq!(quick.segments, 8);
        let exact = state.optimize(&links, Penalty::Linear, None).unwrap();
        assert!(exact.proven_optimal);
        assert!(exact.remaining_penalty <= quick.remaining_penalty + 1e-15);
        assert!(quick.remaining_penalty_lower_bound <= exact.remaining_penalty + 1e-15);
        let mut applied = state.clone();
        applied.apply(&quick).unwrap();
        assert!(applied.tors_below_threshold().is_empty());
    }
}
