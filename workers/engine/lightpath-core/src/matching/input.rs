//! Matching input as callers name it (racks, weighted pairs, option names):
//! checked here, once, for every front end (the Python binding, the fuzz
//! targets), each problem a line naming what it concerns.

use super::groups::EdgeGroup;
use super::schedule::{Algorithm, Mode, ReconfigMode, ScheduleConfig, Window};
use super::slot::{self, Candidate, Circuit};
use super::{MatchingError, max_weight_matching};

/// Every edge `(a, b, weight)` whose vertex is not below `num` or whose
/// weight is negative, as problems naming `edges[i]`.
pub fn check_edges(num: usize, edges: &[(u32, u32, i64)]) -> Result<(), MatchingError> {
    let mut problems = Vec::new();
    for (i, &(a, b, w)) in edges.iter().enumerate() {
        if a as usize >= num || b as usize >= num {
            problems.push(format!(
                "edges[{i}]: vertex out of range (0 to {})",
                num.saturating_sub(1)
            ));
        }
        if w < 0 {
            problems.push(format!("edges[{i}]: weight {w} is negative"));
        }
    }
    MatchingError::check(problems)
}

/// Maximum-weight matching of checked edges: each vertex's partner or None.
pub fn checked_matching(
    num_vertices: usize,
    edges: &[(u32, u32, i64)],
) -> Result<Vec<Option<u32>>, MatchingError> {
    check_edges(num_vertices, edges)?;
    Ok(max_weight_matching(num_vertices, edges))
}

/// The problem line of an unknown algorithm name.
fn unknown_algorithm(name: &str) -> String {
    format!("algorithm: unknown {name:?} (exact, greedy, round-robin, static, random)")
}

/// A schedule's options by name, with c-Through's defaults (those of
/// [`ScheduleConfig::new`]); [`ScheduleOptions::config`] checks them.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleOptions<'a> {
    /// OCS zone of each rack (None: one zone).
    pub zones: Option<Vec<u32>>,
    /// Bytes per second one circuit carries.
    pub capacity_bytes_per_s: f64,
    /// Reconfiguration period in seconds.
    pub period_s: f64,
    /// Dark time of a changed circuit in seconds.
    pub dark_time_s: f64,
    /// `per_port` (or `per-port`) or `global`.
    pub reconfig: &'a str,
    /// `replay` or `drain`.
    pub mode: &'a str,
    /// An [`Algorithm`] name.
    pub algorithm: &'a str,
    /// Seed of the random baseline.
    pub seed: u64,
    /// Pair demand below this many bytes is ignored.
    pub min_demand_bytes: u64,
    /// Burst filter: windows a pair must be active in.
    pub burst_active: u32,
    /// Burst filter: idle windows that reset a pair.
    pub burst_reset: u32,
    /// Weight bonus of a kept circuit.
    pub hysteresis: f64,
    /// Seconds of exact planning before falling back to greedy.
    pub time_budget_s: Option<f64>,
    /// Drain mode stops after this many slots.
    pub max_slots: usize,
    /// Edge groups.
    pub groups: Vec<EdgeGroup>,
}

impl Default for ScheduleOptions<'_> {
    fn default() -> Self {
        let d = ScheduleConfig::new(0);
        Self {
            zones: None,
            capacity_bytes_per_s: d.capacity_bytes_per_s,
            period_s: d.period_s,
            dark_time_s: d.dark_time_s,
            reconfig: "per_port",
            mode: "replay",
            algorithm: d.algorithm.name(),
            seed: d.seed,
            min_demand_bytes: d.min_demand_bytes,
            burst_active: d.burst_active,
            burst_reset: d.burst_reset,
            hysteresis: d.hysteresis,
            time_budget_s: d.time_budget_s,
            max_slots: d.max_slots,
            groups: Vec::new(),
        }
    }
}

impl ScheduleOptions<'_> {
    /// The configuration for racks with `ports` and `windows`, or every
    /// problem of the names and values (as [`ScheduleConfig::validate`]).
    pub fn config(
        self,
        ports: Vec<u32>,
        windows: &[Window],
    ) -> Result<ScheduleConfig, MatchingError> {
        let mut problems = Vec::new();
        let mut config = ScheduleConfig::new(ports.len());
        config.zones = self.zones.unwrap_or_else(|| vec![0; ports.len()]);
        config.ports = ports;
        config.capacity_bytes_per_s = self.capacity_bytes_per_s;
        config.period_s = self.period_s;
        config.dark_time_s = self.dark_time_s;
        match self.reconfig {
            "per_port" | "per-port" => config.reconfig = ReconfigMode::PerPort,
            "global" => config.reconfig = ReconfigMode::Global,
            other => problems.push(format!("reconfig: unknown {other:?} (per_port, global)")),
        }
        match self.mode {
            "replay" => config.mode = Mode::Replay,
            "drain" => config.mode = Mode::Drain,
            other => problems.push(format!("mode: unknown {other:?} (replay, drain)")),
        }
        match Algorithm::parse(self.algorithm) {
            Some(a) => config.algorithm = a,
            None => problems.push(unknown_algorithm(self.algorithm)),
        }
        config.seed = self.seed;
        config.min_demand_bytes = self.min_demand_bytes;
        config.burst_active = self.burst_active;
        config.burst_reset = self.burst_reset;
        config.hysteresis = self.hysteresis;
        config.time_budget_s = self.time_budget_s;
        config.max_slots = self.max_slots;
        config.groups = self.groups;
        if let Err(err) = config.validate(windows) {
            problems.extend(err.problems);
        }
        MatchingError::check(problems)?;
        Ok(config)
    }
}

/// One slot's circuits, as [`choose_slot`] answers.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotChoice {
    /// The circuits, sorted by (a, b).
    pub circuits: Vec<Circuit>,
    /// Their total weight.
    pub weight: i64,
    /// Upper bound on any answer's weight.
    pub bound: i64,
    /// `(bound - weight) / bound`, 0 when the bound is 0.
    pub gap: f64,
    /// The answer is a proven maximum.
    pub exact: bool,
    /// No candidate circuit could be added (round-robin never claims it).
    pub maximal: bool,
}

/// One slot's circuits for pair weights `(a, b, weight)` and `ports` per
/// rack, with `algorithm` (a name), inside `zones` (None: one zone). A pair
/// of one zone can take min(k_a, k_b) parallel circuits, each worth the
/// pair's weight; a pair given more than once (either way round) weighs the
/// sum of its entries; pairs of a rack with itself are ignored.
pub fn choose_slot(
    ports: &[u32],
    pairs: &[(u32, u32, i64)],
    algorithm: &str,
    seed: u64,
    zones: Option<Vec<u32>>,
    slot_index: usize,
) -> Result<SlotChoice, MatchingError> {
    check_edges(ports.len(), pairs)?;
    let algorithm = Algorithm::parse(algorithm).ok_or_else(|| MatchingError {
        problems: vec![unknown_algorithm(algorithm)],
    })?;
    let zones = zones.unwrap_or_else(|| vec![0; ports.len()]);
    if zones.len() != ports.len() {
        return Err(MatchingError {
            problems: vec![format!(
                "zones: {} entries for {} racks",
                zones.len(),
                ports.len()
            )],
        });
    }
    // A pair given twice, or once each way, is one pair: its circuits serve every entry, so the
    // weights add up (as the schedule planner adds a rack pair's two directions). Counting the
    // entries apart made a slot's weight exceed its bound (found by the matching fuzz target).
    // First-seen order is kept: greedy and random choices break ties by it.
    let mut merged: Vec<(u32, u32, i64)> = Vec::with_capacity(pairs.len());
    let mut seen: std::collections::HashMap<(u32, u32), usize> = Default::default();
    for &(a, b, weight) in pairs {
        if a == b || zones[a as usize] != zones[b as usize] {
            continue;
        }
        let key = (a.min(b), a.max(b));
        match seen.get(&key) {
            Some(&i) => merged[i].2 = merged[i].2.saturating_add(weight),
            None => {
                seen.insert(key, merged.len());
                merged.push((key.0, key.1, weight));
            }
        }
    }
    let candidates: Vec<Candidate> = merged
        .into_iter()
        .flat_map(|(a, b, weight)| {
            let ranks = ports[a as usize].min(ports[b as usize]);
            (1..=ranks).map(move |rank| Candidate { a, b, rank, weight })
        })
        .collect();
    let (circuits, exact, claims_maximal) = match algorithm {
        Algorithm::Exact | Algorithm::Static => {
            let (c, e) = slot::exact(ports, &candidates);
            (c, e, true)
        }
        Algorithm::Greedy => (slot::greedy(ports, &candidates), false, true),
        Algorithm::Random => (slot::random_maximal(ports, &candidates, seed), false, true),
        Algorithm::RoundRobin => (slot::round_robin(ports, &zones, slot_index), false, false),
    };
    let weight = slot::weight_of(&circuits, &candidates);
    let bound = slot::upper_bound(ports, &candidates);
    let gap = if bound == 0 {
        0.0
    } else {
        (bound - weight) as f64 / bound as f64
    };
    let maximal = claims_maximal && slot::is_maximal(ports, &circuits, &candidates);
    Ok(SlotChoice {
        circuits,
        weight,
        bound,
        gap,
        exact,
        maximal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_bad_edge() {
        let err = check_edges(2, &[(0, 2, 1), (1, 0, -3), (0, 1, 5)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "edges[0]: vertex out of range (0 to 1); edges[1]: weight -3 is negative"
        );
        assert_eq!(
            check_edges(0, &[(0, 0, 0)]).unwrap_err().to_string(),
            "edges[0]: vertex out of range (0 to 0)"
        );
    }

    #[test]
    fn options_default_to_the_configs_defaults() {
        let windows = vec![vec![(0, 1, 5)], vec![]];
        let config = ScheduleOptions::default()
            .config(vec![1, 1], &windows)
            .unwrap();
        let mut expected = ScheduleConfig::new(2);
        expected.ports = vec![1, 1];
        assert_eq!(format!("{config:?}"), format!("{expected:?}"));
    }

    #[test]
    fn options_report_every_unknown_name_and_bad_value() {
        let options = ScheduleOptions {
            reconfig: "sometimes",
            mode: "rewind",
            algorithm: "magic",
            period_s: 0.0,
            ..Default::default()
        };
        let err = options.config(vec![1], &[]).unwrap_err();
        assert_eq!(
            err.problems[..3],
            [
                "reconfig: unknown \"sometimes\" (per_port, global)".to_string(),
                "mode: unknown \"rewind\" (replay, drain)".to_string(),
                "algorithm: unknown \"magic\" (exact, greedy, round-robin, static, random)"
                    .to_string(),
            ]
        );
        assert!(
            err.problems[3].starts_with("period: must be positive"),
            "{err}"
        );
    }

    #[test]
    fn a_slot_keeps_to_zones_and_ports() {
        // Racks 0 and 1 share zone 0 with two ports each; rack 2 is alone.
        let pairs = [(0, 1, 10), (1, 2, 50), (0, 0, 99)];
        let choice = choose_slot(&[2, 2, 1], &pairs, "exact", 0, Some(vec![0, 0, 1]), 0).unwrap();
        assert_eq!(
            choice.circuits,
            vec![Circuit {
                a: 0,
                b: 1,
                count: 2
            }]
        );
        assert_eq!((choice.weight, choice.bound, choice.gap), (20, 20, 0.0));
        assert!(choice.exact && choice.maximal);
        let err = choose_slot(&[1, 1], &[], "exact", 0, Some(vec![0]), 0).unwrap_err();
        assert_eq!(err.to_string(), "zones: 1 entries for 2 racks");
        let err = choose_slot(&[1], &[(0, 3, 1)], "nope", 0, None, 0).unwrap_err();
        assert_eq!(err.to_string(), "edges[0]: vertex out of range (0 to 0)");
    }

    #[test]
    fn a_pair_given_twice_or_both_ways_weighs_the_sum() {
        // One port per rack: 0-1 given twice and 1-0 once (5 + 5 + 2) beats 1-2 (11).
        let pairs = [(0, 1, 5), (1, 2, 11), (0, 1, 5), (1, 0, 2)];
        for algorithm in ["exact", "greedy"] {
            let choice = choose_slot(&[1, 1, 1], &pairs, algorithm, 0, None, 0).unwrap();
            let only = Circuit {
                a: 0,
                b: 1,
                count: 1,
            };
            assert_eq!(choice.circuits, vec![only], "{algorithm}");
            // The bound halves each rack's best incident weights: (12 + 12 + 11) / 2.
            assert_eq!((choice.weight, choice.bound), (12, 17), "{algorithm}");
        }
        // A random maximal choice may take 1-2 instead; its weight still keeps under the bound.
        for seed in 0..20 {
            let choice = choose_slot(&[1, 1, 1], &pairs, "random", seed, None, 0).unwrap();
            assert!([11, 12].contains(&choice.weight) && choice.weight <= choice.bound);
            assert!((0.0..=1.0).contains(&choice.gap));
        }
    }
}
