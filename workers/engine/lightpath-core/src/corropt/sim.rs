//! Trace simulator (CorrOpt, section 3.6): replays corruption onsets under a
//! disabling policy and a repair model, and records total penalty, active
//! corrupting links, disabled links and the worst ToR's capacity over time.
//!
//! Model.
//! - Every link starts enabled and clean, unless [`SimConfig::initial_states`]
//!   says otherwise: a link `Disabled` at the start is out of service awaiting
//!   repair, so it enters the repair queue at time 0 like a link disabled
//!   then; a link `Down` stays down for the whole run (the simulator repairs
//!   corruption, not other failures). Neither counts as a disable of the
//!   policy. ToRs may then start under their threshold; the deciders keep
//!   them from losing more (their floor is what they have).
//! - An onset makes an enabled, clean
//!   link corrupting at the onset's rate. An onset on a link that is already
//!   corrupting, or disabled awaiting repair, is absorbed (counted, otherwise
//!   ignored): the link is already faulty.
//! - Arrivals at the same instant are decided together, in decreasing
//!   penalty (reference note 6).
//! - A disabled link waits `repair_delay_s` in the repair queue; the repair
//!   succeeds with `fix_probability`, otherwise a second round of the same
//!   length follows and succeeds (section 3.6: "80% come back after 2 days
//!   and the rest after 4 days"). The coin of each repair depends only on the
//!   seed, the link and how often it was disabled before, so every policy
//!   sees the same luck for the same repair.
//! - A repaired link is enabled clean. Repairs due at one instant come back
//!   together, before onsets at that instant; then the policy re-runs once.
//! - Corrupting links left enabled keep adding their penalty until disabled.
//!
//! Policies.
//! - `SwitchLocal`: the switch-local rule on arrival and, after a repair,
//!   again over the corrupting links it left enabled (section 3.3).
//! - `FastChecker`: the fast checker on arrival and over all enabled
//!   corrupting links after a repair, as operators do today.
//! - `CorrOpt`: the fast checker on arrival and the optimizer over all
//!   enabled corrupting links after a repair (section 3.5).
//!
//! Re-runs are restricted to the links whose decision a repair can change:
//! for `SwitchLocal`, the corrupting up-links of the repaired links' lower
//! switches (the rule is per switch); for the other two, the enabled
//! corrupting links on a path from a ToR whose capacity the repair raised.
//! Any other corrupting link was refused (or kept by a maximal optimum)
//! because some ToR `b` would fall under its threshold; `b` gained nothing
//! from the repair, and disabling more links only lowers counts, so it still
//! blocks. This holds while every ToR is at or above its threshold, which the
//! fast checker and the optimizer maintain from the all-enabled start. The
//! result is the same as a full re-run (tested with
//! [`SimConfig::exhaustive_reruns`]) and keeps a re-run proportional to the
//! repaired link's neighbourhood rather than to the fabric.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::ControlFlow;
use std::time::Duration;

use super::trace::{Onset, mix64};
use super::{
    CorrOptError, CorrOptState, CorruptingLink, Decision, LinkState, Penalty, Thresholds, TorImpact,
};
use crate::fabric::{FabricGraph, LinkId, SwitchId};

/// Two days, the mean ticket time of the source (section 3.4.2).
pub const DEFAULT_REPAIR_DELAY_S: f64 = 172_800.0;
/// Repair success at the first attempt with CorrOpt's recommendations
/// (section 3.6); 0.5 models repairs without them.
pub const DEFAULT_FIX_PROBABILITY: f64 = 0.8;

/// A run reports each time the simulated time passes another
/// `1 / PROGRESS_STEPS` of the window.
const PROGRESS_STEPS: f64 = 100.0;
/// ... and at least every this many event instants (an onset batch or a
/// repair batch with its re-run). A year on the 100K-link bench fabric has
/// about 170,000 instants of 4 to 30 microseconds each: a report every 1,024
/// keeps a cancel within a few tens of milliseconds of work (plus an
/// optimizer run, bounded by its budget) while a Python reporter's few
/// microseconds stay far under 1% of the run.
pub const REPORT_EVERY_EVENTS: u32 = 1024;

/// Which links to disable, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// Switch-local checking with local share `share` (`c^(1/r)` guarantees
    /// capacity `c` on a uniform Clos with `r` tiers above the ToR).
    SwitchLocal {
        /// Fraction of its up-links each switch must keep.
        share: f64,
    },
    /// The fast checker on arrival and on every repair.
    FastChecker,
    /// The fast checker on arrival, the optimizer on every repair.
    CorrOpt,
}

impl Policy {
    /// The policy's name as the CLI and Python spell it.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::SwitchLocal { .. } => "switch-local",
            Policy::FastChecker => "fast-checker",
            Policy::CorrOpt => "corropt",
        }
    }
}

/// Everything a simulation run needs besides the fabric and the trace.
#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    /// The disabling policy.
    pub policy: Policy,
    /// Per-ToR capacity thresholds.
    pub thresholds: Thresholds,
    /// Penalty `I(f)` of an enabled corrupting link.
    pub penalty: Penalty,
    /// Seconds a disabled link waits for each repair round (finite, > 0).
    pub repair_delay_s: f64,
    /// Probability that the first repair round fixes the link.
    pub fix_probability: f64,
    /// Seed of the repair coins.
    pub seed: u64,
    /// End of the simulated window; `None` means the last onset's time.
    pub horizon_s: Option<f64>,
    /// Time budget of each optimizer run (`CorrOpt`); `None` means exact.
    pub optimizer_budget: Option<Duration>,
    /// Re-run the policy over every enabled corrupting link after a repair
    /// instead of only those the repair can affect. Same result, slower; for
    /// tests.
    pub exhaustive_reruns: bool,
    /// State of every link at time 0 (one per link); `None` means all
    /// enabled. Disabled links await repair from time 0, down links stay down.
    pub initial_states: Option<Vec<LinkState>>,
}

impl SimConfig {
    /// `policy` under `thresholds` with the source's defaults: linear penalty,
    /// 2-day repair rounds, 80% first-round success, seed 0.
    pub fn new(policy: Policy, thresholds: Thresholds) -> Self {
        Self {
            policy,
            thresholds,
            penalty: Penalty::Linear,
            repair_delay_s: DEFAULT_REPAIR_DELAY_S,
            fix_probability: DEFAULT_FIX_PROBABILITY,
            seed: 0,
            horizon_s: None,
            optimizer_budget: None,
            exhaustive_reruns: false,
            initial_states: None,
        }
    }

    fn validate(&self) -> Result<(), CorrOptError> {
        if !(self.repair_delay_s.is_finite() && self.repair_delay_s > 0.0) {
            return Err(CorrOptError::Parameter {
                name: "repair_delay_s",
                value: self.repair_delay_s,
                expected: "a finite number above 0",
            });
        }
        if !(0.0..=1.0).contains(&self.fix_probability) {
            return Err(CorrOptError::Parameter {
                name: "fix_probability",
                value: self.fix_probability,
                expected: "a probability in [0, 1]",
            });
        }
        if let Some(h) = self.horizon_s
            && !(h.is_finite() && h >= 0.0)
        {
            return Err(CorrOptError::Parameter {
                name: "horizon_s",
                value: h,
                expected: "a finite number at least 0",
            });
        }
        if let Policy::SwitchLocal { share } = self.policy
            && !(0.0..=1.0).contains(&share)
        {
            return Err(CorrOptError::LocalShare { value: share });
        }
        Ok(())
    }
}

/// The simulated quantities as step functions: entry `i` holds from
/// `time_s[i]` until `time_s[i + 1]` (the last one until the horizon). A new
/// entry is recorded only when a value changes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimSeries {
    /// Start of each step, seconds, strictly increasing from 0.
    pub time_s: Vec<f64>,
    /// Total penalty of the enabled corrupting links (per second).
    pub penalty: Vec<f64>,
    /// Enabled corrupting links.
    pub active_corrupting: Vec<u32>,
    /// Links disabled and awaiting repair.
    pub disabled: Vec<u32>,
    /// Smallest capacity fraction of any ToR (1.0 without ToRs).
    pub worst_fraction: Vec<f64>,
}

impl SimSeries {
    /// Number of steps.
    pub fn len(&self) -> usize {
        self.time_s.len()
    }

    /// Whether there are no steps.
    pub fn is_empty(&self) -> bool {
        self.time_s.is_empty()
    }
}

/// Event counts of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SimCounts {
    /// Onsets within the horizon.
    pub onsets: u64,
    /// Onsets on links already corrupting or awaiting repair.
    pub absorbed_onsets: u64,
    /// Arrivals the policy left enabled.
    pub refused_arrivals: u64,
    /// Links disabled (on arrival or by a re-run).
    pub disables: u64,
    /// Repaired links enabled again.
    pub repairs: u64,
    /// Repairs that needed a second round.
    pub second_rounds: u64,
    /// Optimizer runs (`CorrOpt`), skipped when there is nothing to decide.
    pub optimizer_runs: u64,
    /// Optimizer runs that hit their budget before proving optimality.
    pub optimizer_unproven: u64,
    /// Disables that took a ToR below its threshold. Always 0 for the fast
    /// checker and CorrOpt; switch-local can cause them with a share below
    /// `c^(1/r)` or on a non-uniform fabric.
    pub threshold_breaches: u64,
}

/// The outcome of one simulation run.
#[derive(Debug, Clone, PartialEq)]
pub struct SimResult {
    /// The policy simulated.
    pub policy: Policy,
    /// End of the simulated window, seconds.
    pub horizon_s: f64,
    /// The quantities over time.
    pub series: SimSeries,
    /// Integral of the total penalty over the window (penalty x seconds).
    pub penalty_seconds: f64,
    /// Integral of the enabled corrupting links (link x seconds).
    pub active_corrupting_seconds: f64,
    /// Integral of the disabled links (link x seconds).
    pub disabled_seconds: f64,
    /// Smallest worst-ToR fraction over the window.
    pub lowest_worst_fraction: f64,
    /// Event counts.
    pub counts: SimCounts,
}

/// Several policies on one trace.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyComparison {
    /// One result per policy asked for, in that order.
    pub results: Vec<SimResult>,
    /// Penalty integral of CorrOpt on the same trace, the reference.
    pub corropt_penalty_seconds: f64,
    /// Each result's penalty integral divided by CorrOpt's (1.0 when both are
    /// 0, infinite when only CorrOpt's is).
    pub penalty_ratio: Vec<f64>,
}

/// Replays `trace` (sorted by time) on `fabric` under `config`.
pub fn simulate(
    fabric: &FabricGraph,
    trace: &[Onset],
    config: &SimConfig,
) -> Result<SimResult, CorrOptError> {
    let result = simulate_reporting(fabric, trace, config, &mut |_| ControlFlow::Continue(()))?;
    Ok(result.unwrap_or_else(|| unreachable!("a reporter that never stops")))
}

/// [`simulate`], calling `reporter` with the simulated fraction of the
/// window (non-decreasing, the last call with 1.0) whenever the simulated
/// time passes another hundredth of the window, and at least every
/// [`REPORT_EVERY_EVENTS`] event instants, so that a burst of onsets in a
/// short stretch of the window still reports. The run stops, returning
/// `None`, as soon as `reporter` returns [`ControlFlow::Break`] (a cancelled
/// job).
pub fn simulate_reporting(
    fabric: &FabricGraph,
    trace: &[Onset],
    config: &SimConfig,
    reporter: &mut dyn FnMut(f64) -> ControlFlow<()>,
) -> Result<Option<SimResult>, CorrOptError> {
    config.validate()?;
    validate_trace(fabric, trace)?;
    let horizon_s = config
        .horizon_s
        .unwrap_or_else(|| trace.last().map_or(0.0, |o| o.time_s));
    let mut sim = Simulation::new(fabric, config)?;
    let step = horizon_s / PROGRESS_STEPS;
    let mut next_report = step;
    let mut reported = 0.0;
    let mut events_since_report = 0;
    let mut next_onset = 0;
    loop {
        let onset_time = trace.get(next_onset).map(|o| o.time_s);
        let repair_time = sim.next_repair();
        let time = match (onset_time, repair_time) {
            (None, None) => break,
            (Some(a), Some(b)) => a.min(b),
            (Some(t), None) | (None, Some(t)) => t,
        };
        if time > horizon_s {
            break;
        }
        if repair_time == Some(time) {
            sim.repair_due(time)?;
        } else {
            let end = trace[next_onset..]
                .iter()
                .position(|o| o.time_s != time)
                .map_or(trace.len(), |k| next_onset + k);
            sim.arrive(&trace[next_onset..end])?;
            next_onset = end;
        }
        sim.record(time);
        events_since_report += 1;
        let passed_a_step = step > 0.0 && time >= next_report;
        if passed_a_step || events_since_report >= REPORT_EVERY_EVENTS {
            // With step 0 (an empty window) every event is at time 0.
            reported = if step > 0.0 { time / horizon_s } else { 0.0 };
            if reporter(reported).is_break() {
                return Ok(None);
            }
            events_since_report = 0;
            if passed_a_step {
                next_report = ((time / step).floor() + 1.0) * step;
            }
        }
    }
    if reported < 1.0 && reporter(1.0).is_break() {
        return Ok(None);
    }
    Ok(Some(sim.finish(horizon_s)))
}

/// Simulates each of `policies` on `trace` with the rest of `config` (its
/// `policy` is ignored), and CorrOpt as the reference of the penalty ratios:
/// if CorrOpt is not among `policies`, it runs once more for the reference.
pub fn compare_policies(
    fabric: &FabricGraph,
    trace: &[Onset],
    config: &SimConfig,
    policies: &[Policy],
) -> Result<PolicyComparison, CorrOptError> {
    let reporter = &mut |_, _| ControlFlow::Continue(());
    let comparison = compare_policies_reporting(fabric, trace, config, policies, reporter)?;
    Ok(comparison.unwrap_or_else(|| unreachable!("a reporter that never stops")))
}

/// [`compare_policies`], reporting each run as [`simulate_reporting`] does
/// with `reporter(run, fraction)`: `run` is the index in `policies`, or
/// `policies.len()` for the extra CorrOpt run. Returns `None`, without
/// starting another run, as soon as `reporter` returns
/// [`ControlFlow::Break`].
pub fn compare_policies_reporting(
    fabric: &FabricGraph,
    trace: &[Onset],
    config: &SimConfig,
    policies: &[Policy],
    reporter: &mut dyn FnMut(usize, f64) -> ControlFlow<()>,
) -> Result<Option<PolicyComparison>, CorrOptError> {
    let mut run = |index: usize, policy: Policy| {
        let config = SimConfig {
            policy,
            ..config.clone()
        };
        simulate_reporting(fabric, trace, &config, &mut |fraction| {
            reporter(index, fraction)
        })
    };
    let mut results = Vec::with_capacity(policies.len());
    for (index, &policy) in policies.iter().enumerate() {
        let Some(result) = run(index, policy)? else {
            return Ok(None);
        };
        results.push(result);
    }
    let corropt_penalty_seconds = match results.iter().find(|r| r.policy == Policy::CorrOpt) {
        Some(r) => r.penalty_seconds,
        None => match run(policies.len(), Policy::CorrOpt)? {
            Some(reference) => reference.penalty_seconds,
            None => return Ok(None),
        },
    };
    let penalty_ratio = results
        .iter()
        .map(|r| {
            if r.penalty_seconds == corropt_penalty_seconds {
                1.0
            } else {
                r.penalty_seconds / corropt_penalty_seconds
            }
        })
        .collect();
    Ok(Some(PolicyComparison {
        results,
        corropt_penalty_seconds,
        penalty_ratio,
    }))
}

fn validate_trace(fabric: &FabricGraph, trace: &[Onset]) -> Result<(), CorrOptError> {
    let mut previous = 0.0;
    for (index, onset) in trace.iter().enumerate() {
        let problem = if !(onset.time_s.is_finite() && onset.time_s >= 0.0) {
            format!("time {} s is not a finite number at least 0", onset.time_s)
        } else if onset.time_s < previous {
            format!(
                "time {} s is before the previous onset's {} s; the trace must be sorted by time",
                onset.time_s, previous
            )
        } else if onset.link as usize >= fabric.num_links() {
            format!(
                "link {} does not exist (the fabric has {} links)",
                onset.link,
                fabric.num_links()
            )
        } else if !(0.0..=1.0).contains(&onset.loss_rate) {
            format!("loss rate {} is not a fraction in [0, 1]", onset.loss_rate)
        } else {
            previous = onset.time_s;
            continue;
        };
        return Err(CorrOptError::TraceOnset { index, problem });
    }
    Ok(())
}

/// Penalties are summed in fixed point so that adding and removing the same
/// links returns the total exactly to where it was (no drift to a tiny
/// non-zero penalty with no corrupting link left). 2^-80 resolves 1e-8 to
/// 16 significant digits; 2^47 of headroom covers any realistic total.
const PENALTY_UNIT: f64 = (1u128 << 80) as f64;

struct Simulation<'g> {
    fabric: &'g FabricGraph,
    state: CorrOptState<'g>,
    config: &'g SimConfig,
    /// Each enabled corrupting link with its loss rates, `None` otherwise.
    active: Vec<Option<CorruptingLink>>,
    active_count: u32,
    penalty_fixed: i128,
    disabled_count: u32,
    /// Times each link was disabled, to index its repair coins.
    times_disabled: Vec<u32>,
    /// Repairs due: (time as bits, link). Times are >= 0, whose bit patterns
    /// order like the numbers.
    repairs: BinaryHeap<Reverse<(u64, LinkId)>>,
    worst: WorstTor,
    /// Per switch: the re-run that last visited it (to avoid clearing).
    visited: Vec<u32>,
    visit: u32,
    series: SimSeries,
    counts: SimCounts,
}

impl<'g> Simulation<'g> {
    fn new(fabric: &'g FabricGraph, config: &'g SimConfig) -> Result<Self, CorrOptError> {
        let states = match &config.initial_states {
            Some(states) => states.clone(),
            None => vec![LinkState::Enabled; fabric.num_links()],
        };
        let state = CorrOptState::new(fabric, states, &config.thresholds)?;
        let worst = WorstTor::new(&state);
        let mut sim = Self {
            fabric,
            state,
            config,
            active: vec![None; fabric.num_links()],
            active_count: 0,
            penalty_fixed: 0,
            disabled_count: 0,
            times_disabled: vec![0; fabric.num_links()],
            repairs: BinaryHeap::new(),
            worst,
            visited: vec![0; fabric.num_switches()],
            visit: 0,
            series: SimSeries::default(),
            counts: SimCounts::default(),
        };
        for link in 0..fabric.num_links() as LinkId {
            if sim.state.link_states()[link as usize] == LinkState::Disabled {
                sim.disabled_count += 1;
                sim.schedule_repair(link, 0.0);
            }
        }
        sim.record(0.0);
        Ok(sim)
    }

    fn next_repair(&self) -> Option<f64> {
        self.repairs
            .peek()
            .map(|Reverse((bits, _))| f64::from_bits(*bits))
    }

    /// The link's penalty (both directions) in fixed point.
    fn penalty_units(&self, link: &CorruptingLink) -> i128 {
        (link.penalty(self.config.penalty) * PENALTY_UNIT).round() as i128
    }

    fn activate(&mut self, corrupting: CorruptingLink) {
        self.penalty_fixed += self.penalty_units(&corrupting);
        self.active[corrupting.link as usize] = Some(corrupting);
        self.active_count += 1;
    }

    fn deactivate(&mut self, link: LinkId) {
        if let Some(corrupting) = self.active[link as usize].take() {
            self.active_count -= 1;
            self.penalty_fixed -= self.penalty_units(&corrupting);
        }
    }

    fn is_active(&self, link: LinkId) -> bool {
        self.active[link as usize].is_some()
    }

    /// New onsets at one instant: the clean enabled links among them become
    /// corrupting and the policy decides on them.
    fn arrive(&mut self, onsets: &[Onset]) -> Result<(), CorrOptError> {
        let mut arrivals = Vec::with_capacity(onsets.len());
        for onset in onsets {
            self.counts.onsets += 1;
            let enabled = self.state.link_states()[onset.link as usize] == LinkState::Enabled;
            if !enabled || self.is_active(onset.link) {
                self.counts.absorbed_onsets += 1;
                continue;
            }
            let corrupting = CorruptingLink::new(onset.link, onset.loss_rate);
            self.activate(corrupting);
            arrivals.push(corrupting);
        }
        let decisions = self.decide_arrivals(&arrivals)?;
        self.counts.refused_arrivals += decisions.iter().filter(|d| !d.disabled).count() as u64;
        self.apply_decisions(&decisions, onsets[0].time_s);
        Ok(())
    }

    fn decide_arrivals(&mut self, links: &[CorruptingLink]) -> Result<Vec<Decision>, CorrOptError> {
        if links.is_empty() {
            return Ok(Vec::new());
        }
        match self.config.policy {
            Policy::SwitchLocal { share } => {
                self.state.switch_local(links, self.config.penalty, share)
            }
            Policy::FastChecker | Policy::CorrOpt => {
                self.state.check_batch(links, self.config.penalty)
            }
        }
    }

    fn apply_decisions(&mut self, decisions: &[Decision], time: f64) {
        for d in decisions.iter().filter(|d| d.disabled) {
            self.disabled(d.link, &d.affected, time);
        }
    }

    /// Book-keeping once `link` is disabled with `impacts` on the ToRs.
    fn disabled(&mut self, link: LinkId, impacts: &[TorImpact], time: f64) {
        self.deactivate(link);
        self.disabled_count += 1;
        self.counts.disables += 1;
        for i in impacts {
            self.worst.set(i.tor, i.fraction_after);
            if i.paths_after < i.paths_before && i.paths_after < i.required_paths {
                self.counts.threshold_breaches += 1;
            }
        }
        self.schedule_repair(link, time);
    }

    /// Puts `link`, disabled at `time`, in the repair queue.
    fn schedule_repair(&mut self, link: LinkId, time: f64) {
        let attempt = &mut self.times_disabled[link as usize];
        let coin = mix64(mix64(self.config.seed) ^ ((u64::from(link) << 32) | u64::from(*attempt)));
        *attempt += 1;
        let fixed_first =
            ((coin >> 11) as f64) / ((1u64 << 53) as f64) < self.config.fix_probability;
        let rounds = if fixed_first {
            1.0
        } else {
            self.counts.second_rounds += 1;
            2.0
        };
        let due = time + rounds * self.config.repair_delay_s;
        self.repairs.push(Reverse((due.to_bits(), link)));
    }

    /// Enables every link whose repair is due at `time`, then re-runs the
    /// policy where that can change a decision.
    fn repair_due(&mut self, time: f64) -> Result<(), CorrOptError> {
        let mut repaired = Vec::new();
        while let Some(&Reverse((bits, link))) = self.repairs.peek() {
            if bits != time.to_bits() {
                break;
            }
            self.repairs.pop();
            repaired.push(link);
        }
        let mut raised_tors = Vec::new();
        for &link in &repaired {
            let impacts = self.state.set_link_state(link, LinkState::Enabled)?;
            self.disabled_count -= 1;
            self.counts.repairs += 1;
            for i in &impacts {
                self.worst.set(i.tor, i.fraction_after);
                raised_tors.push(i.tor);
            }
        }
        let candidates = if self.config.exhaustive_reruns {
            (0..self.fabric.num_links() as LinkId)
                .filter_map(|l| self.active[l as usize])
                .collect()
        } else {
            match self.config.policy {
                Policy::SwitchLocal { .. } => self.active_on_lower_switches(&repaired),
                Policy::FastChecker | Policy::CorrOpt => self.active_above(&raised_tors),
            }
        };
        if candidates.is_empty() {
            return Ok(());
        }
        match self.config.policy {
            Policy::SwitchLocal { .. } | Policy::FastChecker => {
                let decisions = self.decide_arrivals(&candidates)?;
                self.apply_decisions(&decisions, time);
            }
            Policy::CorrOpt => {
                let optimization = self.state.optimize(
                    &candidates,
                    self.config.penalty,
                    self.config.optimizer_budget,
                )?;
                self.counts.optimizer_runs += 1;
                if !optimization.proven_optimal {
                    self.counts.optimizer_unproven += 1;
                }
                for &link in &optimization.disable {
                    let impacts = self.state.set_link_state(link, LinkState::Disabled)?;
                    self.disabled(link, &impacts, time);
                }
            }
        }
        Ok(())
    }

    /// Enabled corrupting up-links of the lower switches of `links`.
    fn active_on_lower_switches(&mut self, links: &[LinkId]) -> Vec<CorruptingLink> {
        self.visit += 1;
        let mut found = Vec::new();
        for &link in links {
            let switch = self.fabric.lower(link);
            if self.visited[switch as usize] == self.visit {
                continue;
            }
            self.visited[switch as usize] = self.visit;
            for &l in self.fabric.up_links(switch) {
                if let Some(corrupting) = self.active[l as usize] {
                    found.push(corrupting);
                }
            }
        }
        found
    }

    /// Enabled corrupting links on some enabled up-path of a ToR in `tors`.
    fn active_above(&mut self, tors: &[SwitchId]) -> Vec<CorruptingLink> {
        self.visit += 1;
        let mut found = Vec::new();
        let mut stack = Vec::new();
        for &tor in tors {
            if self.visited[tor as usize] != self.visit {
                self.visited[tor as usize] = self.visit;
                stack.push(tor);
            }
        }
        let states = self.state.link_states();
        while let Some(switch) = stack.pop() {
            for &l in self.fabric.up_links(switch) {
                if states[l as usize] != LinkState::Enabled {
                    continue;
                }
                if let Some(corrupting) = self.active[l as usize] {
                    found.push(corrupting);
                }
                let upper = self.fabric.upper(l);
                if self.visited[upper as usize] != self.visit {
                    self.visited[upper as usize] = self.visit;
                    stack.push(upper);
                }
            }
        }
        found
    }

    /// Records the values after the events at `time`.
    fn record(&mut self, time: f64) {
        let penalty = self.penalty_fixed as f64 / PENALTY_UNIT;
        let worst = self.worst.min();
        let s = &mut self.series;
        if let Some(last) = s.time_s.len().checked_sub(1) {
            let unchanged = s.penalty[last] == penalty
                && s.active_corrupting[last] == self.active_count
                && s.disabled[last] == self.disabled_count
                && s.worst_fraction[last] == worst;
            if unchanged {
                return;
            }
            if s.time_s[last] == time {
                s.time_s.pop();
                s.penalty.pop();
                s.active_corrupting.pop();
                s.disabled.pop();
                s.worst_fraction.pop();
            }
        }
        s.time_s.push(time);
        s.penalty.push(penalty);
        s.active_corrupting.push(self.active_count);
        s.disabled.push(self.disabled_count);
        s.worst_fraction.push(worst);
    }

    fn finish(self, horizon_s: f64) -> SimResult {
        let s = &self.series;
        let mut penalty_seconds = 0.0;
        let mut active_corrupting_seconds = 0.0;
        let mut disabled_seconds = 0.0;
        for i in 0..s.len() {
            let end = s.time_s.get(i + 1).copied().unwrap_or(horizon_s);
            let span = (end.min(horizon_s) - s.time_s[i]).max(0.0);
            penalty_seconds += s.penalty[i] * span;
            active_corrupting_seconds += f64::from(s.active_corrupting[i]) * span;
            disabled_seconds += f64::from(s.disabled[i]) * span;
        }
        let lowest_worst_fraction = s.worst_fraction.iter().copied().fold(1.0, f64::min);
        SimResult {
            policy: self.config.policy,
            horizon_s,
            series: self.series,
            penalty_seconds,
            active_corrupting_seconds,
            disabled_seconds,
            lowest_worst_fraction,
            counts: self.counts,
        }
    }
}

/// The smallest ToR capacity fraction, kept current in O(log ToRs) per
/// changed ToR by a min segment tree (a full scan per event would cost as
/// much as the rest of the simulation on a 12K-ToR fabric).
struct WorstTor {
    /// Leaf of each switch (`usize::MAX` for switches that are not ToRs).
    leaf: Vec<usize>,
    /// Implicit binary tree: node `i` has children `2i` and `2i + 1`; leaves
    /// start at `leaves`.
    tree: Vec<f64>,
    leaves: usize,
}

impl WorstTor {
    fn new(state: &CorrOptState<'_>) -> Self {
        let tors = state.fabric().tors();
        let leaves = tors.len().next_power_of_two();
        let mut tree = vec![1.0; 2 * leaves];
        let mut leaf = vec![usize::MAX; state.fabric().num_switches()];
        for (k, &t) in tors.iter().enumerate() {
            leaf[t as usize] = leaves + k;
            tree[leaves + k] = state.capacity_fraction(t);
        }
        for i in (1..leaves).rev() {
            tree[i] = tree[2 * i].min(tree[2 * i + 1]);
        }
        Self { leaf, tree, leaves }
    }

    fn set(&mut self, tor: SwitchId, fraction: f64) {
        let mut i = self.leaf[tor as usize];
        self.tree[i] = fraction;
        while i > 1 {
            i /= 2;
            self.tree[i] = self.tree[2 * i].min(self.tree[2 * i + 1]);
        }
    }

    fn min(&self) -> f64 {
        if self.leaves == 0 { 1.0 } else { self.tree[1] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::generators::fat_tree;

    fn onset(time_s: f64, link: LinkId, loss_rate: f64) -> Onset {
        Onset {
            time_s,
            link,
            loss_rate,
        }
    }

    fn config(policy: Policy, capacity: f64) -> SimConfig {
        SimConfig {
            fix_probability: 1.0,
            repair_delay_s: 100.0,
            horizon_s: Some(1000.0),
            ..SimConfig::new(policy, Thresholds::new(capacity).unwrap())
        }
    }

    #[test]
    fn disabled_link_is_repaired_after_the_delay_and_penalty_integrates() {
        // k=4 fat tree at c = 0.5: a ToR up-link may go. Disabled at t=10,
        // back at t=110; no penalty ever stays enabled.
        let g = fat_tree(4);
        let link = g.up_links(0)[0];
        let r = simulate(
            &g,
            &[onset(10.0, link, 1e-4)],
            &config(Policy::CorrOpt, 0.5),
        )
        .unwrap();
        assert_eq!(r.series.time_s, vec![0.0, 10.0, 110.0]);
        assert_eq!(r.series.disabled, vec![0, 1, 0]);
        assert_eq!(r.series.worst_fraction, vec![1.0, 0.5, 1.0]);
        assert_eq!(r.penalty_seconds, 0.0);
        assert_eq!(r.disabled_seconds, 100.0);
        assert_eq!(r.counts.repairs, 1);
        assert_eq!(r.lowest_worst_fraction, 0.5);
    }

    #[test]
    fn refused_link_is_disabled_once_a_repair_frees_capacity() {
        // ToR 0 may lose one of its two up-links at c = 0.5. The second
        // arrival is refused (penalty 1e-5 from t=20) until the first link is
        // back at t=110; then the re-run disables it.
        let g = fat_tree(4);
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let trace = [onset(10.0, a, 1e-3), onset(20.0, b, 1e-5)];
        for policy in [
            Policy::FastChecker,
            Policy::CorrOpt,
            Policy::SwitchLocal { share: 0.5 },
        ] {
            let r = simulate(&g, &trace, &config(policy, 0.5)).unwrap();
            assert_eq!(
                r.series.time_s,
                vec![0.0, 10.0, 20.0, 110.0, 210.0],
                "{policy:?}"
            );
            assert_eq!(r.series.active_corrupting, vec![0, 0, 1, 0, 0]);
            assert_eq!(r.series.disabled, vec![0, 1, 1, 1, 0]);
            assert!((r.penalty_seconds - 1e-5 * 90.0).abs() < 1e-18);
            assert_eq!(r.counts.refused_arrivals, 1);
            assert_eq!(r.counts.threshold_breaches, 0);
        }
    }

    #[test]
    fn starts_from_the_given_link_states() {
        // k=4 fat tree at c = 0.5: ToR 0 keeps 2 of its 4 paths, so it may
        // lose one of its two up-links a, b.
        let g = fat_tree(4);
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let trace = [onset(10.0, b, 1e-5)];
        let with_states = |initial: LinkState| SimConfig {
            initial_states: Some(
                (0..g.num_links() as LinkId)
                    .map(|l| if l == a { initial } else { LinkState::Enabled })
                    .collect(),
            ),
            ..config(Policy::FastChecker, 0.5)
        };
        // a disabled at the start: repaired at t=100, when the re-run takes b
        // (refused at t=10), which is back at t=200.
        let r = simulate(&g, &trace, &with_states(LinkState::Disabled)).unwrap();
        assert_eq!(r.series.time_s, vec![0.0, 10.0, 100.0, 200.0]);
        assert_eq!(r.series.disabled, vec![1, 1, 1, 0]);
        assert_eq!(r.series.active_corrupting, vec![0, 1, 0, 0]);
        assert_eq!(r.series.worst_fraction, vec![0.5, 0.5, 0.5, 1.0]);
        assert!((r.penalty_seconds - 1e-5 * 90.0).abs() < 1e-18);
        assert_eq!((r.counts.disables, r.counts.repairs), (1, 2));
        assert_eq!(r.counts.refused_arrivals, 1);
        // a down: never repaired, so b stays enabled to the horizon (1000 s).
        for policy in [Policy::FastChecker, Policy::CorrOpt] {
            let config = SimConfig {
                policy,
                ..with_states(LinkState::Down)
            };
            let r = simulate(&g, &trace, &config).unwrap();
            assert_eq!(r.series.disabled, vec![0, 0]);
            assert_eq!(r.lowest_worst_fraction, 0.5);
            assert!((r.penalty_seconds - 1e-5 * 990.0).abs() < 1e-18);
            assert_eq!(r.counts.threshold_breaches, 0);
        }
        // All enabled (the default): b goes at once.
        let r = simulate(&g, &trace, &config(Policy::FastChecker, 0.5)).unwrap();
        assert_eq!(r.penalty_seconds, 0.0);

        let bad = SimConfig {
            initial_states: Some(vec![LinkState::Enabled; 3]),
            ..config(Policy::CorrOpt, 0.5)
        };
        let err = simulate(&g, &trace, &bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            "link states have length 3 but the fabric has 32 links"
        );
    }

    #[test]
    fn failed_first_round_doubles_the_wait_and_onsets_on_faulty_links_are_absorbed() {
        let g = fat_tree(4);
        let link = g.up_links(0)[0];
        let config = SimConfig {
            fix_probability: 0.0,
            ..config(Policy::FastChecker, 0.5)
        };
        let trace = [onset(0.0, link, 1e-4), onset(50.0, link, 1e-3)];
        let r = simulate(&g, &trace, &config).unwrap();
        assert_eq!(r.series.time_s, vec![0.0, 200.0]);
        assert_eq!(r.counts.second_rounds, 1);
        assert_eq!(r.counts.absorbed_onsets, 1);
        assert_eq!(r.disabled_seconds, 200.0);
    }

    #[test]
    fn switch_local_with_share_c_breaches_what_the_checker_keeps() {
        // k=4, c = 0.75: ToR 0 has 4 paths and must keep 3. With share 0.5
        // each switch may drop one up-link, so both the ToR up-link and the
        // other aggregation switch's core link go: 1 path left.
        let g = fat_tree(4);
        let up = g.up_links(0)[0];
        let core = g.up_links(g.upper(g.up_links(0)[1]))[0];
        let trace = [onset(1.0, up, 1e-3), onset(2.0, core, 1e-3)];
        let local = simulate(
            &g,
            &trace,
            &config(Policy::SwitchLocal { share: 0.5 }, 0.75),
        )
        .unwrap();
        assert_eq!(local.lowest_worst_fraction, 0.25);
        assert!(local.counts.threshold_breaches > 0);
        let checker = simulate(&g, &trace, &config(Policy::FastChecker, 0.75)).unwrap();
        assert_eq!(checker.counts.threshold_breaches, 0);
        assert!(checker.lowest_worst_fraction >= 0.75);
    }

    fn reports(g: &FabricGraph, trace: &[Onset], config: &SimConfig) -> Vec<f64> {
        let mut seen = Vec::new();
        let result = simulate_reporting(g, trace, config, &mut |f| {
            seen.push(f);
            ControlFlow::Continue(())
        });
        assert!(result.unwrap().is_some());
        seen
    }

    #[test]
    fn progress_increases_to_one_and_stays_coarse() {
        let g = fat_tree(4);
        let trace: Vec<Onset> = (0..32)
            .map(|l| onset(f64::from(l) * 30.0, l, 1e-4))
            .collect();
        let seen = reports(&g, &trace, &config(Policy::CorrOpt, 0.5));
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        assert_eq!(seen.last(), Some(&1.0));
        assert!(seen.len() <= 102);
    }

    /// 5,000 onsets in the first 5 s of a 10^6 s window: no hundredth of the
    /// window passes during the burst, yet it reports every 1,024 instants.
    fn burst() -> Vec<Onset> {
        (0..5000)
            .map(|i| onset(f64::from(i) * 1e-3, i % 32, 1e-4))
            .collect()
    }

    fn long_window(policy: Policy) -> SimConfig {
        SimConfig {
            horizon_s: Some(1e6),
            ..config(policy, 0.5)
        }
    }

    #[test]
    fn a_burst_of_events_reports_at_least_every_so_many_instants() {
        let g = fat_tree(4);
        let seen = reports(&g, &burst(), &long_window(Policy::FastChecker));
        let in_burst = seen.iter().filter(|&&f| f < 1e-5).count();
        assert_eq!(in_burst, 5000 / REPORT_EVERY_EVENTS as usize, "{seen:?}");
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        assert_eq!(seen.last(), Some(&1.0));
    }

    #[test]
    fn a_reporter_that_says_stop_after_k_calls_stops_the_run() {
        let g = fat_tree(4);
        for k in [1, 2, 3] {
            let mut calls = 0;
            let mut last = 0.0;
            let result =
                simulate_reporting(&g, &burst(), &long_window(Policy::CorrOpt), &mut |f| {
                    calls += 1;
                    last = f;
                    if calls == k {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .unwrap();
            assert_eq!(result, None, "stopped after {k} calls");
            assert_eq!(calls, k, "no call after the stop");
            assert!(last < 1e-5, "stopped in the burst, at {last}");
        }
        // Stopping at the final report still stops: the caller asked to.
        let trace = [onset(10.0, 0, 1e-4)];
        let mut calls = 0;
        let result = simulate_reporting(&g, &trace, &config(Policy::CorrOpt, 0.5), &mut |f| {
            calls += 1;
            if f == 1.0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(result.unwrap(), None);
        assert!(calls >= 1);
    }

    #[test]
    fn a_stopped_comparison_starts_no_further_run() {
        let g = fat_tree(4);
        let policies = [Policy::FastChecker, Policy::SwitchLocal { share: 0.5 }];
        let mut runs_seen = Vec::new();
        let result = compare_policies_reporting(
            &g,
            &burst(),
            &long_window(Policy::CorrOpt),
            &policies,
            &mut |run, _| {
                runs_seen.push(run);
                if run == 1 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        assert_eq!(result, None);
        // Run 0 in full, then the first report of run 1; no CorrOpt reference run.
        assert_eq!(runs_seen.last(), Some(&1));
        assert_eq!(runs_seen.iter().filter(|&&r| r == 1).count(), 1);
        assert!(!runs_seen.contains(&2));
    }

    #[test]
    fn bad_trace_and_parameters_are_named() {
        let g = fat_tree(4);
        let c = config(Policy::CorrOpt, 0.5);
        let err = simulate(&g, &[onset(5.0, 0, 1e-4), onset(4.0, 1, 1e-4)], &c).unwrap_err();
        assert_eq!(
            err.to_string(),
            "trace onset 1: time 4 s is before the previous onset's 5 s; the trace must be sorted by time"
        );
        let err = simulate(&g, &[onset(5.0, 99, 1e-4)], &c).unwrap_err();
        assert_eq!(
            err.to_string(),
            "trace onset 0: link 99 does not exist (the fabric has 32 links)"
        );
        let err = simulate(&g, &[onset(5.0, 1, 1.5)], &c).unwrap_err();
        assert_eq!(
            err.to_string(),
            "trace onset 0: loss rate 1.5 is not a fraction in [0, 1]"
        );
        let bad = SimConfig {
            fix_probability: 1.5,
            ..c.clone()
        };
        let err = simulate(&g, &[], &bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            "fix_probability must be a probability in [0, 1], got 1.5"
        );
        let bad = SimConfig {
            repair_delay_s: 0.0,
            ..c
        };
        assert!(simulate(&g, &[], &bad).is_err());
    }

    #[test]
    fn comparison_ratios_are_relative_to_corropt() {
        let g = fat_tree(4);
        let [a, b] = [g.up_links(0)[0], g.up_links(0)[1]];
        let trace = [onset(10.0, a, 1e-3), onset(20.0, b, 1e-5)];
        let mut reports = Vec::new();
        let cmp = compare_policies_reporting(
            &g,
            &trace,
            &config(Policy::CorrOpt, 0.5),
            &[Policy::FastChecker, Policy::SwitchLocal { share: 0.0 }],
            &mut |run, fraction| {
                reports.push((run, fraction));
                ControlFlow::Continue(())
            },
        )
        .unwrap()
        .unwrap();
        // Both policies, then the CorrOpt reference run, each ending at 1.0.
        let ends: Vec<usize> = reports.iter().filter(|r| r.1 == 1.0).map(|r| r.0).collect();
        assert_eq!(ends, vec![0, 1, 2]);
        assert_eq!(cmp.penalty_ratio[0], 1.0);
        // Share 0 lets switch-local disable both up-links: no penalty at all.
        assert_eq!(cmp.results[1].penalty_seconds, 0.0);
        assert_eq!(cmp.penalty_ratio[1], 0.0);
        assert!(cmp.corropt_penalty_seconds > 0.0);
    }
}
