//! Larry (seed 003): racks of a rack set borrow idle uplinks of their
//! neighbours through one circuit switch (CS) per rack.
//!
//! Rack t has S static uplinks and cables to every CS (`cables[t][c]`); CS c
//! has R_c uplinks to aggregation. A circuit joins one ToR cable port of a
//! CS to one of its uplink ports, so rack t's uplinks are S plus the circuits
//! using its cables. Low ports of CS c are numbered rack by rack, cable by
//! cable; excluded cables (disabled by CorrOpt, failed optics) are never used.

use serde::{Deserialize, Serialize};

use super::flow::FlowNetwork;

/// Rack-set description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RackSet {
    /// Static uplinks per rack, S.
    pub static_uplinks: u32,
    /// `cables[t][c]`: cables from ToR t to CS c (m × number of CSs).
    pub cables: Vec<Vec<u32>>,
    /// Uplinks of each CS to aggregation, R_c.
    pub cs_uplinks: Vec<u32>,
    /// Link capacity C in Gbit/s.
    pub capacity_gbps: f64,
    /// Cables out of service, one [tor, cs] entry per cable.
    #[serde(default)]
    pub excluded: Vec<[usize; 2]>,
}

impl RackSet {
    /// A uniform rack set: m racks and m CSs, every ToR with `l / m` cables
    /// to each CS, R uplinks per CS.
    pub fn uniform(m: usize, s: u32, l: u32, r: u32, capacity_gbps: f64) -> Self {
        Self {
            static_uplinks: s,
            cables: vec![vec![l / m as u32; m]; m],
            cs_uplinks: vec![r; m],
            capacity_gbps,
            excluded: Vec::new(),
        }
    }

    /// Number of racks.
    pub fn racks(&self) -> usize {
        self.cables.len()
    }

    /// Number of circuit switches.
    pub fn circuit_switches(&self) -> usize {
        self.cs_uplinks.len()
    }

    /// Every problem with the description.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.cables.is_empty() {
            out.push("the rack set has no racks".into());
        }
        if self.cs_uplinks.is_empty() {
            out.push("the rack set has no circuit switches".into());
        }
        for (t, row) in self.cables.iter().enumerate() {
            if row.len() != self.cs_uplinks.len() {
                out.push(format!(
                    "cables[{t}] has {} entries, expected one per circuit switch ({})",
                    row.len(),
                    self.cs_uplinks.len()
                ));
            }
        }
        if !(self.capacity_gbps.is_finite() && self.capacity_gbps > 0.0) {
            out.push(format!(
                "capacity_gbps must be positive, got {}",
                self.capacity_gbps
            ));
        }
        let mut usable = self.cables.clone();
        for (i, &[t, c]) in self.excluded.iter().enumerate() {
            match usable.get_mut(t).and_then(|row| row.get_mut(c)) {
                Some(0) => out.push(format!(
                    "excluded[{i}]: no cable left between ToR {t} and CS {c}"
                )),
                Some(n) => *n -= 1,
                None => out.push(format!("excluded[{i}]: ToR {t} or CS {c} does not exist")),
            }
        }
        out
    }

    /// Cables in service, `usable[t][c]` (call after [`Self::problems`] is empty).
    pub fn usable(&self) -> Vec<Vec<u32>> {
        let mut usable = self.cables.clone();
        for &[t, c] in &self.excluded {
            usable[t][c] = usable[t][c].saturating_sub(1);
        }
        usable
    }

    /// First low port of rack t's cables on CS c.
    fn first_port(&self, t: usize, c: usize) -> u32 {
        self.cables[..t].iter().map(|row| row[c]).sum()
    }

    /// Rack owning low port `port` of CS c.
    fn rack_of_port(&self, c: usize, port: u32) -> usize {
        let mut end = 0;
        for (t, row) in self.cables.iter().enumerate() {
            end += row[c];
            if port < end {
                return t;
            }
        }
        unreachable!("port beyond the CS's cables")
    }
}

/// Per-CS circuits: `circuits[c][h]` is the ToR cable port uplink h of CS c
/// is joined to.
pub type Circuits = Vec<Vec<Option<u32>>>;

/// A cut proving a request infeasible: the racks and CSs on the source side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MinCut {
    /// Racks whose demand cannot all be routed (source side).
    pub racks: Vec<usize>,
    /// CSs on the source side (their uplinks are all used).
    pub circuit_switches: Vec<usize>,
    /// Capacity of the cut = the most circuit uplinks the request can get.
    pub capacity: u64,
    /// Cables crossing the cut: (tor, cs, cables in service).
    pub cables: Vec<[u64; 3]>,
    /// The certificate in words.
    pub explanation: String,
}

/// Answer of the feasibility check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Feasibility {
    /// True when every rack gets its requested circuit uplinks.
    pub feasible: bool,
    /// Requested circuit uplinks per rack.
    pub requested: Vec<u32>,
    /// Circuit uplinks the max flow grants per rack.
    pub granted: Vec<u32>,
    /// Circuits per (tor, cs) in the max flow.
    pub assignment: Vec<Vec<u32>>,
    /// Per CS, (ToR cable port, uplink port) circuits of the assignment.
    pub circuits: Vec<Vec<[u32; 2]>>,
    /// The minimum cut when infeasible.
    pub min_cut: Option<MinCut>,
}

/// Checks whether each rack t can get `request[t]` circuit uplinks (beyond
/// its S static ones) by integral max flow
/// source → ToR t (request) → CS c (usable cables) → sink (R_c).
///
/// # Errors
/// Every problem with the rack set or the request.
pub fn check(rack_set: &RackSet, request: &[u32]) -> Result<Feasibility, Vec<String>> {
    let mut problems = rack_set.problems();
    if request.len() != rack_set.racks() {
        problems.push(format!(
            "the request has {} entries, the rack set {} racks",
            request.len(),
            rack_set.racks()
        ));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let (m, n) = (rack_set.racks(), rack_set.circuit_switches());
    let usable = rack_set.usable();
    let (source, sink) = (0, 1 + m + n);
    let mut net = FlowNetwork::new(m + n + 2);
    for (t, &r) in request.iter().enumerate() {
        net.add_edge(source, 1 + t, u64::from(r));
    }
    let mut cable_edges = Vec::new();
    for (t, row) in usable.iter().enumerate() {
        for (c, &cables) in row.iter().enumerate() {
            cable_edges.push((t, c, net.add_edge(1 + t, 1 + m + c, u64::from(cables))));
        }
    }
    for (c, &r) in rack_set.cs_uplinks.iter().enumerate() {
        net.add_edge(1 + m + c, sink, u64::from(r));
    }
    let result = net.max_flow(source, sink);
    let edges = net.edges();
    let mut assignment = vec![vec![0u32; n]; m];
    for &(t, c, e) in &cable_edges {
        assignment[t][c] = edges[e].flow as u32;
    }
    let granted: Vec<u32> = assignment.iter().map(|row| row.iter().sum()).collect();
    let total: u64 = request.iter().map(|&r| u64::from(r)).sum();
    let feasible = result.value == total;
    let min_cut = (!feasible).then(|| {
        let side = &result.source_side;
        let racks: Vec<usize> = (0..m).filter(|&t| side[1 + t]).collect();
        let css: Vec<usize> = (0..n).filter(|&c| side[1 + m + c]).collect();
        let cables: Vec<[u64; 3]> = cable_edges
            .iter()
            .filter(|&&(t, c, e)| side[1 + t] && !side[1 + m + c] && edges[e].capacity > 0)
            .map(|&(t, c, e)| [t as u64, c as u64, edges[e].capacity])
            .collect();
        let wanted: u64 = racks.iter().map(|&t| u64::from(request[t])).sum();
        let cable_cap: u64 = cables.iter().map(|x| x[2]).sum();
        let uplink_cap: u64 = css.iter().map(|&c| u64::from(rack_set.cs_uplinks[c])).sum();
        MinCut {
            explanation: format!(
                "racks {racks:?} request {wanted} circuit uplinks but reach at most {} through CSs {css:?} \
                 (their {uplink_cap} uplinks) and {cable_cap} cables to other CSs",
                uplink_cap + cable_cap
            ),
            racks,
            circuit_switches: css,
            capacity: result.value,
            cables,
        }
    });
    let circuits = circuits_of(rack_set, &assignment)
        .into_iter()
        .map(|cs| {
            cs.iter()
                .enumerate()
                .filter_map(|(h, p)| p.map(|p| [p, h as u32]))
                .collect()
        })
        .collect();
    Ok(Feasibility {
        feasible,
        requested: request.to_vec(),
        granted,
        assignment,
        circuits,
        min_cut,
    })
}

/// Port-level circuits for per-(tor, cs) counts: rack t's lowest usable cable
/// ports on c, uplinks in order.
fn circuits_of(rack_set: &RackSet, assignment: &[Vec<u32>]) -> Circuits {
    (0..rack_set.circuit_switches())
        .map(|c| {
            let mut uplinks = vec![None; rack_set.cs_uplinks[c] as usize];
            let mut h = 0;
            for (t, row) in assignment.iter().enumerate() {
                let first = rack_set.first_port(t, c);
                for port in first..first + row[c] {
                    uplinks[h] = Some(port);
                    h += 1;
                }
            }
            uplinks
        })
        .collect()
}

/// One counter sample: cumulative bytes on each ToR's uplink ports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterSample {
    /// Seconds since the start.
    pub time_s: f64,
    /// Cumulative ingress bytes per ToR.
    pub ingress_bytes: Vec<u64>,
    /// Cumulative egress bytes per ToR.
    pub egress_bytes: Vec<u64>,
}

/// Controller policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// The seed's conservative greedy per CS.
    Conservative,
    /// Baseline: uplinks fixed at the start.
    Static,
    /// Baseline: the conservative rules on one big CS (no per-CS limits).
    OneBigSwitch,
    /// Baseline: circuit uplinks split in proportion to demand each period.
    Proportional,
}

/// Controller settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControllerConfig {
    /// Utilisation at which a link counts as full, θ (seed: 0.85).
    pub threshold: f64,
    /// Policy.
    pub policy: Policy,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        Self {
            threshold: 0.85,
            policy: Policy::Conservative,
        }
    }
}

/// A circuit that moved: uplink `uplink` of CS `cs` left one rack's cable
/// port for another's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CircuitMove {
    /// CS index.
    pub cs: usize,
    /// Uplink port of the CS.
    pub uplink: u32,
    /// Rack and cable port it left (None: was free).
    pub from: Option<[u32; 2]>,
    /// Rack and cable port it joined (None: now free).
    pub to: Option<[u32; 2]>,
}

/// One controller period.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// End of the period (s).
    pub time_s: f64,
    /// Demand max(ingress, egress) per rack, Gbit/s.
    pub demand_gbps: Vec<f64>,
    /// Uplinks per rack after the step.
    pub uplinks: Vec<u32>,
    /// Only the circuits that changed.
    pub diff: Vec<CircuitMove>,
}

/// Summary metrics of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunMetrics {
    /// Steps with a non-empty diff.
    pub reconfigurations: u32,
    /// Reconfigurations per hour of trace.
    pub reconfigurations_per_hour: f64,
    /// Mean share of all CS uplinks moved per reconfiguration.
    pub mean_fraction_changed: f64,
    /// Largest share moved in one reconfiguration.
    pub max_fraction_changed: f64,
    /// Demand beyond uplink capacity, summed over racks and time (Gbit).
    pub overload_gbit: f64,
}

/// A controller run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// Policy used.
    pub policy: Policy,
    /// Uplinks per rack before the first step.
    pub initial_uplinks: Vec<u32>,
    /// Per-CS circuits before the first step: (cable port, uplink port).
    pub initial_circuits: Vec<Vec<[u32; 2]>>,
    /// One entry per period.
    pub steps: Vec<Step>,
    /// Metrics.
    pub metrics: RunMetrics,
}

impl Run {
    /// Deterministic JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("run serialises")
    }
}

struct State<'a> {
    rack_set: &'a RackSet,
    usable: Vec<Vec<u32>>,
    circuits: Circuits,
}

impl State<'_> {
    fn per_rack_cs(&self) -> Vec<Vec<u32>> {
        let mut counts = vec![vec![0u32; self.rack_set.circuit_switches()]; self.rack_set.racks()];
        for (c, cs) in self.circuits.iter().enumerate() {
            for port in cs.iter().flatten() {
                counts[self.rack_set.rack_of_port(c, *port)][c] += 1;
            }
        }
        counts
    }

    fn uplinks(&self) -> Vec<u32> {
        self.per_rack_cs()
            .iter()
            .map(|row| self.rack_set.static_uplinks + row.iter().sum::<u32>())
            .collect()
    }

    /// A usable cable port of rack t on CS c that carries no circuit (usable
    /// ports are the lowest of the rack's cables: exclusions take the top ones).
    fn free_port(&self, t: usize, c: usize) -> Option<u32> {
        let first = self.rack_set.first_port(t, c);
        (first..first + self.usable[t][c]).find(|p| !self.circuits[c].contains(&Some(*p)))
    }

    fn set_from(&mut self, assignment: &[Vec<u32>]) {
        self.circuits = circuits_of(self.rack_set, assignment);
    }
}

/// Circuit uplinks per rack of an even split of Σ R_c (lower racks first).
fn fair_request(rack_set: &RackSet) -> Vec<u32> {
    let total: u32 = rack_set.cs_uplinks.iter().sum();
    let m = rack_set.racks() as u32;
    (0..m)
        .map(|t| total / m + u32::from(t < total % m))
        .collect()
}

/// Runs the controller over a counter series; step i covers samples i and
/// i + 1 (period T = their time difference, 500 ms in the seed).
///
/// # Errors
/// Every problem with the inputs.
pub fn run(
    rack_set: &RackSet,
    samples: &[CounterSample],
    config: &ControllerConfig,
) -> Result<Run, Vec<String>> {
    let mut problems = rack_set.problems();
    let m = rack_set.racks();
    if !(config.threshold > 0.0 && config.threshold <= 1.0) {
        problems.push(format!(
            "threshold must be in (0, 1], got {}",
            config.threshold
        ));
    }
    if samples.len() < 2 {
        problems.push("at least two counter samples are needed".into());
    }
    for (i, s) in samples.iter().enumerate() {
        if s.ingress_bytes.len() != m || s.egress_bytes.len() != m {
            problems.push(format!(
                "samples[{i}] must have {m} ingress and {m} egress counters"
            ));
        }
        if i > 0
            && s.time_s.partial_cmp(&samples[i - 1].time_s) != Some(std::cmp::Ordering::Greater)
        {
            problems.push(format!("samples[{i}]: time_s must increase"));
        }
        if i > 0 && s.ingress_bytes.len() == m && s.egress_bytes.len() == m {
            let prev = &samples[i - 1];
            let back = (0..m).any(|t| {
                prev.ingress_bytes
                    .get(t)
                    .is_some_and(|&p| s.ingress_bytes[t] < p)
                    || prev
                        .egress_bytes
                        .get(t)
                        .is_some_and(|&p| s.egress_bytes[t] < p)
            });
            if back {
                problems.push(format!("samples[{i}]: counters must not decrease"));
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut state = State {
        rack_set,
        usable: rack_set.usable(),
        circuits: Vec::new(),
    };
    let initial = check(rack_set, &fair_request(rack_set)).expect("validated");
    state.set_from(&initial.assignment);
    let pairs = |circuits: &Circuits| -> Vec<Vec<[u32; 2]>> {
        circuits
            .iter()
            .map(|cs| {
                cs.iter()
                    .enumerate()
                    .filter_map(|(h, p)| p.map(|p| [p, h as u32]))
                    .collect()
            })
            .collect()
    };
    let initial_uplinks = state.uplinks();
    let initial_circuits = pairs(&state.circuits);
    let total_uplinks: u32 = rack_set.cs_uplinks.iter().sum();
    let mut virtual_uplinks = initial_uplinks.clone(); // OneBigSwitch keeps counts only
    let mut steps = Vec::with_capacity(samples.len() - 1);
    let (mut reconfigs, mut frac_sum, mut frac_max, mut overload) = (0u32, 0.0, 0.0f64, 0.0);
    for w in samples.windows(2) {
        let period = w[1].time_s - w[0].time_s;
        let demand: Vec<f64> = (0..m)
            .map(|t| {
                let ingress = (w[1].ingress_bytes[t] - w[0].ingress_bytes[t]) as f64;
                let egress = (w[1].egress_bytes[t] - w[0].egress_bytes[t]) as f64;
                ingress.max(egress) * 8.0 / 1e9 / period
            })
            .collect();
        let before = state.circuits.clone();
        let uplinks = match config.policy {
            Policy::Static => state.uplinks(),
            Policy::Conservative => {
                conservative_step(&mut state, &demand, config.threshold);
                state.uplinks()
            }
            Policy::Proportional => {
                let request = proportional_request(rack_set, &state.usable, &demand);
                let plan = check(rack_set, &request).expect("validated");
                state.set_from(&plan.assignment);
                state.uplinks()
            }
            Policy::OneBigSwitch => {
                one_big_switch_step(
                    rack_set,
                    &state.usable,
                    &mut virtual_uplinks,
                    &demand,
                    config.threshold,
                );
                virtual_uplinks.clone()
            }
        };
        let mut diff = Vec::new();
        if config.policy == Policy::OneBigSwitch {
            // No port-level circuits: count each uplink that changed rack.
            let moved: u32 = steps
                .last()
                .map_or(&initial_uplinks, |s: &Step| &s.uplinks)
                .iter()
                .zip(&uplinks)
                .map(|(a, b)| a.saturating_sub(*b))
                .sum();
            if moved > 0 {
                reconfigs += 1;
                let f = f64::from(moved) / f64::from(total_uplinks.max(1));
                frac_sum += f;
                frac_max = frac_max.max(f);
            }
        } else {
            for (c, (old, new)) in before.iter().zip(&state.circuits).enumerate() {
                for (h, (a, b)) in old.iter().zip(new).enumerate() {
                    if a != b {
                        let tag =
                            |p: &Option<u32>| p.map(|p| [rack_set.rack_of_port(c, p) as u32, p]);
                        diff.push(CircuitMove {
                            cs: c,
                            uplink: h as u32,
                            from: tag(a),
                            to: tag(b),
                        });
                    }
                }
            }
            if !diff.is_empty() {
                reconfigs += 1;
                let f = diff.len() as f64 / f64::from(total_uplinks.max(1));
                frac_sum += f;
                frac_max = frac_max.max(f);
            }
        }
        for t in 0..m {
            overload +=
                (demand[t] - f64::from(uplinks[t]) * rack_set.capacity_gbps).max(0.0) * period;
        }
        steps.push(Step {
            time_s: w[1].time_s,
            demand_gbps: demand,
            uplinks,
            diff,
        });
    }
    let hours = (samples[samples.len() - 1].time_s - samples[0].time_s) / 3600.0;
    Ok(Run {
        policy: config.policy,
        initial_uplinks,
        initial_circuits,
        steps,
        metrics: RunMetrics {
            reconfigurations: reconfigs,
            reconfigurations_per_hour: f64::from(reconfigs) / hours,
            mean_fraction_changed: if reconfigs == 0 {
                0.0
            } else {
                frac_sum / f64::from(reconfigs)
            },
            max_fraction_changed: frac_max,
            overload_gbit: overload,
        },
    })
}

/// Links needed to keep every link of rack t under θ·C.
fn need(demand: f64, threshold: f64, capacity: f64) -> u32 {
    (demand / (threshold * capacity)).ceil() as u32
}

/// The seed's conservative rules (§3.4) with the digest's pinned details:
/// donors ranked by surplus u − need, receivers by d / (u·C), ties to the
/// lowest rack; a donor gives its circuit on the highest uplink port.
fn conservative_step(state: &mut State<'_>, demand: &[f64], theta: f64) {
    let rs = state.rack_set;
    let m = rs.racks();
    let cap = rs.capacity_gbps;
    let mut uplinks = state.uplinks();
    let needs: Vec<u32> = demand.iter().map(|&d| need(d, theta, cap)).collect();
    let under = |u: &[u32], t: usize| needs[t] < u[t];
    let congested = |u: &[u32], t: usize| demand[t] >= theta * cap * f64::from(u[t]);
    if (0..m).all(|t| under(&uplinks, t)) {
        return;
    }
    let max_uplinks: Vec<u32> = state
        .usable
        .iter()
        .map(|row| rs.static_uplinks + row.iter().sum::<u32>())
        .collect();
    let fair = fair_request(rs);
    let no_under = (0..m).all(|t| !under(&uplinks, t));
    // Within a step a rack only gives or only receives: at exact thresholds a
    // rack could otherwise flip between the roles forever.
    let (mut gave, mut got) = (vec![false; m], vec![false; m]);
    for c in 0..rs.circuit_switches() {
        loop {
            let counts = state.per_rack_cs();
            let donor = (0..m)
                .filter(|&t| counts[t][c] > 0 && !got[t])
                .filter(|&t| {
                    if no_under {
                        // Fair-share restoration: only racks above their share give,
                        // and never below it.
                        uplinks[t] > rs.static_uplinks + fair[t]
                    } else {
                        under(&uplinks, t)
                    }
                })
                .max_by_key(|&t| {
                    (
                        i64::from(uplinks[t]) - i64::from(needs[t]),
                        std::cmp::Reverse(t),
                    )
                });
            let receiver = (0..m)
                .filter(|&t| congested(&uplinks, t) && uplinks[t] < max_uplinks[t] && !gave[t])
                .filter(|&t| !no_under || uplinks[t] < rs.static_uplinks + fair[t])
                .filter(|&t| state.free_port(t, c).is_some())
                .max_by(|&a, &b| {
                    let load = |t: usize| demand[t] / (f64::from(uplinks[t].max(1)) * cap);
                    load(a).total_cmp(&load(b)).then(b.cmp(&a))
                });
            let (Some(donor), Some(receiver)) = (donor, receiver) else {
                break;
            };
            if donor == receiver {
                break;
            }
            let port = state.free_port(receiver, c).expect("filtered");
            let h = (0..state.circuits[c].len())
                .rev()
                .find(|&h| state.circuits[c][h].is_some_and(|p| rs.rack_of_port(c, p) == donor))
                .expect("donor has a circuit on c");
            state.circuits[c][h] = Some(port);
            uplinks[donor] -= 1;
            uplinks[receiver] += 1;
            gave[donor] = true;
            got[receiver] = true;
        }
    }
}

/// Circuit uplinks split in proportion to demand (largest remainder), each
/// rack capped by its usable cables; the rest spread evenly.
fn proportional_request(rs: &RackSet, usable: &[Vec<u32>], demand: &[f64]) -> Vec<u32> {
    let total: u32 = rs.cs_uplinks.iter().sum();
    let cap: Vec<u32> = usable.iter().map(|row| row.iter().sum()).collect();
    let sum: f64 = demand.iter().sum();
    if sum <= 0.0 {
        return fair_request(rs)
            .iter()
            .zip(&cap)
            .map(|(&f, &c)| f.min(c))
            .collect();
    }
    let shares: Vec<f64> = demand.iter().map(|d| d / sum * f64::from(total)).collect();
    let mut request: Vec<u32> = shares
        .iter()
        .zip(&cap)
        .map(|(s, &c)| (s.floor() as u32).min(c))
        .collect();
    let mut left = total - request.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..demand.len()).collect();
    order.sort_by(|&a, &b| {
        (shares[b] - shares[b].floor())
            .total_cmp(&(shares[a] - shares[a].floor()))
            .then(a.cmp(&b))
    });
    while left > 0 {
        let before = left;
        for &t in &order {
            if left > 0 && request[t] < cap[t] {
                request[t] += 1;
                left -= 1;
            }
        }
        if left == before {
            break;
        }
    }
    request
}

/// The conservative rules without per-CS limits (one big CS of Σ R_c uplinks).
fn one_big_switch_step(
    rs: &RackSet,
    usable: &[Vec<u32>],
    uplinks: &mut [u32],
    demand: &[f64],
    theta: f64,
) {
    let m = rs.racks();
    let cap = rs.capacity_gbps;
    let needs: Vec<u32> = demand.iter().map(|&d| need(d, theta, cap)).collect();
    if (0..m).all(|t| needs[t] < uplinks[t]) {
        return;
    }
    let max_uplinks: Vec<u32> = usable
        .iter()
        .map(|row| rs.static_uplinks + row.iter().sum::<u32>())
        .collect();
    let (mut gave, mut got) = (vec![false; m], vec![false; m]);
    loop {
        let donor = (0..m)
            .filter(|&t| needs[t] < uplinks[t] && uplinks[t] > rs.static_uplinks && !got[t])
            .max_by_key(|&t| {
                (
                    i64::from(uplinks[t]) - i64::from(needs[t]),
                    std::cmp::Reverse(t),
                )
            });
        let receiver = (0..m)
            .filter(|&t| {
                demand[t] >= theta * cap * f64::from(uplinks[t])
                    && uplinks[t] < max_uplinks[t]
                    && !gave[t]
            })
            .max_by(|&a, &b| {
                let load = |t: usize| demand[t] / (f64::from(uplinks[t].max(1)) * cap);
                load(a).total_cmp(&load(b)).then(b.cmp(&a))
            });
        let (Some(d), Some(r)) = (donor, receiver) else {
            break;
        };
        if d == r {
            break;
        }
        uplinks[d] -= 1;
        uplinks[r] += 1;
        gave[d] = true;
        got[r] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degraded() -> RackSet {
        let mut rs = RackSet::uniform(4, 2, 4, 2, 100.0);
        rs.excluded = vec![[0, 0], [1, 0]];
        rs
    }

    #[test]
    fn reference_degraded_cabling() {
        let bad = check(&degraded(), &[3, 3, 2, 0]).unwrap();
        assert!(!bad.feasible);
        let cut = bad.min_cut.unwrap();
        assert_eq!(cut.capacity, 7);
        assert!(cut.racks.contains(&0) && cut.racks.contains(&1));
        let good = check(&degraded(), &[3, 3, 1, 1]).unwrap();
        assert!(good.feasible && good.min_cut.is_none());
        assert_eq!(good.granted, vec![3, 3, 1, 1]);
        for cs in &good.circuits {
            let ports: std::collections::BTreeSet<_> = cs.iter().map(|p| p[0]).collect();
            assert_eq!(ports.len(), cs.len());
        }
    }

    #[test]
    fn uniform_cabling_takes_any_request_within_limits() {
        let rs = RackSet::uniform(4, 2, 8, 2, 100.0);
        for request in [[8, 0, 0, 0], [2, 2, 2, 2], [5, 3, 0, 0], [0, 0, 4, 4]] {
            assert!(check(&rs, &request).unwrap().feasible, "{request:?}");
        }
    }

    #[test]
    fn bad_rack_set_lists_problems() {
        let mut rs = RackSet::uniform(2, 2, 2, 1, 0.0);
        rs.excluded = vec![[5, 0]];
        rs.cables[1].pop();
        assert_eq!(check(&rs, &[1]).unwrap_err().len(), 4);
    }

    fn series(rates_gbps: &[Vec<f64>], period: f64) -> Vec<CounterSample> {
        let m = rates_gbps[0].len();
        let mut acc = vec![0u64; m];
        let mut out = vec![CounterSample {
            time_s: 0.0,
            ingress_bytes: acc.clone(),
            egress_bytes: acc.clone(),
        }];
        for (i, rates) in rates_gbps.iter().enumerate() {
            for t in 0..m {
                acc[t] += (rates[t] * 1e9 / 8.0 * period) as u64;
            }
            out.push(CounterSample {
                time_s: (i + 1) as f64 * period,
                ingress_bytes: acc.clone(),
                egress_bytes: vec![0; m],
            });
        }
        out
    }

    #[test]
    fn congested_rack_borrows_idle_uplinks_up_to_fourteen() {
        // Digest F3 check: S = 6, R = 2, m = 4, L = 8: a congested ToR reaches 14.
        let rs = RackSet::uniform(4, 6, 8, 2, 100.0);
        let samples = series(&vec![vec![5000.0, 1.0, 1.0, 1.0]; 3], 0.5);
        let run = run(&rs, &samples, &ControllerConfig::default()).unwrap();
        assert_eq!(run.initial_uplinks, vec![8, 8, 8, 8]);
        assert_eq!(run.steps[0].uplinks, vec![14, 6, 6, 6]);
        assert_eq!(run.steps[0].diff.len(), 6);
        assert!(
            run.steps[1].diff.is_empty(),
            "unchanged assignment gives an empty diff"
        );
        assert_eq!(run.metrics.reconfigurations, 1);
    }

    #[test]
    fn no_change_when_all_racks_are_under_utilised() {
        let rs = RackSet::uniform(4, 2, 4, 2, 100.0);
        let samples = series(&vec![vec![10.0, 20.0, 30.0, 0.0]; 4], 0.5);
        let run = run(&rs, &samples, &ControllerConfig::default()).unwrap();
        assert!(run.steps.iter().all(|s| s.diff.is_empty()));
    }

    #[test]
    fn donor_keeps_its_need() {
        // Rack 1 needs 3 links (200 Gb/s at 85 of 100): it can give only one.
        let rs = RackSet::uniform(4, 2, 4, 2, 100.0);
        let samples = series(&[vec![900.0, 200.0, 400.0, 400.0]], 0.5);
        let run = run(&rs, &samples, &ControllerConfig::default()).unwrap();
        assert_eq!(run.steps[0].uplinks[1], 3);
    }

    #[test]
    fn racks_at_exact_thresholds_do_not_trade_back_and_forth() {
        // Rack 1 at exactly θ·C·(u − 1): it may give one uplink, and then it
        // counts as congested; it must not take one back in the same step.
        let rs = RackSet::uniform(4, 2, 4, 2, 100.0);
        let samples = series(&[vec![900.0, 255.0, 255.0, 0.0]], 0.5);
        for policy in [Policy::Conservative, Policy::OneBigSwitch] {
            let run = run(
                &rs,
                &samples,
                &ControllerConfig {
                    threshold: 0.85,
                    policy,
                },
            )
            .unwrap();
            assert_eq!(run.steps[0].uplinks.iter().sum::<u32>(), 16, "{policy:?}");
        }
    }

    #[test]
    fn baselines_run() {
        let rs = RackSet::uniform(4, 6, 8, 2, 100.0);
        let samples = series(&vec![vec![5000.0, 1.0, 1.0, 1.0]; 3], 0.5);
        for policy in [Policy::Static, Policy::OneBigSwitch, Policy::Proportional] {
            let r = run(
                &rs,
                &samples,
                &ControllerConfig {
                    threshold: 0.85,
                    policy,
                },
            )
            .unwrap();
            let expected = if policy == Policy::Static { 8 } else { 14 };
            assert_eq!(r.steps[0].uplinks[0], expected, "{policy:?}");
        }
    }
}
