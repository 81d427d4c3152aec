//! ShareBackup (seed 002, with the reconstruction of `circuits-sharebackup-
//! larry.md` §1.2–1.3): a k-ary fat tree whose switches are spliced out and
//! replaced by shared backups through circuit switches on the three layer
//! boundaries, planned event by event.
//!
//! Model (reconstructed, the seed fragment fixes only the counts):
//! - failure groups: per pod, the k/2 edge switches and the k/2 aggregation
//!   switches; the (k/2)² core switches form k/2 groups; each group has n
//!   backups, so a group has k/2 + n physical members ("m0".."m{k/2+n-1}");
//!   members m0..m{k/2-1} start in slots s0..s{k/2-1}, the rest are spares.
//! - circuit switches: per pod p and index j, `he.p{p}.j{j}` joins host j of
//!   every edge slot (low side) to every edge member (high side);
//!   `ea.p{p}.j{j}` joins edge members to aggregation members with logical
//!   links edge slot i ↔ aggregation slot (i + j) mod k/2; `ac.p{p}.c{c}`
//!   joins aggregation members (uplink c) to the members of core group c
//!   (their port p) with logical links aggregation slot j ↔ core slot j.
//!   A switch's port on a circuit switch is its member index.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

/// Largest supported k (a 48-port fat tree is the biggest we benchmark; 128
/// leaves room without letting a typo allocate gigabytes).
pub const MAX_K: u32 = 128;
/// Largest number of backups per failure group.
pub const MAX_BACKUPS: u32 = 64;

/// Invalid fabric description or event log; lists every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareBackupError {
    /// One message per problem.
    pub problems: Vec<String>,
}

impl fmt::Display for ShareBackupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for ShareBackupError {}

fn fail<T>(problem: String) -> Result<T, ShareBackupError> {
    Err(ShareBackupError {
        problems: vec![problem],
    })
}

/// Fat-tree layer of a failure group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Edge (ToR) switches of a pod.
    Edge,
    /// Aggregation switches of a pod.
    Aggregation,
    /// One core group.
    Core,
}

/// Which layer boundary a circuit switch sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Boundary {
    /// Hosts (low) to edge members (high).
    HostEdge,
    /// Edge members (low) to aggregation members (high).
    EdgeAggregation,
    /// Aggregation members (low) to core members (high).
    AggregationCore,
}

/// A circuit switch: its boundary, pod, index, and the failure groups on its
/// two sides (`low_group` is None for hosts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircuitSwitch {
    /// Layer boundary.
    pub boundary: Boundary,
    /// Pod.
    pub pod: u32,
    /// Index j (host/edge uplink index) or core group c.
    pub index: u32,
    /// Failure group on the low side (None: hosts).
    pub low_group: Option<usize>,
    /// Failure group on the high side.
    pub high_group: usize,
    /// Number of low-side ports.
    pub low_ports: u32,
    /// Number of high-side ports.
    pub high_ports: u32,
}

/// Fat-tree description: k, P pods (P ≤ k; P < k is a partial tree), n
/// backups per failure group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FatTree {
    /// Switch radix k (even).
    pub k: u32,
    /// Number of pods.
    pub pods: u32,
    /// Backups per failure group.
    pub backups: u32,
}

/// Counts of a ShareBackup fabric.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FabricCounts {
    /// Hosts, P·(k/2)².
    pub hosts: u64,
    /// Active switches, P·k + (k/2)².
    pub active_switches: u64,
    /// Failure groups, 2P + k/2.
    pub failure_groups: u64,
    /// Backup switches, n·(2P + k/2).
    pub backup_switches: u64,
    /// Circuit switches, 3·P·k/2.
    pub circuit_switches: u64,
    /// Circuit-switch ports, P·(k/2)·(3k + 5n).
    pub circuit_ports: u64,
}

impl FatTree {
    /// Checks k even in 2..=MAX_K, 1 ≤ pods ≤ k, backups ≤ MAX_BACKUPS.
    pub fn new(k: u32, pods: u32, backups: u32) -> Result<Self, ShareBackupError> {
        let mut problems = Vec::new();
        if k < 2 || !k.is_multiple_of(2) || k > MAX_K {
            problems.push(format!("k must be even, between 2 and {MAX_K}, got {k}"));
        }
        if pods == 0 || pods > k {
            problems.push(format!("pods must be between 1 and k = {k}, got {pods}"));
        }
        if backups > MAX_BACKUPS {
            problems.push(format!(
                "backups per group must be at most {MAX_BACKUPS}, got {backups}"
            ));
        }
        if problems.is_empty() {
            Ok(Self { k, pods, backups })
        } else {
            Err(ShareBackupError { problems })
        }
    }

    /// k/2: slots per group, hosts per edge switch, uplinks per switch.
    pub fn half(&self) -> u32 {
        self.k / 2
    }

    /// Physical members per failure group, k/2 + n.
    pub fn group_size(&self) -> u32 {
        self.half() + self.backups
    }

    /// Number of failure groups, 2P + k/2.
    pub fn num_groups(&self) -> usize {
        (2 * self.pods + self.half()) as usize
    }

    /// Counts of hosts, switches and circuit-switch ports.
    pub fn counts(&self) -> FabricCounts {
        let (k, p, n, h) = (
            u64::from(self.k),
            u64::from(self.pods),
            u64::from(self.backups),
            u64::from(self.half()),
        );
        FabricCounts {
            hosts: p * h * h,
            active_switches: p * k + h * h,
            failure_groups: 2 * p + h,
            backup_switches: n * (2 * p + h),
            circuit_switches: 3 * p * h,
            circuit_ports: p * h * (3 * k + 5 * n),
        }
    }

    /// Layer of group g.
    pub fn group_layer(&self, group: usize) -> Layer {
        let p = self.pods as usize;
        if group < p {
            Layer::Edge
        } else if group < 2 * p {
            Layer::Aggregation
        } else {
            Layer::Core
        }
    }

    /// Name of group g: `edge.p0`, `agg.p1`, `core.c2`.
    pub fn group_name(&self, group: usize) -> String {
        let p = self.pods as usize;
        match self.group_layer(group) {
            Layer::Edge => format!("edge.p{group}"),
            Layer::Aggregation => format!("agg.p{}", group - p),
            Layer::Core => format!("core.c{}", group - 2 * p),
        }
    }

    /// Name of a physical switch: `<group>.m<member>`.
    pub fn switch_name(&self, switch: Switch) -> String {
        format!("{}.m{}", self.group_name(switch.group), switch.member)
    }

    /// Name of a logical slot: `<group>.s<slot>`.
    pub fn slot_name(&self, group: usize, slot: u32) -> String {
        format!("{}.s{slot}", self.group_name(group))
    }

    /// Parses a switch name such as `agg.p1.m2`.
    pub fn parse_switch(&self, name: &str) -> Option<Switch> {
        let mut parts = name.split('.');
        let (layer, place, member) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let number = |s: &str, prefix: char| s.strip_prefix(prefix)?.parse::<u32>().ok();
        let member = number(member, 'm').filter(|&m| m < self.group_size())?;
        let group = match layer {
            "edge" => number(place, 'p').filter(|&p| p < self.pods)? as usize,
            "agg" => (self.pods + number(place, 'p').filter(|&p| p < self.pods)?) as usize,
            "core" => (2 * self.pods + number(place, 'c').filter(|&c| c < self.half())?) as usize,
            _ => return None,
        };
        Some(Switch { group, member })
    }

    /// Number of circuit switches.
    pub fn num_circuit_switches(&self) -> usize {
        (3 * self.pods * self.half()) as usize
    }

    /// Circuit switch by index (boundary-major, then pod, then index).
    pub fn circuit_switch(&self, cs: usize) -> CircuitSwitch {
        let h = self.half() as usize;
        let p = self.pods as usize;
        let boundary_index = cs / (p * h);
        let pod = ((cs / h) % p) as u32;
        let index = (cs % h) as u32;
        let edge = pod as usize;
        let agg = p + pod as usize;
        let size = self.group_size();
        match boundary_index {
            0 => CircuitSwitch {
                boundary: Boundary::HostEdge,
                pod,
                index,
                low_group: None,
                high_group: edge,
                low_ports: self.half(),
                high_ports: size,
            },
            1 => CircuitSwitch {
                boundary: Boundary::EdgeAggregation,
                pod,
                index,
                low_group: Some(edge),
                high_group: agg,
                low_ports: size,
                high_ports: size,
            },
            _ => CircuitSwitch {
                boundary: Boundary::AggregationCore,
                pod,
                index,
                low_group: Some(agg),
                high_group: 2 * p + index as usize,
                low_ports: size,
                high_ports: size,
            },
        }
    }

    fn cs_index(&self, boundary: Boundary, pod: u32, index: u32) -> usize {
        let b = match boundary {
            Boundary::HostEdge => 0,
            Boundary::EdgeAggregation => 1,
            Boundary::AggregationCore => 2,
        };
        ((b * self.pods + pod) * self.half() + index) as usize
    }

    /// Name of circuit switch cs: `he.p0.j1`, `ea.p0.j1`, `ac.p0.c1`.
    pub fn circuit_switch_name(&self, cs: usize) -> String {
        let c = self.circuit_switch(cs);
        match c.boundary {
            Boundary::HostEdge => format!("he.p{}.j{}", c.pod, c.index),
            Boundary::EdgeAggregation => format!("ea.p{}.j{}", c.pod, c.index),
            Boundary::AggregationCore => format!("ac.p{}.c{}", c.pod, c.index),
        }
    }

    /// The logical link a circuit switch carries for low slot `low`: the
    /// high slot it must reach.
    pub fn logical_high_slot(&self, cs: usize, low: u32) -> u32 {
        let c = self.circuit_switch(cs);
        match c.boundary {
            Boundary::HostEdge | Boundary::AggregationCore => low,
            Boundary::EdgeAggregation => (low + c.index) % self.half(),
        }
    }

    /// Circuit switches a member of `group` is attached to, with the side it
    /// is on (true: high side); its port there is its member index.
    pub fn attachments(&self, group: usize) -> Vec<(usize, bool)> {
        let p = self.pods as usize;
        let h = self.half();
        match self.group_layer(group) {
            Layer::Edge => {
                let pod = group as u32;
                (0..h)
                    .map(|j| (self.cs_index(Boundary::HostEdge, pod, j), true))
                    .chain(
                        (0..h).map(|j| (self.cs_index(Boundary::EdgeAggregation, pod, j), false)),
                    )
                    .collect()
            }
            Layer::Aggregation => {
                let pod = (group - p) as u32;
                (0..h)
                    .map(|j| (self.cs_index(Boundary::EdgeAggregation, pod, j), true))
                    .chain(
                        (0..h).map(|c| (self.cs_index(Boundary::AggregationCore, pod, c), false)),
                    )
                    .collect()
            }
            Layer::Core => {
                let c = (group - 2 * p) as u32;
                (0..self.pods)
                    .map(|pod| (self.cs_index(Boundary::AggregationCore, pod, c), true))
                    .collect()
            }
        }
    }
}

/// A physical switch: failure group and member index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Switch {
    /// Failure group index.
    pub group: usize,
    /// Member index within the group.
    pub member: u32,
}

/// Circuits of one circuit switch: `low[i]` is the high port low port i is
/// connected to; `high` is the inverse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircuitConfig {
    /// Low port → high port.
    pub low: Vec<Option<u32>>,
    /// High port → low port.
    pub high: Vec<Option<u32>>,
}

impl CircuitConfig {
    fn peer(&self, high_side: bool, port: u32) -> Option<u32> {
        if high_side {
            self.high[port as usize]
        } else {
            self.low[port as usize]
        }
    }

    fn disconnect(&mut self, low: u32, high: u32) {
        self.low[low as usize] = None;
        self.high[high as usize] = None;
    }

    fn connect(&mut self, low: u32, high: u32) {
        self.low[low as usize] = Some(high);
        self.high[high as usize] = Some(low);
    }

    /// Circuits as sorted (low, high) pairs.
    pub fn pairs(&self) -> Vec<[u32; 2]> {
        self.low
            .iter()
            .enumerate()
            .filter_map(|(l, h)| h.map(|h| [l as u32, h]))
            .collect()
    }
}

/// A planner input event; switch names as in [`FatTree::switch_name`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A switch failed.
    SwitchDown {
        /// Switch name.
        switch: String,
    },
    /// The link between two adjacent switches failed; both are replaced and
    /// become suspects until diagnosed.
    LinkDown {
        /// One end.
        a: String,
        /// The other end.
        b: String,
    },
    /// A failed switch was repaired; it joins its group's backup pool.
    RepairDone {
        /// Switch name.
        switch: String,
    },
    /// Offline diagnosis of a suspect finished.
    DiagnosisResult {
        /// Switch name.
        switch: String,
        /// True: healthy, back to the pool; false: failed, a repair ticket.
        healthy: bool,
    },
}

/// One `replace()` call on a circuit switch's agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplaceCall {
    /// Circuit switch name.
    pub circuit_switch: String,
    /// "low" or "high": the side of the replaced ports.
    pub side: &'static str,
    /// Port of the switch taken out.
    pub failed_port: u32,
    /// Port of the switch put in.
    pub backup_port: u32,
    /// Port on the other side that moves from one to the other.
    pub peer_port: Option<u32>,
    /// Switch taken out.
    pub failed_switch: String,
    /// Switch put in (same failure group).
    pub backup_switch: String,
}

/// Net circuit changes on one circuit switch: (low, high) pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CircuitDiff {
    /// Circuit switch name.
    pub circuit_switch: String,
    /// Circuits removed.
    pub removed: Vec<[u32; 2]>,
    /// Circuits added.
    pub added: Vec<[u32; 2]>,
}

/// Rerouting fallback for a slot left without a working switch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fallback {
    /// Slot name.
    pub slot: String,
    /// Logical links lost with it.
    pub lost_links: u32,
    /// Hosts cut off (edge slots: hosts are single-homed).
    pub disconnected_hosts: u32,
    /// Working slots of the same group that carry its traffic instead.
    pub reroute_via: Vec<String>,
    /// Share of the group's capacity left.
    pub capacity_fraction: f64,
}

/// A planned offline test: the suspect's port joined to a known-good spare's
/// port on the circuit switch of the failed link; both ports carry no circuit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagnosisTest {
    /// Suspect switch.
    pub suspect: String,
    /// Circuit switch of the failed link.
    pub circuit_switch: String,
    /// The test circuit (low port, high port).
    pub circuit: Option<[u32; 2]>,
    /// Known-good partner (a spare of the other side's group).
    pub partner: Option<String>,
    /// Why no test could be planned yet.
    pub waiting_for: Option<String>,
}

/// Backup pool and down switches of one failure group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// Group name.
    pub group: String,
    /// Free backups (spares).
    pub spares: Vec<String>,
    /// Failed switches (awaiting repair).
    pub failed: Vec<String>,
    /// Suspects awaiting diagnosis.
    pub suspects: Vec<String>,
}

/// The planner's answer to one event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventPlan {
    /// Position in the log.
    pub index: usize,
    /// The event.
    pub event: Event,
    /// `normal` or `degraded`.
    pub status: &'static str,
    /// Ordered replace() calls.
    pub replace_calls: Vec<ReplaceCall>,
    /// Net circuit changes per circuit switch.
    pub circuit_changes: Vec<CircuitDiff>,
    /// Pools of the groups the event touched.
    pub pools: Vec<Pool>,
    /// Groups without a working switch in some slot (after the event).
    pub degraded_groups: Vec<String>,
    /// Rerouting fallback for every slot without a working switch.
    pub fallback: Vec<Fallback>,
    /// Tests for every outstanding suspect.
    pub diagnosis_tests: Vec<DiagnosisTest>,
    /// Switches that need a repair ticket because of this event.
    pub repair_tickets: Vec<String>,
    /// Latency budget in ms: 0.22 communication + 0.01 computation + the
    /// circuit technology's reconfiguration time (when calls were issued).
    pub latency_ms: f64,
}

/// A circuit switch's circuits, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedConfig {
    /// Circuit switch name.
    pub circuit_switch: String,
    /// (low, high) circuits.
    pub circuits: Vec<[u32; 2]>,
}

/// How one circuit switch is wired: the failure groups on its two sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Wiring {
    /// Circuit switch name.
    pub circuit_switch: String,
    /// Group on the low side (None: hosts; port i is host i of every edge slot).
    pub low_group: Option<String>,
    /// Group on the high side.
    pub high_group: String,
    /// Low-side ports.
    pub low_ports: u32,
    /// High-side ports.
    pub high_ports: u32,
}

/// The full schedule of an event log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    /// The fabric.
    pub fabric: FatTree,
    /// Its counts.
    pub counts: FabricCounts,
    /// Every circuit switch's wiring (a member's port is its member index).
    pub wiring: Vec<Wiring>,
    /// Circuit configurations before the first event.
    pub initial_circuits: Vec<NamedConfig>,
    /// One plan per event.
    pub events: Vec<EventPlan>,
}

impl Schedule {
    /// Deterministic JSON: struct fields in declaration order, lists sorted
    /// by the planner; the same log gives the same bytes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("schedule serialises")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Active,
    Spare,
    Failed,
    Suspect,
}

/// Planner state: circuits, slot occupants and member roles.
#[derive(Debug, Clone)]
pub struct Planner {
    tree: FatTree,
    configs: Vec<CircuitConfig>,
    /// occupant[group][slot] = member (may be down: the slot is degraded).
    occupant: Vec<Vec<u32>>,
    role: Vec<Vec<Role>>,
    /// Suspect → circuit switch and side of the failed link.
    suspects: BTreeMap<Switch, (usize, bool)>,
    reconfig_ms: f64,
    /// Circuits of the circuit switches the current event touched, as they
    /// were before it (the diff compares only these).
    before: BTreeMap<usize, CircuitConfig>,
}

/// Communication (0.22 ms) plus computation (0.01 ms), seed Table 3.
const CONTROL_MS: f64 = 0.23;

impl Planner {
    /// A fabric with every slot held by its initial member. `reconfig_ms`
    /// is the circuit technology's switching time (Table 3: 0.5 EPS, 8.5 OCS).
    pub fn new(tree: FatTree, reconfig_ms: f64) -> Self {
        let h = tree.half();
        let configs = (0..tree.num_circuit_switches())
            .map(|cs| {
                let c = tree.circuit_switch(cs);
                let mut config = CircuitConfig {
                    low: vec![None; c.low_ports as usize],
                    high: vec![None; c.high_ports as usize],
                };
                for low in 0..h {
                    config.connect(low, tree.logical_high_slot(cs, low));
                }
                config
            })
            .collect();
        let groups = tree.num_groups();
        let size = tree.group_size();
        Self {
            occupant: vec![(0..h).collect(); groups],
            role: vec![
                (0..size)
                    .map(|m| if m < h { Role::Active } else { Role::Spare })
                    .collect();
                groups
            ],
            configs,
            suspects: BTreeMap::new(),
            reconfig_ms,
            before: BTreeMap::new(),
            tree,
        }
    }

    /// Current circuit configurations.
    pub fn configs(&self) -> &[CircuitConfig] {
        &self.configs
    }

    fn named_configs(&self) -> Vec<NamedConfig> {
        self.configs
            .iter()
            .enumerate()
            .map(|(cs, c)| NamedConfig {
                circuit_switch: self.tree.circuit_switch_name(cs),
                circuits: c.pairs(),
            })
            .collect()
    }

    fn slot_of(&self, s: Switch) -> Option<u32> {
        self.occupant[s.group]
            .iter()
            .position(|&m| m == s.member)
            .map(|slot| slot as u32)
    }

    fn switch(&self, name: &str) -> Result<Switch, ShareBackupError> {
        self.tree
            .parse_switch(name)
            .map_or_else(|| fail(format!("unknown switch {name:?}")), Ok)
    }

    /// The lowest spare that holds no slot (a repaired switch that still
    /// holds its degraded slot resumes it instead, see [`Self::refill`]).
    fn lowest_spare(&self, group: usize) -> Option<u32> {
        (0..self.tree.group_size()).find(|&m| {
            self.role[group][m as usize] == Role::Spare && !self.occupant[group].contains(&m)
        })
    }

    /// Moves slot `slot` of `group` from its occupant to `backup` with one
    /// replace() per attached circuit switch, in attachment order.
    fn splice(&mut self, group: usize, slot: u32, backup: u32, calls: &mut Vec<ReplaceCall>) {
        let failed = self.occupant[group][slot as usize];
        for (cs, high_side) in self.tree.attachments(group) {
            let config = &mut self.configs[cs];
            self.before.entry(cs).or_insert_with(|| config.clone());
            let peer = config.peer(high_side, failed);
            if let Some(peer) = peer {
                if high_side {
                    config.disconnect(peer, failed);
                    config.connect(peer, backup);
                } else {
                    config.disconnect(failed, peer);
                    config.connect(backup, peer);
                }
            }
            calls.push(ReplaceCall {
                circuit_switch: self.tree.circuit_switch_name(cs),
                side: if high_side { "high" } else { "low" },
                failed_port: failed,
                backup_port: backup,
                peer_port: peer,
                failed_switch: self.tree.switch_name(Switch {
                    group,
                    member: failed,
                }),
                backup_switch: self.tree.switch_name(Switch {
                    group,
                    member: backup,
                }),
            });
        }
        self.occupant[group][slot as usize] = backup;
        self.role[group][backup as usize] = Role::Active;
    }

    /// Takes an active switch out of service with role `down`; a spare of
    /// its group takes its slot, else the slot stays degraded.
    fn take_down(&mut self, s: Switch, down: Role, calls: &mut Vec<ReplaceCall>) {
        self.role[s.group][s.member as usize] = down;
        if let (Some(slot), Some(spare)) = (self.slot_of(s), self.lowest_spare(s.group)) {
            self.splice(s.group, slot, spare, calls);
        }
    }

    /// A switch of `group` became a spare: it fills the group's lowest
    /// degraded slot (resuming its own slot without calls if it held one).
    fn refill(&mut self, group: usize, calls: &mut Vec<ReplaceCall>) {
        let degraded: Vec<u32> = (0..self.tree.half())
            .filter(|&slot| {
                self.role[group][self.occupant[group][slot as usize] as usize] != Role::Active
            })
            .collect();
        // First every repaired occupant resumes its own slot, then spares
        // fill what is left.
        for &slot in &degraded {
            let occupant = self.occupant[group][slot as usize];
            if self.role[group][occupant as usize] == Role::Spare {
                self.role[group][occupant as usize] = Role::Active;
            }
        }
        for slot in degraded {
            let occupant = self.occupant[group][slot as usize];
            if self.role[group][occupant as usize] != Role::Active
                && let Some(spare) = self.lowest_spare(group)
            {
                self.splice(group, slot, spare, calls);
            }
        }
    }

    fn adjacent_on(&self, a: Switch, b: Switch) -> Option<(usize, bool, bool)> {
        self.tree
            .attachments(a.group)
            .into_iter()
            .find_map(|(cs, a_high)| {
                let config = &self.configs[cs];
                let c = self.tree.circuit_switch(cs);
                let b_group = if a_high {
                    c.low_group
                } else {
                    Some(c.high_group)
                };
                (b_group == Some(b.group) && config.peer(a_high, a.member) == Some(b.member))
                    .then_some((cs, a_high, !a_high))
            })
    }

    /// Applies one event; errors leave the state unchanged.
    pub fn apply(&mut self, index: usize, event: &Event) -> Result<EventPlan, ShareBackupError> {
        self.before.clear();
        let mut calls = Vec::new();
        let mut touched = BTreeSet::new();
        let mut tickets = Vec::new();
        let role = |p: &Self, s: Switch| p.role[s.group][s.member as usize];
        match event {
            Event::SwitchDown { switch } => {
                let s = self.switch(switch)?;
                touched.insert(s.group);
                match role(self, s) {
                    Role::Failed => {
                        return fail(format!("event {index}: {switch} is already down"));
                    }
                    Role::Active => self.take_down(s, Role::Failed, &mut calls),
                    Role::Spare | Role::Suspect => {
                        self.suspects.remove(&s);
                        self.role[s.group][s.member as usize] = Role::Failed;
                    }
                }
                tickets.push(switch.clone());
            }
            Event::LinkDown { a, b } => {
                let (sa, sb) = (self.switch(a)?, self.switch(b)?);
                let mut problems = Vec::new();
                for (name, s) in [(a, sa), (b, sb)] {
                    if role(self, s) != Role::Active {
                        problems.push(format!("event {index}: {name} is not an active switch"));
                    }
                }
                let link = self.adjacent_on(sa, sb);
                if link.is_none() {
                    problems.push(format!("event {index}: {a} and {b} share no link"));
                }
                if !problems.is_empty() {
                    return Err(ShareBackupError { problems });
                }
                let (cs, a_high, b_high) = link.expect("checked above");
                for (s, high) in [(sa, a_high), (sb, b_high)] {
                    touched.insert(s.group);
                    self.suspects.insert(s, (cs, high));
                    self.take_down(s, Role::Suspect, &mut calls);
                }
            }
            Event::RepairDone { switch } => {
                let s = self.switch(switch)?;
                if role(self, s) != Role::Failed {
                    return fail(format!("event {index}: {switch} is not down for repair"));
                }
                touched.insert(s.group);
                self.role[s.group][s.member as usize] = Role::Spare;
                self.refill(s.group, &mut calls);
            }
            Event::DiagnosisResult { switch, healthy } => {
                let s = self.switch(switch)?;
                if role(self, s) != Role::Suspect {
                    return fail(format!(
                        "event {index}: {switch} is not a suspect awaiting diagnosis"
                    ));
                }
                touched.insert(s.group);
                self.suspects.remove(&s);
                if *healthy {
                    self.role[s.group][s.member as usize] = Role::Spare;
                    self.refill(s.group, &mut calls);
                } else {
                    self.role[s.group][s.member as usize] = Role::Failed;
                    tickets.push(switch.clone());
                }
            }
        }
        let circuit_changes = self.diff();
        let (degraded_groups, fallback) = self.degradation();
        let issued = !calls.is_empty();
        Ok(EventPlan {
            index,
            event: event.clone(),
            status: if degraded_groups.is_empty() {
                "normal"
            } else {
                "degraded"
            },
            replace_calls: calls,
            circuit_changes,
            pools: touched.into_iter().map(|g| self.pool(g)).collect(),
            degraded_groups,
            fallback,
            diagnosis_tests: self.diagnosis_tests(),
            repair_tickets: tickets,
            latency_ms: if issued {
                CONTROL_MS + self.reconfig_ms
            } else {
                0.0
            },
        })
    }

    /// Net changes on the circuit switches the event touched, in index order.
    fn diff(&self) -> Vec<CircuitDiff> {
        let mut diffs = Vec::new();
        for (&cs, old) in &self.before {
            let new = &self.configs[cs];
            if old == new {
                continue;
            }
            let (old, new) = (old.pairs(), new.pairs());
            diffs.push(CircuitDiff {
                circuit_switch: self.tree.circuit_switch_name(cs),
                removed: old.iter().filter(|p| !new.contains(p)).copied().collect(),
                added: new.iter().filter(|p| !old.contains(p)).copied().collect(),
            });
        }
        diffs
    }

    fn pool(&self, group: usize) -> Pool {
        let with = |wanted: Role| {
            self.role[group]
                .iter()
                .enumerate()
                .filter(|&(_, &r)| r == wanted)
                .map(|(m, _)| {
                    self.tree.switch_name(Switch {
                        group,
                        member: m as u32,
                    })
                })
                .collect()
        };
        Pool {
            group: self.tree.group_name(group),
            spares: with(Role::Spare),
            failed: with(Role::Failed),
            suspects: with(Role::Suspect),
        }
    }

    /// Every slot whose occupant is down, with its rerouting fallback.
    fn degradation(&self) -> (Vec<String>, Vec<Fallback>) {
        let h = self.tree.half();
        let mut groups = Vec::new();
        let mut fallback = Vec::new();
        for group in 0..self.tree.num_groups() {
            let working: Vec<u32> = (0..h)
                .filter(|&slot| {
                    self.role[group][self.occupant[group][slot as usize] as usize] == Role::Active
                })
                .collect();
            if working.len() == h as usize {
                continue;
            }
            groups.push(self.tree.group_name(group));
            let layer = self.tree.group_layer(group);
            for slot in (0..h).filter(|s| !working.contains(s)) {
                fallback.push(Fallback {
                    slot: self.tree.slot_name(group, slot),
                    lost_links: match layer {
                        Layer::Core => self.tree.pods,
                        _ => self.tree.k,
                    },
                    disconnected_hosts: if layer == Layer::Edge { h } else { 0 },
                    reroute_via: if layer == Layer::Edge {
                        Vec::new()
                    } else {
                        working
                            .iter()
                            .map(|&s| self.tree.slot_name(group, s))
                            .collect()
                    },
                    capacity_fraction: f64::from(working.len() as u32) / f64::from(h),
                });
            }
        }
        (groups, fallback)
    }

    /// For each suspect, a test circuit joining its port on the failed
    /// link's circuit switch to a free port of a spare on the other side.
    fn diagnosis_tests(&self) -> Vec<DiagnosisTest> {
        let mut used: BTreeSet<(usize, bool, u32)> = BTreeSet::new();
        let mut tests = Vec::new();
        for (&s, &(cs, high_side)) in &self.suspects {
            let c = self.tree.circuit_switch(cs);
            let config = &self.configs[cs];
            let other_group = if high_side {
                c.low_group
            } else {
                Some(c.high_group)
            };
            let mut test = DiagnosisTest {
                suspect: self.tree.switch_name(s),
                circuit_switch: self.tree.circuit_switch_name(cs),
                circuit: None,
                partner: None,
                waiting_for: None,
            };
            if config.peer(high_side, s.member).is_some() {
                test.waiting_for = Some("its port to be released (its slot has no backup)".into());
            } else if let Some(other) = other_group {
                let partner = (0..self.tree.group_size()).find(|&m| {
                    self.role[other][m as usize] == Role::Spare
                        && config.peer(!high_side, m).is_none()
                        && !used.contains(&(cs, !high_side, m))
                });
                match partner {
                    Some(m) => {
                        used.insert((cs, !high_side, m));
                        test.circuit = Some(if high_side {
                            [m, s.member]
                        } else {
                            [s.member, m]
                        });
                        test.partner = Some(self.tree.switch_name(Switch {
                            group: other,
                            member: m,
                        }));
                    }
                    None => {
                        test.waiting_for =
                            Some(format!("a free backup in {}", self.tree.group_name(other)));
                    }
                }
            }
            tests.push(test);
        }
        tests
    }
}

/// Plans an event log from the initial fabric; the first invalid event
/// stops the plan with its error.
pub fn plan(
    tree: &FatTree,
    events: &[Event],
    reconfig_ms: f64,
) -> Result<Schedule, ShareBackupError> {
    let mut planner = Planner::new(tree.clone(), reconfig_ms);
    let initial_circuits = planner.named_configs();
    let events = events
        .iter()
        .enumerate()
        .map(|(i, e)| planner.apply(i, e))
        .collect::<Result<Vec<_>, _>>()?;
    let wiring = (0..tree.num_circuit_switches())
        .map(|cs| {
            let c = tree.circuit_switch(cs);
            Wiring {
                circuit_switch: tree.circuit_switch_name(cs),
                low_group: c.low_group.map(|g| tree.group_name(g)),
                high_group: tree.group_name(c.high_group),
                low_ports: c.low_ports,
                high_ports: c.high_ports,
            }
        })
        .collect();
    Ok(Schedule {
        fabric: tree.clone(),
        counts: tree.counts(),
        wiring,
        initial_circuits,
        events,
    })
}

/// A valid random event log of `len` events (seeded): switch and link
/// failures of working switches, repairs of failed ones and diagnosis
/// results of suspects, in proportions that keep every kind present. For
/// benchmarks, property tests and demos.
pub fn synthetic_log(tree: &FatTree, len: usize, seed: u64) -> Vec<Event> {
    let mut rng = super::pool::SplitMix64::new(seed);
    let mut planner = Planner::new(tree.clone(), 0.0);
    let mut events = Vec::with_capacity(len);
    let name = |s: Switch| tree.switch_name(s);
    while events.len() < len {
        let with = |p: &Planner, wanted: Role| -> Vec<Switch> {
            (0..tree.num_groups())
                .flat_map(|group| {
                    (0..tree.group_size()).map(move |member| Switch { group, member })
                })
                .filter(|s| p.role[s.group][s.member as usize] == wanted)
                .collect()
        };
        let pick = |rng: &mut super::pool::SplitMix64, v: &[Switch]| {
            v[(rng.next_u64() % v.len() as u64) as usize]
        };
        let (active, failed, suspects) = (
            with(&planner, Role::Active),
            with(&planner, Role::Failed),
            with(&planner, Role::Suspect),
        );
        let event = match rng.next_u64() % 4 {
            0 if !failed.is_empty() => Event::RepairDone {
                switch: name(pick(&mut rng, &failed)),
            },
            1 if !suspects.is_empty() => Event::DiagnosisResult {
                switch: name(pick(&mut rng, &suspects)),
                healthy: rng.next_u64().is_multiple_of(2),
            },
            2 if !active.is_empty() => {
                let a = pick(&mut rng, &active);
                let neighbour = tree
                    .attachments(a.group)
                    .into_iter()
                    .find_map(|(cs, high)| {
                        let c = tree.circuit_switch(cs);
                        let group = if high { c.low_group? } else { c.high_group };
                        let member = planner.configs[cs].peer(high, a.member)?;
                        (planner.role[group][member as usize] == Role::Active)
                            .then_some(Switch { group, member })
                    });
                match neighbour {
                    Some(b) => Event::LinkDown {
                        a: name(a),
                        b: name(b),
                    },
                    None => Event::SwitchDown { switch: name(a) },
                }
            }
            _ if !active.is_empty() => Event::SwitchDown {
                switch: name(pick(&mut rng, &active)),
            },
            _ => continue,
        };
        planner
            .apply(events.len(), &event)
            .expect("generated events are valid");
        events.push(event);
    }
    events
}

/// Checks a schedule independently of the planner's state: replays its
/// circuit changes from the initial circuits and, after each event,
/// 1. every circuit switch's circuits form a matching;
/// 2. contracting physical switches to the slots their circuits give them
///    yields the original fat tree, except the slots of groups the plan
///    reports degraded;
/// 3. a switch failure handled without degradation issues exactly one
///    replace() per circuit switch the failed switch is attached to, and
///    every backup comes from the failed switch's own group;
/// 4. diagnosis test circuits use ports that carry no circuit.
///
/// Returns one message per violation (empty: the schedule is sound).
pub fn verify(schedule: &Schedule) -> Vec<String> {
    let tree = &schedule.fabric;
    let mut violations = Vec::new();
    let by_name: BTreeMap<String, usize> = (0..tree.num_circuit_switches())
        .map(|cs| (tree.circuit_switch_name(cs), cs))
        .collect();
    let mut configs: Vec<Vec<[u32; 2]>> = vec![Vec::new(); tree.num_circuit_switches()];
    for named in &schedule.initial_circuits {
        match by_name.get(&named.circuit_switch) {
            Some(&cs) => configs[cs] = named.circuits.clone(),
            None => violations.push(format!("unknown circuit switch {}", named.circuit_switch)),
        }
    }
    let mut down: BTreeSet<Switch> = BTreeSet::new();
    let check =
        |label: &str, configs: &[Vec<[u32; 2]>], down: &BTreeSet<Switch>, degraded: &[String]| {
            let mut out = Vec::new();
            // 1. matchings.
            for (cs, pairs) in configs.iter().enumerate() {
                let lows: BTreeSet<u32> = pairs.iter().map(|p| p[0]).collect();
                let highs: BTreeSet<u32> = pairs.iter().map(|p| p[1]).collect();
                let c = tree.circuit_switch(cs);
                if lows.len() != pairs.len() || highs.len() != pairs.len() {
                    out.push(format!(
                        "{label}: {} is not a matching",
                        tree.circuit_switch_name(cs)
                    ));
                }
                if pairs
                    .iter()
                    .any(|p| p[0] >= c.low_ports || p[1] >= c.high_ports)
                {
                    out.push(format!(
                        "{label}: {} uses a port it does not have",
                        tree.circuit_switch_name(cs)
                    ));
                }
            }
            // Per circuit switch, [low → high, high → low] lookups.
            let peers: Vec<[Vec<Option<u32>>; 2]> = configs
                .iter()
                .enumerate()
                .map(|(cs, pairs)| {
                    let c = tree.circuit_switch(cs);
                    let mut low = vec![None; c.low_ports as usize];
                    let mut high = vec![None; c.high_ports as usize];
                    for &[l, h] in pairs {
                        if let (Some(a), Some(b)) =
                            (low.get_mut(l as usize), high.get_mut(h as usize))
                        {
                            *a = Some(h);
                            *b = Some(l);
                        }
                    }
                    [low, high]
                })
                .collect();
            // 2. contraction: slots claimed by circuits, layer by layer.
            let mut slot_of: BTreeMap<Switch, BTreeSet<u32>> = BTreeMap::new();
            for (cs, pairs) in configs.iter().enumerate() {
                let c = tree.circuit_switch(cs);
                if c.boundary == Boundary::HostEdge {
                    for &[host, member] in pairs {
                        let s = Switch {
                            group: c.high_group,
                            member,
                        };
                        // Down switches keep their place while their circuits stay.
                        slot_of.entry(s).or_default().insert(host);
                    }
                }
            }
            for boundary in [Boundary::EdgeAggregation, Boundary::AggregationCore] {
                for (cs, pairs) in configs.iter().enumerate() {
                    let c = tree.circuit_switch(cs);
                    if c.boundary != boundary {
                        continue;
                    }
                    let low_group = c.low_group.expect("switch boundary");
                    for &[low, high] in pairs {
                        let (ls, hs) = (
                            Switch {
                                group: low_group,
                                member: low,
                            },
                            Switch {
                                group: c.high_group,
                                member: high,
                            },
                        );
                        let low_slots: Vec<u32> = slot_of
                            .get(&ls)
                            .map(|s| s.iter().copied().collect())
                            .unwrap_or_default();
                        if low_slots.len() != 1 {
                            out.push(format!(
                                "{label}: {} carries a circuit on {} but plays no single slot",
                                tree.switch_name(ls),
                                tree.circuit_switch_name(cs)
                            ));
                            continue;
                        }
                        slot_of
                            .entry(hs)
                            .or_default()
                            .insert(tree.logical_high_slot(cs, low_slots[0]));
                    }
                }
            }
            let mut players: BTreeMap<(usize, u32), Vec<Switch>> = BTreeMap::new();
            for (s, slots) in &slot_of {
                if slots.len() != 1 {
                    out.push(format!(
                        "{label}: {} plays several slots",
                        tree.switch_name(*s)
                    ));
                }
                for &slot in slots {
                    players.entry((s.group, slot)).or_default().push(*s);
                }
            }
            for group in 0..tree.num_groups() {
                for slot in 0..tree.half() {
                    let placed = players.get(&(group, slot)).map_or(&[][..], Vec::as_slice);
                    let n = placed.iter().filter(|s| !down.contains(s)).count();
                    let is_degraded = degraded.contains(&tree.group_name(group));
                    if placed.len() > 1 || (n == 0 && !is_degraded) {
                        out.push(format!(
                            "{label}: slot {} has {n} working switches",
                            tree.slot_name(group, slot)
                        ));
                    }
                }
            }
            // Every switch that plays a slot must have all its logical links.
            for (s, slots) in slot_of.iter().filter(|(s, _)| !down.contains(s)) {
                let Some(&slot) = slots.iter().next() else {
                    continue;
                };
                for (cs, high_side) in tree.attachments(s.group) {
                    let peer = peers[cs][usize::from(high_side)]
                        .get(s.member as usize)
                        .copied()
                        .flatten();
                    let c = tree.circuit_switch(cs);
                    let expected_ok = match (peer, high_side) {
                        (None, _) => false,
                        (Some(peer), true) => match c.low_group {
                            None => tree.logical_high_slot(cs, peer) == slot,
                            Some(lg) => {
                                let ls = Switch {
                                    group: lg,
                                    member: peer,
                                };
                                down.contains(&ls)
                                    || slot_of
                                        .get(&ls)
                                        .and_then(|x| x.iter().next())
                                        .is_some_and(|&l| tree.logical_high_slot(cs, l) == slot)
                            }
                        },
                        (Some(peer), false) => {
                            let hs = Switch {
                                group: c.high_group,
                                member: peer,
                            };
                            down.contains(&hs)
                                || slot_of
                                    .get(&hs)
                                    .and_then(|x| x.iter().next())
                                    .is_some_and(|&h| tree.logical_high_slot(cs, slot) == h)
                        }
                    };
                    if !expected_ok {
                        out.push(format!(
                            "{label}: {} lacks its logical link on {}",
                            tree.switch_name(*s),
                            tree.circuit_switch_name(cs)
                        ));
                    }
                }
            }
            out
        };
    violations.extend(check("initial", &configs, &down, &[]));
    for plan in &schedule.events {
        let label = format!("event {}", plan.index);
        for diff in &plan.circuit_changes {
            let Some(&cs) = by_name.get(&diff.circuit_switch) else {
                violations.push(format!(
                    "{label}: unknown circuit switch {}",
                    diff.circuit_switch
                ));
                continue;
            };
            configs[cs].retain(|p| !diff.removed.contains(p));
            configs[cs].extend(diff.added.iter().copied());
            configs[cs].sort_unstable();
        }
        for pool in &plan.pools {
            // A pool lists every down member of its group: the others are up.
            let down_now: BTreeSet<Switch> = pool
                .failed
                .iter()
                .chain(&pool.suspects)
                .filter_map(|name| tree.parse_switch(name))
                .collect();
            if let Some(group) = (0..tree.num_groups()).find(|&g| tree.group_name(g) == pool.group)
            {
                down.retain(|s| s.group != group);
            }
            down.extend(down_now);
        }
        violations.extend(check(&label, &configs, &down, &plan.degraded_groups));
        // 3. one replace per attached circuit switch, same group.
        for call in &plan.replace_calls {
            let (f, b) = (
                tree.parse_switch(&call.failed_switch),
                tree.parse_switch(&call.backup_switch),
            );
            if f.map(|s| s.group) != b.map(|s| s.group) || f.is_none() {
                violations.push(format!(
                    "{label}: {} replaced by {} from another group",
                    call.failed_switch, call.backup_switch
                ));
            }
        }
        if let Event::SwitchDown { switch } = &plan.event {
            let failed_calls: Vec<&ReplaceCall> = plan
                .replace_calls
                .iter()
                .filter(|c| &c.failed_switch == switch)
                .collect();
            if let Some(s) = tree.parse_switch(switch)
                && !failed_calls.is_empty()
            {
                {
                    let attached: Vec<String> = tree
                        .attachments(s.group)
                        .into_iter()
                        .map(|(cs, _)| tree.circuit_switch_name(cs))
                        .collect();
                    let called: Vec<String> = failed_calls
                        .iter()
                        .map(|c| c.circuit_switch.clone())
                        .collect();
                    if called != attached {
                        violations.push(format!("{label}: {switch} got {} replace() calls, expected one on each of its {} circuit switches", called.len(), attached.len()));
                    }
                }
            }
        }
        // 4. diagnosis tests on free ports.
        for test in &plan.diagnosis_tests {
            if let (Some([low, high]), Some(&cs)) =
                (test.circuit, by_name.get(&test.circuit_switch))
                && configs[cs].iter().any(|p| p[0] == low || p[1] == high)
            {
                {
                    violations.push(format!(
                        "{label}: test of {} touches a port in use",
                        test.suspect
                    ));
                }
            }
        }
    }
    violations
}

#[cfg(test)]
mod tests {
    use super::*;

    fn down(name: &str) -> Event {
        Event::SwitchDown {
            switch: name.into(),
        }
    }

    #[test]
    fn reference_counts() {
        let testbed = FatTree::new(4, 2, 1).unwrap().counts();
        assert_eq!(
            (
                testbed.active_switches,
                testbed.backup_switches,
                testbed.hosts
            ),
            (12, 6, 8)
        );
        assert_eq!((testbed.circuit_switches, testbed.circuit_ports), (12, 68));
        let schedule = plan(&FatTree::new(4, 2, 1).unwrap(), &[], 0.5).unwrap();
        let ports: u64 = schedule
            .wiring
            .iter()
            .map(|w| u64::from(w.low_ports + w.high_ports))
            .sum();
        assert_eq!(ports, 68);
        assert_eq!(schedule.wiring[0].low_group, None);
        assert_eq!(schedule.wiring[11].high_group, "core.c1");
        let k16 = FatTree::new(16, 16, 1).unwrap().counts();
        assert_eq!(
            (k16.active_switches, k16.backup_switches, k16.hosts),
            (320, 40, 1024)
        );
    }

    #[test]
    fn bad_fabric_lists_every_problem() {
        let err = FatTree::new(5, 9, 100).unwrap_err();
        assert_eq!(err.problems.len(), 3, "{err}");
    }

    #[test]
    fn switch_failure_replaces_once_per_attached_circuit_switch() {
        let tree = FatTree::new(4, 2, 1).unwrap();
        let schedule = plan(&tree, &[down("agg.p0.m1")], 0.5).unwrap();
        let e = &schedule.events[0];
        assert_eq!(e.status, "normal");
        assert_eq!(e.replace_calls.len(), 4);
        assert!(
            e.replace_calls
                .iter()
                .all(|c| c.backup_switch == "agg.p0.m2")
        );
        assert_eq!(e.pools[0].failed, vec!["agg.p0.m1"]);
        assert!(e.pools[0].spares.is_empty());
        assert_eq!(e.repair_tickets, vec!["agg.p0.m1"]);
        assert!((e.latency_ms - 0.73).abs() < 1e-9);
        assert_eq!(verify(&schedule), Vec::<String>::new());
    }

    #[test]
    fn second_failure_in_a_group_degrades_without_borrowing() {
        let tree = FatTree::new(4, 2, 1).unwrap();
        let schedule = plan(&tree, &[down("agg.p0.m0"), down("agg.p0.m1")], 0.5).unwrap();
        let e = &schedule.events[1];
        assert_eq!(e.status, "degraded");
        assert!(
            e.replace_calls.is_empty(),
            "agg.p1's spare must not be borrowed"
        );
        assert_eq!(e.degraded_groups, vec!["agg.p0"]);
        assert_eq!(e.fallback[0].slot, "agg.p0.s1");
        assert_eq!(e.fallback[0].reroute_via, vec!["agg.p0.s0"]);
        assert_eq!(verify(&schedule), Vec::<String>::new());
        // Repairing the first restores the slot.
        let repaired = plan(
            &tree,
            &[
                down("agg.p0.m0"),
                down("agg.p0.m1"),
                Event::RepairDone {
                    switch: "agg.p0.m0".into(),
                },
            ],
            0.5,
        )
        .unwrap();
        let e = &repaired.events[2];
        assert_eq!(e.status, "normal");
        assert_eq!(e.replace_calls.len(), 4);
        assert_eq!(verify(&repaired), Vec::<String>::new());
    }

    #[test]
    fn link_failure_replaces_both_ends_and_diagnoses_against_spares() {
        let tree = FatTree::new(4, 2, 2).unwrap();
        let events = [Event::LinkDown {
            a: "edge.p0.m0".into(),
            b: "agg.p0.m0".into(),
        }];
        let schedule = plan(&tree, &events, 0.5).unwrap();
        let e = &schedule.events[0];
        assert_eq!(e.replace_calls.len(), 2 * 4);
        let net: usize = e.circuit_changes.iter().map(|d| d.added.len()).sum();
        assert_eq!(net, 2 * 4 - 1);
        assert_eq!(e.diagnosis_tests.len(), 2);
        assert!(
            e.diagnosis_tests.iter().all(|t| t.circuit.is_some()),
            "{:?}",
            e.diagnosis_tests
        );
        assert_eq!(verify(&schedule), Vec::<String>::new());
    }

    #[test]
    fn diagnosis_waits_when_no_spare_is_left() {
        let tree = FatTree::new(4, 2, 1).unwrap();
        let events = [
            Event::LinkDown {
                a: "edge.p0.m0".into(),
                b: "agg.p0.m0".into(),
            },
            Event::DiagnosisResult {
                switch: "agg.p0.m0".into(),
                healthy: false,
            },
            Event::DiagnosisResult {
                switch: "edge.p0.m0".into(),
                healthy: true,
            },
        ];
        let schedule = plan(&tree, &events, 0.5).unwrap();
        assert!(
            schedule.events[0]
                .diagnosis_tests
                .iter()
                .all(|t| t.waiting_for.is_some())
        );
        assert_eq!(schedule.events[1].repair_tickets, vec!["agg.p0.m0"]);
        assert_eq!(schedule.events[2].pools[0].spares, vec!["edge.p0.m0"]);
        assert_eq!(verify(&schedule), Vec::<String>::new());
    }

    #[test]
    fn invalid_events_are_rejected() {
        let tree = FatTree::new(4, 2, 1).unwrap();
        assert!(plan(&tree, &[down("agg.p9.m0")], 0.5).is_err());
        assert!(plan(&tree, &[down("agg.p0.m0"), down("agg.p0.m0")], 0.5).is_err());
        let not_adjacent = Event::LinkDown {
            a: "edge.p0.m0".into(),
            b: "agg.p1.m0".into(),
        };
        assert!(plan(&tree, &[not_adjacent], 0.5).is_err());
        assert!(
            plan(
                &tree,
                &[Event::RepairDone {
                    switch: "core.c0.m0".into()
                }],
                0.5
            )
            .is_err()
        );
    }

    #[test]
    fn verifier_catches_a_tampered_schedule() {
        let tree = FatTree::new(4, 2, 1).unwrap();
        let mut schedule = plan(&tree, &[down("edge.p1.m0")], 0.5).unwrap();
        schedule.events[0].circuit_changes[0].added.clear();
        assert!(!verify(&schedule).is_empty());
    }

    #[test]
    fn core_failure_in_partial_tree_issues_one_call_per_pod() {
        let tree = FatTree::new(8, 3, 1).unwrap();
        let schedule = plan(&tree, &[down("core.c2.m1")], 0.5).unwrap();
        assert_eq!(schedule.events[0].replace_calls.len(), 3);
        assert_eq!(verify(&schedule), Vec::<String>::new());
    }
}
