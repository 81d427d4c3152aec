//! Circuit schedules over a demand series: one set of circuits per period,
//! chosen from the demand seen so far and scored on the demand the circuits
//! then meet.
//!
//! A [`Stepper`] holds the state between slots (previous circuits, burst
//! filter counters, leftover demand in drain mode); [`plan`] drives it with
//! an algorithm and [`super::verify`] drives the same stepper with the
//! circuits of a stored schedule, so both compute weights the same way.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use super::MatchingError;
use super::groups::{EdgeGroup, match_with_groups};
use super::slot::{self, Candidate, Circuit};

/// How the circuits of a slot are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// Maximum-weight matching (b-matching with several ports per rack).
    Exact,
    /// Heaviest candidates first while ports are free.
    Greedy,
    /// Circle-method round-robin: every pair once in n-1 slots.
    RoundRobin,
    /// The first slot's exact circuits, kept forever.
    Static,
    /// A seeded random maximal set of circuits.
    Random,
}

impl Algorithm {
    /// Name used in inputs and outputs.
    pub fn name(self) -> &'static str {
        match self {
            Self::Exact => "exact",
            Self::Greedy => "greedy",
            Self::RoundRobin => "round-robin",
            Self::Static => "static",
            Self::Random => "random",
        }
    }

    /// Parses a name as written by [`Algorithm::name`] (`round_robin` too).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "exact" => Self::Exact,
            "greedy" => Self::Greedy,
            "round-robin" | "round_robin" => Self::RoundRobin,
            "static" => Self::Static,
            "random" => Self::Random,
            _ => return None,
        })
    }
}

/// Which circuits go dark when the configuration changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReconfigMode {
    /// Only the ports whose circuit changes go dark.
    PerPort,
    /// Every circuit goes dark on any change (the seed's emulation).
    Global,
}

/// How slots are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Circuits of slot t are computed on window t and carry window t+1's
    /// demand, which shows the cost of predicting from the past.
    Replay,
    /// Demand accumulates and circuits carry it away until nothing eligible
    /// is left (for example a VM migration).
    Drain,
}

/// Inputs of a schedule other than the demand.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleConfig {
    /// Optical ports of each rack that can take a circuit now (0 when the
    /// rack's port is disabled or under repair).
    pub ports: Vec<u32>,
    /// OCS zone of each rack; circuits stay inside a zone.
    pub zones: Vec<u32>,
    /// Bytes per second one circuit carries.
    pub capacity_bytes_per_s: f64,
    /// Reconfiguration period T in seconds.
    pub period_s: f64,
    /// Dark time of a changed circuit in seconds.
    pub dark_time_s: f64,
    /// Which circuits go dark on a change.
    pub reconfig: ReconfigMode,
    /// Replay or drain.
    pub mode: Mode,
    /// How circuits are chosen.
    pub algorithm: Algorithm,
    /// Seed of the random baseline.
    pub seed: u64,
    /// Pair demand (both directions) below this many bytes is ignored.
    pub min_demand_bytes: u64,
    /// Burst filter: a pair counts as demand once it has been active in this
    /// many windows since its counters were last reset (1 = no filter).
    pub burst_active: u32,
    /// Burst filter: counters reset after this many idle windows in a row.
    pub burst_reset: u32,
    /// A kept circuit's weight counts (1 + hysteresis) times when choosing,
    /// so a new configuration must be that much better to replace it.
    pub hysteresis: f64,
    /// Past this many seconds of planning, exact slots fall back to greedy.
    pub time_budget_s: Option<f64>,
    /// Drain mode stops after this many slots even if demand is left.
    pub max_slots: usize,
    /// Edge groups (one port per rack, exact algorithm): rack pairs that earn
    /// a bonus when every pair has a circuit in the same slot. A group counts
    /// in a slot only when each of its pairs is a candidate there (demand above
    /// the minimum, free ports, one zone).
    pub groups: Vec<EdgeGroup>,
}

impl ScheduleConfig {
    /// c-Through's defaults for `num_racks` racks with one port each in one
    /// zone: 10 Gb/s circuits, T = 1 s, 10 ms dark time, per-port
    /// reconfiguration, replay, exact, min demand 1 MB, no burst filter.
    pub fn new(num_racks: usize) -> Self {
        Self {
            ports: vec![1; num_racks],
            zones: vec![0; num_racks],
            capacity_bytes_per_s: 1.25e9,
            period_s: 1.0,
            dark_time_s: 0.01,
            reconfig: ReconfigMode::PerPort,
            mode: Mode::Replay,
            algorithm: Algorithm::Exact,
            seed: 0,
            min_demand_bytes: 1_000_000,
            burst_active: 1,
            burst_reset: 1,
            hysteresis: 0.0,
            time_budget_s: None,
            max_slots: 100_000,
            groups: Vec::new(),
        }
    }

    /// Number of racks.
    pub fn num_racks(&self) -> usize {
        self.ports.len()
    }

    /// Every problem of this configuration with `windows`.
    pub fn validate(&self, windows: &[Window]) -> Result<(), MatchingError> {
        let mut problems = Vec::new();
        let n = self.ports.len();
        if n == 0 {
            problems.push("racks: at least one rack is needed".to_string());
        }
        if self.zones.len() != n {
            problems.push(format!("zones: {} entries for {n} racks", self.zones.len()));
        }
        if !(self.capacity_bytes_per_s.is_finite() && self.capacity_bytes_per_s > 0.0) {
            problems.push(format!(
                "capacity: must be positive, got {}",
                self.capacity_bytes_per_s
            ));
        }
        if !(self.period_s.is_finite() && self.period_s > 0.0) {
            problems.push(format!("period: must be positive, got {}", self.period_s));
        }
        if !(self.dark_time_s.is_finite()
            && self.dark_time_s >= 0.0
            && self.dark_time_s < self.period_s)
        {
            problems.push(format!(
                "dark_time: must be at least 0 and below the period ({}), got {}",
                self.period_s, self.dark_time_s
            ));
        }
        if self.burst_active == 0 || self.burst_reset == 0 {
            problems.push("burst filter: thresholds must be at least 1".to_string());
        }
        if !(self.hysteresis.is_finite() && self.hysteresis >= 0.0) {
            problems.push(format!(
                "hysteresis: must be at least 0, got {}",
                self.hysteresis
            ));
        }
        if let Some(budget) = self.time_budget_s
            && !(budget.is_finite() && budget >= 0.0)
        {
            problems.push(format!("time_budget: must be at least 0, got {budget}"));
        }
        for (g, group) in self.groups.iter().enumerate() {
            if group.bonus < 0 {
                problems.push(format!(
                    "groups[{g}]: bonus must be at least 0, got {}",
                    group.bonus
                ));
            }
            if group.pairs.is_empty() {
                problems.push(format!("groups[{g}]: no pairs"));
            }
            for &(a, b) in &group.pairs {
                if a as usize >= n || b as usize >= n || a == b {
                    problems.push(format!(
                        "groups[{g}]: pair ({a}, {b}) needs two different racks of 0 to {}",
                        n.saturating_sub(1)
                    ));
                }
            }
        }
        if self.mode == Mode::Replay && windows.len() < 2 {
            problems.push(format!(
                "demand: replay needs at least two windows (got {}); use drain for one snapshot",
                windows.len()
            ));
        }
        if windows.is_empty() {
            problems.push("demand: no windows".to_string());
        }
        for (w, window) in windows.iter().enumerate() {
            for (i, &(src, dst, _)) in window.iter().enumerate() {
                if src as usize >= n || dst as usize >= n {
                    problems.push(format!(
                        "demand window {w} entry {i}: rack {} out of range (0 to {})",
                        src.max(dst),
                        n.saturating_sub(1)
                    ));
                } else if src == dst {
                    problems.push(format!(
                        "demand window {w} entry {i}: src and dst are both rack {src} (intra-rack traffic never uses a circuit)"
                    ));
                }
            }
        }
        MatchingError::check(problems)
    }

    fn caps(&self) -> (i64, i64) {
        let kept = (self.capacity_bytes_per_s * self.period_s).floor() as i64;
        let changed =
            (self.capacity_bytes_per_s * (self.period_s - self.dark_time_s)).floor() as i64;
        (kept, changed)
    }
}

/// One window of directed demand: (src rack, dst rack, bytes).
pub type Window = Vec<(u32, u32, u64)>;

/// One slot of a schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// Slot index (0-based).
    pub index: usize,
    /// Start in seconds from the first slot.
    pub t0: f64,
    /// End in seconds.
    pub t1: f64,
    /// Circuits of the slot, sorted by (a, b).
    pub circuits: Vec<Circuit>,
    /// Racks with a port that goes dark at the start of the slot (a rack
    /// appears once per dark port).
    pub changed_ports: Vec<u32>,
    /// Bytes the circuits could carry of the demand they were chosen on.
    pub weight: i64,
    /// Upper bound on `weight` for any circuits of this slot.
    pub bound: i64,
    /// Bytes the circuits carried of the demand they met.
    pub offloaded_bytes: u64,
    /// Algorithm that produced the slot (greedy after a time-budget fallback).
    pub algorithm: Algorithm,
    /// Whether `weight` is the optimum for this slot.
    pub exact: bool,
    /// Whether no eligible pair has a free port at both ends.
    pub maximal: bool,
    /// Edge groups (indices into the options' `groups`) every pair of which
    /// has a circuit in this slot.
    pub completed_groups: Vec<usize>,
    /// The bonuses of `completed_groups`, on top of `weight`.
    pub bonus: i64,
}

/// A schedule and its metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// The slots in time order.
    pub slots: Vec<Slot>,
    /// Summary over the slots.
    pub metrics: Metrics,
}

/// Summary of a schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Metrics {
    /// Cross-rack bytes the slots met (scored demand).
    pub total_bytes: u64,
    /// Bytes carried by circuits.
    pub offloaded_bytes: u64,
    /// offloaded / total (0 when there is no demand).
    pub optical_ratio: f64,
    /// The ratio uniform demand would give: floor(sum k / 2) / C(n, 2) over
    /// the racks with ports.
    pub uniform_ratio: f64,
    /// Longest wait, in slots, of a pair with demand for a circuit.
    pub visit_delay_max_slots: u32,
    /// 95th percentile over pairs with demand of their longest wait.
    pub visit_delay_p95_slots: u32,
    /// How many pairs with demand waited how long at most: powers-of-two
    /// bins (see [`visit_delay_histogram`]).
    pub visit_delay_histogram: Vec<VisitDelayBin>,
    /// Circuits that came back one slot after being torn down.
    pub flap_count: u32,
    /// Sum of the slots' weights (bytes, without edge-group bonuses).
    pub weight: i64,
    /// Sum of the slots' edge-group bonuses.
    pub bonus: i64,
    /// Edge groups completed, counted once per slot that completes them.
    pub groups_completed: usize,
    /// Sum of the slots' bounds.
    pub bound: i64,
    /// (bound - weight) / bound, 0 when the bound is 0.
    pub gap: f64,
    /// Slots computed by greedy because the time budget ran out.
    pub fallback_slots: usize,
    /// Planning time in seconds.
    pub runtime_s: f64,
}

/// Pairs whose longest wait for a circuit fell in `[min_slots, max_slots]`
/// slots, that is `[min_s, max_s]` seconds at the schedule's period.
#[derive(Debug, Clone, PartialEq)]
pub struct VisitDelayBin {
    /// Shortest wait of the bin, in slots.
    pub min_slots: u32,
    /// Longest wait of the bin, in slots (inclusive).
    pub max_slots: u32,
    /// `min_slots` in seconds.
    pub min_s: f64,
    /// `max_slots` in seconds.
    pub max_s: f64,
    /// Pairs with demand whose longest wait is in the bin.
    pub pairs: u32,
}

/// The distribution of the pairs' longest waits in powers-of-two bins: 0,
/// 1, 2-3, 4-7, ... up to the bin holding the longest wait, empty bins
/// between included. Doubling bins keep a long tail visible next to the many
/// pairs served at once, and bound the result to 33 bins whatever the number
/// of pairs; no pairs give no bins.
pub fn visit_delay_histogram(waits: &[u32], period_s: f64) -> Vec<VisitDelayBin> {
    let bin_of = |wait: u32| (u32::BITS - wait.leading_zeros()) as usize;
    let Some(longest) = waits.iter().copied().max() else {
        return Vec::new();
    };
    let mut counts = vec![0u32; bin_of(longest) + 1];
    for &wait in waits {
        counts[bin_of(wait)] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(bin, pairs)| {
            let (min_slots, max_slots) = match bin {
                0 => (0, 0),
                _ => (1u32 << (bin - 1), ((1u64 << bin) - 1) as u32),
            };
            VisitDelayBin {
                min_slots,
                max_slots,
                min_s: min_slots as f64 * period_s,
                max_s: max_slots as f64 * period_s,
                pairs,
            }
        })
        .collect()
}

type Pair = (u32, u32);

fn aggregate(window: &Window) -> BTreeMap<Pair, u64> {
    let mut pairs = BTreeMap::new();
    for &(src, dst, bytes) in window {
        if src != dst {
            *pairs.entry((src.min(dst), src.max(dst))).or_insert(0) += bytes;
        }
    }
    pairs
}

/// Per-circuit byte limits of a pair's ranks.
fn rank_caps(count: u32, kept: u32, per_port_kept: bool, caps: (i64, i64)) -> Vec<i64> {
    (1..=count)
        .map(|r| {
            if per_port_kept && r <= kept {
                caps.0
            } else {
                caps.1
            }
        })
        .collect()
}

/// Bytes carried of `demand` by circuits with the given limits, filled in order.
fn carried(demand: u64, limits: &[i64]) -> u64 {
    let mut left = demand;
    let mut total = 0;
    for &cap in limits {
        let take = left.min(cap.max(0) as u64);
        total += take;
        left -= take;
    }
    total
}

/// What a slot is chosen on.
pub(crate) struct SlotInput {
    /// Candidates as the algorithm sees them (kept circuits with hysteresis).
    pub objective: Vec<Candidate>,
    /// Candidates if every circuit went dark (global mode's new option).
    pub all_changed: Vec<Candidate>,
}

/// State carried from slot to slot.
pub(crate) struct Stepper<'a> {
    config: &'a ScheduleConfig,
    windows: &'a [Window],
    caps: (i64, i64),
    previous: HashMap<Pair, u32>,
    burst: HashMap<Pair, (u32, u32)>,
    leftover: BTreeMap<Pair, u64>,
    decision: BTreeMap<Pair, u64>,
    pub(crate) index: usize,
    total_bytes: u64,
    waiting: HashMap<Pair, u32>,
    longest_wait: HashMap<Pair, u32>,
    torn_down_at: HashMap<Pair, usize>,
    flaps: u32,
}

impl<'a> Stepper<'a> {
    pub(crate) fn new(
        config: &'a ScheduleConfig,
        windows: &'a [Window],
    ) -> Result<Self, MatchingError> {
        config.validate(windows)?;
        Ok(Self {
            config,
            windows,
            caps: config.caps(),
            previous: HashMap::new(),
            burst: HashMap::new(),
            leftover: BTreeMap::new(),
            decision: BTreeMap::new(),
            index: 0,
            total_bytes: 0,
            waiting: HashMap::new(),
            longest_wait: HashMap::new(),
            torn_down_at: HashMap::new(),
            flaps: 0,
        })
    }

    fn usable(&self, (a, b): Pair) -> bool {
        let c = self.config;
        c.ports[a as usize] > 0
            && c.ports[b as usize] > 0
            && c.zones[a as usize] == c.zones[b as usize]
    }

    /// The next slot's input, or None when the schedule is complete.
    pub(crate) fn prepare(&mut self) -> Option<SlotInput> {
        let t = self.index;
        let seen = match self.config.mode {
            Mode::Replay => {
                if t + 1 >= self.windows.len() {
                    return None;
                }
                aggregate(&self.windows[t])
            }
            Mode::Drain => {
                if t >= self.config.max_slots {
                    return None;
                }
                if let Some(window) = self.windows.get(t) {
                    for (pair, bytes) in aggregate(window) {
                        self.total_bytes += bytes;
                        *self.leftover.entry(pair).or_insert(0) += bytes;
                    }
                }
                self.leftover.clone()
            }
        };
        // Burst filter counters: (active windows, idle windows in a row).
        let min = self.config.min_demand_bytes;
        let mut keys: Vec<Pair> = self.burst.keys().copied().collect();
        keys.extend(
            seen.iter()
                .filter(|&(_, &b)| b >= min.max(1))
                .map(|(&p, _)| p),
        );
        keys.sort_unstable();
        keys.dedup();
        for pair in keys {
            let active_now = seen.get(&pair).is_some_and(|&b| b >= min.max(1));
            let entry = self.burst.entry(pair).or_insert((0, 0));
            if active_now {
                entry.0 += 1;
                entry.1 = 0;
            } else {
                entry.1 += 1;
                if entry.1 >= self.config.burst_reset {
                    self.burst.remove(&pair);
                }
            }
        }
        self.decision = seen
            .into_iter()
            .filter(|&(pair, bytes)| {
                bytes >= min.max(1)
                    && self.usable(pair)
                    && self
                        .burst
                        .get(&pair)
                        .is_some_and(|&(active, _)| active >= self.config.burst_active)
            })
            .collect();
        if self.config.mode == Mode::Drain && t >= self.windows.len() && self.decision.is_empty() {
            return None;
        }
        Some(SlotInput {
            objective: self.candidates(true, true),
            all_changed: self.candidates(false, false),
        })
    }

    fn candidates(&self, bonus: bool, kept_full: bool) -> Vec<Candidate> {
        let ports = &self.config.ports;
        let mut out = Vec::new();
        for (&(a, b), &bytes) in &self.decision {
            let ranks = ports[a as usize].min(ports[b as usize]);
            let kept = if kept_full {
                self.previous.get(&(a, b)).copied().unwrap_or(0)
            } else {
                0
            };
            let mut left = bytes;
            for (r, cap) in rank_caps(ranks, kept, true, self.caps)
                .into_iter()
                .enumerate()
            {
                let take = left.min(cap.max(0) as u64);
                if take == 0 {
                    break;
                }
                left -= take;
                let kept_rank = (r as u32) < kept;
                let weight = if bonus && kept_rank {
                    (take as f64 * (1.0 + self.config.hysteresis)).round() as i64
                } else {
                    take as i64
                };
                out.push(Candidate {
                    a,
                    b,
                    rank: r as u32 + 1,
                    weight,
                });
            }
        }
        out
    }

    /// Records `circuits` as this slot's and scores them.
    pub(crate) fn commit(
        &mut self,
        circuits: Vec<Circuit>,
        algorithm: Algorithm,
        exact: bool,
        maximal: bool,
    ) -> Slot {
        let t = self.index;
        let counts: HashMap<Pair, u32> = circuits.iter().map(|c| ((c.a, c.b), c.count)).collect();
        let unchanged = counts == self.previous;
        let per_port = self.config.reconfig == ReconfigMode::PerPort;
        let limits = |pair: &Pair, count: u32| -> Vec<i64> {
            let kept = self.previous.get(pair).copied().unwrap_or(0);
            if per_port {
                rank_caps(count, kept, true, self.caps)
            } else {
                rank_caps(count, if unchanged { count } else { 0 }, true, self.caps)
            }
        };
        let mut changed_ports = Vec::new();
        let mut weight = 0i64;
        for c in &circuits {
            let pair = (c.a, c.b);
            let kept = self.previous.get(&pair).copied().unwrap_or(0);
            let dark = if per_port {
                c.count.saturating_sub(kept)
            } else if unchanged {
                0
            } else {
                c.count
            };
            for _ in 0..dark {
                changed_ports.push(c.a);
                changed_ports.push(c.b);
            }
            let demand = self.decision.get(&pair).copied().unwrap_or(0);
            weight += carried(demand, &limits(&pair, c.count)) as i64;
        }
        changed_ports.sort_unstable();
        // Kept circuits at full capacity bound every option, in both modes.
        let bound_candidates = self.candidates(false, true);
        let bound = slot::upper_bound(&self.config.ports, &bound_candidates).max(weight);
        // Score on the demand the circuits meet.
        let met: BTreeMap<Pair, u64> = match self.config.mode {
            Mode::Replay => aggregate(&self.windows[t + 1]),
            Mode::Drain => self.leftover.clone(),
        };
        let mut offloaded = 0u64;
        for c in &circuits {
            let pair = (c.a, c.b);
            let demand = met.get(&pair).copied().unwrap_or(0);
            let moved = carried(demand, &limits(&pair, c.count));
            offloaded += moved;
            if self.config.mode == Mode::Drain
                && let Some(left) = self.leftover.get_mut(&pair)
            {
                *left -= moved;
                if *left == 0 {
                    self.leftover.remove(&pair);
                }
            }
        }
        if self.config.mode == Mode::Replay {
            self.total_bytes += met.values().sum::<u64>();
        }
        // Visit delay and flaps.
        for (&pair, &bytes) in &met {
            if bytes == 0 {
                continue;
            }
            if counts.contains_key(&pair) {
                let waited = self.waiting.remove(&pair).unwrap_or(0);
                let longest = self.longest_wait.entry(pair).or_insert(0);
                *longest = (*longest).max(waited);
            } else {
                let waited = self.waiting.entry(pair).or_insert(0);
                *waited += 1;
                let longest = self.longest_wait.entry(pair).or_insert(0);
                *longest = (*longest).max(*waited);
            }
        }
        for pair in self.previous.keys() {
            if !counts.contains_key(pair) {
                self.torn_down_at.insert(*pair, t);
            }
        }
        for pair in counts.keys() {
            if !self.previous.contains_key(pair)
                && self.torn_down_at.get(pair) == Some(&(t.wrapping_sub(1)))
            {
                self.flaps += 1;
            }
        }
        let completed_groups: Vec<usize> = self
            .config
            .groups
            .iter()
            .enumerate()
            .filter(|(_, group)| {
                group
                    .pairs
                    .iter()
                    .all(|&(a, b)| counts.contains_key(&(a.min(b), a.max(b))))
            })
            .map(|(g, _)| g)
            .collect();
        let bonus = completed_groups
            .iter()
            .map(|&g| self.config.groups[g].bonus)
            .sum();
        self.previous = counts;
        self.index += 1;
        let period = self.config.period_s;
        Slot {
            index: t,
            t0: t as f64 * period,
            t1: (t + 1) as f64 * period,
            circuits,
            changed_ports,
            weight,
            bound,
            offloaded_bytes: offloaded,
            algorithm,
            exact,
            maximal,
            completed_groups,
            bonus,
        }
    }

    /// Metrics of the committed slots.
    pub(crate) fn metrics(&self, slots: &[Slot], runtime_s: f64) -> Metrics {
        let offloaded: u64 = slots.iter().map(|s| s.offloaded_bytes).sum();
        let weight: i64 = slots.iter().map(|s| s.weight).sum();
        let bound: i64 = slots.iter().map(|s| s.bound).sum();
        let mut waits: Vec<u32> = self.longest_wait.values().copied().collect();
        waits.sort_unstable();
        let p95 = if waits.is_empty() {
            0
        } else {
            waits[((waits.len() as f64 * 0.95).ceil() as usize).clamp(1, waits.len()) - 1]
        };
        let with_ports: Vec<u32> = self
            .config
            .ports
            .iter()
            .copied()
            .filter(|&k| k > 0)
            .collect();
        let n = with_ports.len() as f64;
        let uniform_ratio = if with_ports.len() < 2 {
            0.0
        } else {
            (with_ports.iter().map(|&k| k as u64).sum::<u64>() / 2) as f64 / (n * (n - 1.0) / 2.0)
        };
        Metrics {
            total_bytes: self.total_bytes,
            offloaded_bytes: offloaded,
            optical_ratio: if self.total_bytes == 0 {
                0.0
            } else {
                offloaded as f64 / self.total_bytes as f64
            },
            uniform_ratio: uniform_ratio.min(1.0),
            visit_delay_max_slots: waits.last().copied().unwrap_or(0),
            visit_delay_p95_slots: p95,
            visit_delay_histogram: visit_delay_histogram(&waits, self.config.period_s),
            flap_count: self.flaps,
            weight,
            bonus: slots.iter().map(|s| s.bonus).sum(),
            groups_completed: slots.iter().map(|s| s.completed_groups.len()).sum(),
            bound,
            gap: if bound == 0 {
                0.0
            } else {
                (bound - weight) as f64 / bound as f64
            },
            fallback_slots: 0,
            runtime_s,
        }
    }
}

/// The exact choice with edge groups, when any group can be completed in this
/// slot (one port per rack): [`match_with_groups`] on the candidates. A slot
/// that completes a group reports `exact: false`, since it may trade base
/// weight for the bonus (and `verify` checks base-weight optimality).
fn with_groups(
    config: &ScheduleConfig,
    candidates: &[Candidate],
) -> Option<(Vec<Circuit>, Algorithm, bool, bool)> {
    if config.groups.is_empty() || config.ports.iter().any(|&k| k > 1) {
        return None;
    }
    let edges: Vec<(u32, u32, i64)> = candidates
        .iter()
        .filter(|c| c.rank == 1)
        .map(|c| (c.a, c.b, c.weight))
        .collect();
    let pairs: std::collections::HashSet<(u32, u32)> =
        edges.iter().map(|&(a, b, _)| (a, b)).collect();
    let groups: Vec<EdgeGroup> = config
        .groups
        .iter()
        .filter(|g| {
            g.pairs
                .iter()
                .all(|&(a, b)| pairs.contains(&(a.min(b), a.max(b))))
        })
        .cloned()
        .collect();
    if groups.is_empty() {
        return None;
    }
    let best = match_with_groups(config.num_racks(), &edges, &groups);
    let exact = best.exact && best.completed.is_empty();
    Some((best.circuits, Algorithm::Exact, exact, true))
}

/// Plans a schedule of `windows` (one entry per demand window, in time order).
pub fn plan(config: &ScheduleConfig, windows: &[Window]) -> Result<Schedule, MatchingError> {
    let schedule = plan_reporting(config, windows, &mut |_| true)?;
    Ok(schedule.unwrap_or_else(|| unreachable!("a reporter that never stops")))
}

/// [`plan`], calling `on_slot` with the number of slots planned so far after
/// each slot (a server job's progress). The plan stops, returning `None`,
/// as soon as `on_slot` returns false (a cancelled job).
pub fn plan_reporting(
    config: &ScheduleConfig,
    windows: &[Window],
    on_slot: &mut dyn FnMut(usize) -> bool,
) -> Result<Option<Schedule>, MatchingError> {
    let started = Instant::now();
    let mut stepper = Stepper::new(config, windows)?;
    let mut slots = Vec::new();
    let mut static_circuits: Option<Vec<Circuit>> = None;
    while let Some(input) = stepper.prepare() {
        let over_budget = config
            .time_budget_s
            .is_some_and(|budget| started.elapsed().as_secs_f64() > budget);
        let ports = &config.ports;
        let choose = |candidates: &[Candidate]| -> (Vec<Circuit>, Algorithm, bool, bool) {
            match config.algorithm {
                Algorithm::Exact | Algorithm::Static if over_budget => (
                    slot::greedy(ports, candidates),
                    Algorithm::Greedy,
                    false,
                    true,
                ),
                Algorithm::Exact | Algorithm::Static => match with_groups(config, candidates) {
                    Some(grouped) => grouped,
                    None => {
                        let (circuits, exact) = slot::exact(ports, candidates);
                        (circuits, Algorithm::Exact, exact, true)
                    }
                },
                Algorithm::Greedy => (
                    slot::greedy(ports, candidates),
                    Algorithm::Greedy,
                    false,
                    true,
                ),
                Algorithm::Random => (
                    slot::random_maximal(
                        ports,
                        candidates,
                        config.seed ^ (stepper.index as u64).wrapping_mul(0x9e37_79b9),
                    ),
                    Algorithm::Random,
                    false,
                    true,
                ),
                Algorithm::RoundRobin => (
                    slot::round_robin(ports, &config.zones, stepper.index),
                    Algorithm::RoundRobin,
                    false,
                    false,
                ),
            }
        };
        let (circuits, algorithm, exact, maximal) = match config.algorithm {
            Algorithm::Static if static_circuits.is_some() => (
                static_circuits.clone().unwrap_or_default(),
                Algorithm::Static,
                false,
                false,
            ),
            _ if config.reconfig == ReconfigMode::Global
                && !matches!(config.algorithm, Algorithm::RoundRobin | Algorithm::Static) =>
            {
                // Keep everything (full period) or change to the best new
                // configuration (every circuit dark).
                let fresh = choose(&input.all_changed);
                let keep: Vec<Circuit> = stepper.previous_circuits();
                let keep_value = slot::weight_of(&keep, &input.objective);
                let fresh_value = slot::weight_of(&fresh.0, &input.all_changed);
                if !keep.is_empty() && keep_value >= fresh_value {
                    (keep, fresh.1, fresh.2, false)
                } else {
                    fresh
                }
            }
            _ => choose(&input.objective),
        };
        if config.algorithm == Algorithm::Static && static_circuits.is_none() {
            static_circuits = Some(circuits.clone());
        }
        let algorithm = if config.algorithm == Algorithm::Static {
            Algorithm::Static
        } else {
            algorithm
        };
        let maximal = maximal && slot::is_maximal(ports, &circuits, &input.objective);
        slots.push(stepper.commit(circuits, algorithm, exact, maximal));
        if !on_slot(slots.len()) {
            return Ok(None);
        }
    }
    let runtime = started.elapsed().as_secs_f64();
    let mut metrics = stepper.metrics(&slots, runtime);
    metrics.fallback_slots = if config.algorithm == Algorithm::Exact {
        slots
            .iter()
            .filter(|s| s.algorithm == Algorithm::Greedy)
            .count()
    } else {
        0
    };
    Ok(Some(Schedule { slots, metrics }))
}

impl Stepper<'_> {
    pub(crate) fn previous_circuits(&self) -> Vec<Circuit> {
        let mut circuits: Vec<Circuit> = self
            .previous
            .iter()
            .map(|(&(a, b), &count)| Circuit { a, b, count })
            .collect();
        circuits.sort();
        circuits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bins(histogram: &[VisitDelayBin]) -> Vec<(u32, u32, u32)> {
        histogram
            .iter()
            .map(|b| (b.min_slots, b.max_slots, b.pairs))
            .collect()
    }

    #[test]
    fn visit_delay_bins_double_and_keep_the_tail() {
        // Many pairs served at once, a few waiting, one waiting 9 slots.
        let waits = [0, 0, 0, 1, 1, 2, 3, 3, 9];
        let histogram = visit_delay_histogram(&waits, 0.5);
        assert_eq!(
            bins(&histogram),
            vec![(0, 0, 3), (1, 1, 2), (2, 3, 3), (4, 7, 0), (8, 15, 1)]
        );
        assert_eq!((histogram[4].min_s, histogram[4].max_s), (4.0, 7.5));
        let counted: u32 = histogram.iter().map(|b| b.pairs).sum();
        assert_eq!(counted as usize, waits.len());
    }

    #[test]
    fn visit_delay_histogram_is_bounded_and_empty_without_pairs() {
        assert!(visit_delay_histogram(&[], 1.0).is_empty());
        let histogram = visit_delay_histogram(&[u32::MAX, 0], 1.0);
        assert_eq!(histogram.len(), 33);
        assert_eq!(bins(&histogram[32..]), vec![(1 << 31, u32::MAX, 1)]);
    }

    #[test]
    fn a_plans_histogram_counts_every_pair_with_demand() {
        // Round-robin over 4 racks with uniform demand: every pair waits.
        let n = 4u32;
        let window: Window = (0..n)
            .flat_map(|a| {
                (0..n)
                    .filter(move |&b| b != a)
                    .map(move |b| (a, b, 10_000_000))
            })
            .collect();
        let config = ScheduleConfig {
            algorithm: Algorithm::RoundRobin,
            period_s: 2.0,
            ..ScheduleConfig::new(n as usize)
        };
        let schedule = plan(&config, &vec![window; 8]).unwrap();
        let m = &schedule.metrics;
        let pairs: u32 = m.visit_delay_histogram.iter().map(|b| b.pairs).sum();
        assert_eq!(pairs, n * (n - 1) / 2);
        let last = m.visit_delay_histogram.last().unwrap();
        assert!(last.pairs > 0);
        assert!((last.min_slots..=last.max_slots).contains(&m.visit_delay_max_slots));
        assert_eq!(last.min_s, last.min_slots as f64 * 2.0);
    }
}
