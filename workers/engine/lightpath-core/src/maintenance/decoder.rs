//! The decoder: turns a list of (work order, technician) into visits with
//! start and end times, each as early as its technician and the fabric's
//! capacity allow, given the visits placed before it in the list.
//!
//! Capacity. Each placed visit is checked at every instant it lasts: the
//! visits active then and the new one are evaluated as one set by the
//! capacity guard ([`CorrOptState::evaluate`]). Only visits touching a ToR
//! the new one touches (a ToR below one of its links) are in the set, and
//! only those ToRs are read from the verdict: a ToR's count depends only on
//! links above it, so for them the verdict is that of the whole active set,
//! and every other ToR keeps the count it had, which was checked when the
//! last visit active there was placed. By induction on the placements, no
//! instant of a decoded schedule leaves a ToR under its floor.

use std::collections::{HashMap, HashSet};

use super::cost::CostModel;
use super::{Crew, Location, PlanError, TravelModel, WorkOrder};
use crate::corropt::{CorrOptState, LinkState};
use crate::fabric::{FabricGraph, LinkId, SwitchId};

/// A visit placed by the decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    pub start: u64,
    pub end: u64,
    pub restored: bool,
}

/// Where a technician is and when they are free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tech {
    pub free_at: u64,
    /// `None` until the first visit: a technician starts at its site.
    pub at: Option<Location>,
}

/// One decoded list entry, with what it needs to be undone.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub order: usize,
    pub tech: u32,
    pub placement: Option<Placement>,
    before: Tech,
    cost: f64,
}

/// A partly or wholly decoded list.
#[derive(Debug, Clone)]
pub(crate) struct Decoding {
    pub techs: Vec<Tech>,
    pub steps: Vec<Step>,
    /// The placement of each decoded order (`None`: not decoded or unscheduled).
    pub placed: Vec<Option<Placement>>,
    /// Expected penalty-hours of the decoded orders.
    pub cost: f64,
}

impl Decoding {
    pub fn new(orders: usize, technicians: u32) -> Self {
        Self {
            techs: vec![
                Tech {
                    free_at: 0,
                    at: None
                };
                technicians as usize
            ],
            steps: Vec::with_capacity(orders),
            placed: vec![None; orders],
            cost: 0.0,
        }
    }

    /// Undoes the last step.
    pub fn pop(&mut self) {
        if let Some(step) = self.steps.pop() {
            self.techs[step.tech as usize] = step.before;
            self.placed[step.order] = None;
            self.cost -= step.cost;
        }
    }

    /// The list this schedule decoded.
    pub fn moves(&self) -> Vec<(usize, u32)> {
        self.steps.iter().map(|s| (s.order, s.tech)).collect()
    }
}

/// The fixed input with what is derived from it once: the ToRs each order
/// touches, which orders share one, and a cache of the guard's verdicts.
pub(crate) struct Problem<'p, 'g> {
    state: &'p mut CorrOptState<'g>,
    pub orders: &'p [WorkOrder],
    pub crew: Crew,
    pub travel: TravelModel,
    pub cost: CostModel,
    /// ToRs below any footprint or restoration link of each order, ascending.
    touched: Vec<Vec<SwitchId>>,
    /// Other orders touching one of the same ToRs, ascending.
    pub conflicts: Vec<Vec<usize>>,
    /// Blocking ToRs of a set of visits, keyed by its sorted `2 * order + restored`.
    verdicts: HashMap<Vec<u32>, Vec<SwitchId>>,
}

impl<'p, 'g> Problem<'p, 'g> {
    pub fn new(
        state: &'p mut CorrOptState<'g>,
        orders: &'p [WorkOrder],
        crew: Crew,
        travel: TravelModel,
        cost: CostModel,
    ) -> Self {
        let fabric = state.fabric();
        let mut mark = vec![usize::MAX; fabric.num_switches()];
        let touched: Vec<Vec<SwitchId>> = orders
            .iter()
            .enumerate()
            .map(|(i, order)| {
                let restored = order.restoration.iter().flat_map(|r| &r.links);
                let links = order.footprint.iter().chain(restored).copied();
                tors_below(fabric, links, &mut mark, i)
            })
            .collect();
        let mut by_tor: HashMap<SwitchId, Vec<usize>> = HashMap::new();
        for (i, tors) in touched.iter().enumerate() {
            for &tor in tors {
                by_tor.entry(tor).or_default().push(i);
            }
        }
        let conflicts = touched
            .iter()
            .enumerate()
            .map(|(i, tors)| {
                let mut others: Vec<usize> = tors
                    .iter()
                    .flat_map(|tor| &by_tor[tor])
                    .copied()
                    .filter(|&j| j != i)
                    .collect();
                others.sort_unstable();
                others.dedup();
                others
            })
            .collect();
        Self {
            state,
            orders,
            crew,
            travel,
            cost,
            touched,
            conflicts,
            verdicts: HashMap::new(),
        }
    }

    /// Whether orders `a` and `b` touch a common ToR.
    pub fn conflict(&self, a: usize, b: usize) -> bool {
        self.conflicts[a].binary_search(&b).is_ok()
    }

    /// When technician `tech` can be at order `order`'s site.
    pub fn ready(&self, schedule: &Decoding, order: usize, tech: u32) -> u64 {
        let t = schedule.techs[tech as usize];
        match t.at {
            None => t.free_at,
            Some(at) => t.free_at + self.travel.between(at, self.orders[order].location),
        }
    }

    /// Where technician `tech` would do `order` next, if anywhere in the
    /// shift: its earliest safe start without the restoration and with it,
    /// whichever costs the order less (without on a tie), unless leaving it
    /// unvisited costs less still.
    pub fn attempt(
        &mut self,
        schedule: &Decoding,
        order: usize,
        tech: u32,
    ) -> Result<Option<Placement>, PlanError> {
        let ready = self.ready(schedule, order, tech);
        let o = &self.orders[order];
        let duration = o.duration_s;
        let plain = self.earliest(schedule, order, ready, false)?;
        if plain == Some(ready) || o.restoration.is_none() {
            return Ok(plain.map(|start| Placement {
                start,
                end: start + duration,
                restored: false,
            }));
        }
        let with = self.earliest(schedule, order, ready, true)?;
        let cost = |start: Option<u64>, restored| {
            start.map(|s| self.cost.visited(o, s + duration, restored))
        };
        let choice = match (cost(plain, false), cost(with, true)) {
            (Some(a), Some(b)) if b < a => with.map(|s| (s, true)),
            (None, Some(_)) => with.map(|s| (s, true)),
            _ => plain.map(|s| (s, false)),
        };
        // A restoration can cost more than leaving the order for later.
        let choice = choice.filter(|&(start, restored)| {
            self.cost.visited(o, start + duration, restored) <= self.cost.unvisited(o)
        });
        Ok(choice.map(|(start, restored)| Placement {
            start,
            end: start + duration,
            restored,
        }))
    }

    /// Records `order` as done by `tech` at `placement` (unscheduled when
    /// `None`).
    pub fn commit(
        &self,
        schedule: &mut Decoding,
        order: usize,
        tech: u32,
        placement: Option<Placement>,
    ) {
        let o = &self.orders[order];
        let before = schedule.techs[tech as usize];
        let cost = match placement {
            Some(p) => {
                schedule.techs[tech as usize] = Tech {
                    free_at: p.end,
                    at: Some(o.location),
                };
                self.cost.visited(o, p.end, p.restored)
            }
            None => self.cost.unvisited(o),
        };
        schedule.placed[order] = placement;
        schedule.cost += cost;
        schedule.steps.push(Step {
            order,
            tech,
            placement,
            before,
            cost,
        });
    }

    /// Decodes one more list entry.
    pub fn push(
        &mut self,
        schedule: &mut Decoding,
        order: usize,
        tech: u32,
    ) -> Result<(), PlanError> {
        let placement = self.attempt(schedule, order, tech)?;
        self.commit(schedule, order, tech, placement);
        Ok(())
    }

    /// The earliest start at or after `ready` at which `order` (with its
    /// restoration or not) fits in the shift and is safe for its whole
    /// duration. The answer is `ready` or the start or end of a visit it
    /// shares a ToR with: between those instants the set of visits it would
    /// overlap only grows as its start moves later.
    fn earliest(
        &mut self,
        schedule: &Decoding,
        order: usize,
        ready: u64,
        restored: bool,
    ) -> Result<Option<u64>, PlanError> {
        let duration = self.orders[order].duration_s;
        let Some(latest) = self.crew.shift_s.checked_sub(duration) else {
            return Ok(None);
        };
        if ready > latest {
            return Ok(None);
        }
        let near: Vec<(usize, Placement)> = self.conflicts[order]
            .iter()
            .filter_map(|&j| schedule.placed[j].map(|p| (j, p)))
            .filter(|(_, p)| p.end > ready)
            .collect();
        let mut candidates = vec![ready];
        for (_, p) in &near {
            candidates.extend([p.start, p.end].into_iter().filter(|&t| t > ready));
        }
        candidates.retain(|&t| t <= latest);
        candidates.sort_unstable();
        candidates.dedup();
        for start in candidates {
            if self.safe_during(order, restored, start, start + duration, &near)? {
                return Ok(Some(start));
            }
        }
        Ok(None)
    }

    /// Whether `order` during `[start, end)` leaves every ToR it touches at
    /// or above its floor, together with the visits of `near` active then.
    fn safe_during(
        &mut self,
        order: usize,
        restored: bool,
        start: u64,
        end: u64,
        near: &[(usize, Placement)],
    ) -> Result<bool, PlanError> {
        let overlapping = near.iter().filter(|(_, p)| p.start < end && start < p.end);
        for &(j, p) in overlapping {
            if self.restores_anothers_footprint((order, restored), (j, p.restored)) {
                return Ok(false);
            }
        }
        let mut instants = vec![start];
        for (_, p) in near {
            instants.extend(
                [p.start, p.end]
                    .into_iter()
                    .filter(|&t| t > start && t < end),
            );
        }
        instants.sort_unstable();
        instants.dedup();
        for instant in instants {
            let mut members: Vec<(usize, bool)> = near
                .iter()
                .filter(|(_, p)| p.start <= instant && instant < p.end)
                .map(|&(j, p)| (j, p.restored))
                .collect();
            members.push((order, restored));
            let blocking = self.blocking(&members)?;
            let touched = &self.touched[order];
            if blocking.iter().any(|t| touched.binary_search(t).is_ok()) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether either visit's restoration (where used) enables a link the
    /// other has in its footprint. Such visits never overlap: a technician
    /// is not told to enable a link another technician has out, and a
    /// visit's restoration is up for all of it.
    fn restores_anothers_footprint(&self, a: (usize, bool), b: (usize, bool)) -> bool {
        let enables_down = |(x, restored): (usize, bool), (y, _): (usize, bool)| {
            restored
                && self.orders[x]
                    .restoration
                    .iter()
                    .flat_map(|r| &r.links)
                    .any(|link| self.orders[y].footprint.contains(link))
        };
        enables_down(a, b) || enables_down(b, a)
    }

    /// Whether no list places `order` anywhere: it is longer than the shift,
    /// or its footprint leaves a ToR it touches under the floor even with
    /// every restoration that could be up beside it enabled (its own and
    /// those of the orders sharing a ToR with it). Any instant of a real
    /// plan has fewer links in service on those ToRs (other visits only add
    /// footprints, and a ToR's count grows with the links above it), so the
    /// guard refuses it there too.
    pub fn never_placed(&mut self, order: usize) -> Result<bool, PlanError> {
        if self.orders[order].duration_s > self.crew.shift_s {
            return Ok(true);
        }
        let footprint = &self.orders[order].footprint;
        let mut changes: Vec<(LinkId, LinkState)> =
            footprint.iter().map(|&l| (l, LinkState::Down)).collect();
        let mut enabled: HashSet<LinkId> = HashSet::new();
        for j in std::iter::once(order).chain(self.conflicts[order].iter().copied()) {
            for &link in self.orders[j].restoration.iter().flat_map(|r| &r.links) {
                if !footprint.contains(&link) && enabled.insert(link) {
                    changes.push((link, LinkState::Enabled));
                }
            }
        }
        let blocking = self.state.evaluate(&changes)?.blocking;
        let touched = &self.touched[order];
        Ok(blocking.iter().any(|t| touched.binary_search(t).is_ok()))
    }

    /// Whether `order`'s footprint alone (with its restoration enabled, when
    /// `restored`) leaves every ToR at or above its floor.
    pub fn safe_alone(&mut self, order: usize, restored: bool) -> Result<bool, PlanError> {
        Ok(self.blocking(&[(order, restored)])?.is_empty())
    }

    /// The guard's blocking ToRs for a set of concurrent visits: their
    /// footprints down, their restorations (where used) enabled. No restored
    /// link is in a member's footprint: an order's own are disjoint (checked
    /// on input) and the decoder never overlaps visits where one restores
    /// the other's footprint.
    fn blocking(&mut self, members: &[(usize, bool)]) -> Result<Vec<SwitchId>, PlanError> {
        let mut key: Vec<u32> = members
            .iter()
            .map(|&(j, restored)| 2 * j as u32 + u32::from(restored))
            .collect();
        key.sort_unstable();
        if let Some(blocking) = self.verdicts.get(&key) {
            return Ok(blocking.clone());
        }
        let mut down: HashSet<LinkId> = HashSet::new();
        let mut changes: Vec<(LinkId, LinkState)> = Vec::new();
        for &(j, _) in members {
            for &link in &self.orders[j].footprint {
                if down.insert(link) {
                    changes.push((link, LinkState::Down));
                }
            }
        }
        let mut enabled: HashSet<LinkId> = HashSet::new();
        for &(j, restored) in members {
            let links = self.orders[j].restoration.iter().flat_map(|r| &r.links);
            for &link in links.filter(|_| restored) {
                if enabled.insert(link) {
                    changes.push((link, LinkState::Enabled));
                }
            }
        }
        let blocking = self.state.evaluate(&changes)?.blocking;
        self.verdicts.insert(key, blocking.clone());
        Ok(blocking)
    }
}

/// ToRs at or below the lower end of any of `links`, ascending. `mark`
/// holds, per switch, the last `stamp` that visited it.
fn tors_below(
    fabric: &FabricGraph,
    links: impl Iterator<Item = LinkId>,
    mark: &mut [usize],
    stamp: usize,
) -> Vec<SwitchId> {
    let mut stack: Vec<SwitchId> = links.map(|l| fabric.lower(l)).collect();
    let mut tors = Vec::new();
    while let Some(s) = stack.pop() {
        if mark[s as usize] == stamp {
            continue;
        }
        mark[s as usize] = stamp;
        if fabric.tier(s) == 0 {
            tors.push(s);
        } else {
            stack.extend(fabric.down_links(s).iter().map(|&l| fabric.lower(l)));
        }
    }
    tors.sort_unstable();
    tors
}
