//! Bodies of the fuzz targets (`workers/engine/fuzz`): each takes arbitrary
//! bytes, feeds them to one reader of outside input and panics when an
//! invariant breaks. They live here, not in the fuzz crate, so that stable
//! `cargo test` replays the committed seed corpus through them
//! (`tests/fuzz_corpus.rs`) and a proptest drives them with random bytes.
//!
//! - [`document`]: the fabric document reader ([`crate::document`]).
//! - [`telemetry`]: COPY text into the counter windows
//!   ([`crate::telemetry::read_samples`], [`crate::telemetry::FabricState::apply`]).
//! - [`matching`]: the matching input (weighted pairs, slot choice, schedule
//!   options and demand windows) and the matcher.

use std::collections::HashMap;

use crate::document::{Document, DocumentLink, DocumentSwitch, read_document};
use crate::matching::{ScheduleOptions, checked_matching, choose_slot, plan, verify};
use crate::telemetry::{
    FabricState, OperSettings, Settings, read_samples, write_changed_directions, write_changed_ends,
};

/// Reads small numbers off the input, then zeros once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A number below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Short names from a small alphabet, so that duplicates and unknown names
/// (what the reader must refuse) come often.
fn name(bytes: &mut Bytes<'_>) -> String {
    ["", "t0", "t1", "t2", "s0", "s1", "s2", "s3", "x"][bytes.below(9)].to_string()
}

fn fraction(bytes: &mut Bytes<'_>) -> Option<f64> {
    match bytes.below(6) {
        0 => None,
        1 => Some(-0.5),
        2 => Some(1.5),
        3 => Some(f64::NAN),
        k => Some(f64::from(bytes.byte()) / 255.0 * f64::from(k as u8 - 3)),
    }
}

/// A document built from the bytes goes through [`read_document`]: it never
/// panics, and a fabric it accepts has one switch per entry, one link per
/// entry joining adjacent tiers, names and ids for every link in both orders,
/// a state per link and thresholds that are fractions.
/// Returns whether the reader accepted the document.
pub fn document(data: &[u8]) -> bool {
    let mut bytes = Bytes(data);
    let doc = Document {
        tiers: (0..bytes.below(5)).map(|_| name(&mut bytes)).collect(),
        capacity_constraint: fraction(&mut bytes),
        switches: (0..bytes.below(10))
            .map(|_| DocumentSwitch {
                name: name(&mut bytes),
                tier: bytes.below(5) as i64 - 1,
                capacity_constraint: fraction(&mut bytes),
            })
            .collect(),
        links: (0..bytes.below(16))
            .map(|_| DocumentLink {
                a: name(&mut bytes),
                a_port: [Some("p1"), Some("p2"), Some(""), None][bytes.below(4)]
                    .map(str::to_string),
                b: name(&mut bytes),
                b_port: [Some("p1"), Some("p2"), Some(""), None][bytes.below(4)]
                    .map(str::to_string),
                admin_state: [None, Some("enabled"), Some("disabled"), Some("off")][bytes.below(4)]
                    .map(str::to_string),
                oper_state: [None, Some("up"), Some("down"), Some("x")][bytes.below(4)]
                    .map(str::to_string),
            })
            .collect(),
    };
    let fabric = match read_document(&doc) {
        Ok(fabric) => fabric,
        Err(errors) => {
            assert!(!errors.0.is_empty());
            for err in &errors.0 {
                assert!(!err.path.is_empty() && !err.message.is_empty(), "{err:?}");
            }
            return false;
        }
    };
    let graph = &fabric.graph;
    assert_eq!(graph.num_switches(), doc.switches.len());
    assert_eq!(graph.num_links(), doc.links.len());
    assert_eq!(graph.num_tiers() as usize, fabric.tiers.len());
    if !doc.tiers.is_empty() {
        assert_eq!(fabric.tiers, doc.tiers);
    }
    assert_eq!(fabric.switch_names.len(), doc.switches.len());
    assert_eq!(fabric.link_states.len(), doc.links.len());
    assert!((0.0..=1.0).contains(&fabric.capacity));
    for &(tor, c) in &fabric.overrides {
        assert_eq!(graph.tier(tor), 0);
        assert!((0.0..=1.0).contains(&c));
    }
    for (l, link) in doc.links.iter().enumerate() {
        let id = crate::LinkId::try_from(l).expect("few links");
        assert_eq!(graph.tier(graph.upper(id)), graph.tier(graph.lower(id)) + 1);
        let (name, reversed) = link.names();
        assert_eq!(fabric.link_names[l], name);
        // Port-less parallel links share a name: the first one holds it.
        let first = |n: &String| {
            doc.links
                .iter()
                .position(|k| k.names().0 == *n || k.names().1 == *n)
        };
        assert_eq!(
            fabric.link_ids.get(&name).map(|&i| i as usize),
            first(&name)
        );
        assert_eq!(
            fabric.link_ids.get(&reversed).map(|&i| i as usize),
            first(&reversed)
        );
    }
    true
}

/// Settings that complete windows within a few microseconds, so fuzzed
/// times reach every branch of the window (restart on a gap or a counter
/// that went back, completion, too few packets).
pub const TELEMETRY_SETTINGS: Settings = Settings {
    window_us: 10,
    max_gap_us: 100,
    min_packets: 1,
    action: 1e-3,
    report: 1e-6,
    oper: OperSettings {
        dark_end_is_down: true,
        flap_changes: 2,
        flap_window_us: 50,
    },
};

/// COPY text goes through [`read_samples`] and, if it is read, into a fresh
/// state: never a panic; corruption rates are fractions, congestion rates
/// finite and not negative; what changed is held by
/// the state and written one line each; the checkpoint restores the same
/// state; and applying the samples batch by batch gives the state applying
/// them at once gives. Returns whether the text was read.
pub fn telemetry(data: &[u8]) -> bool {
    let Ok(samples) = read_samples(data) else {
        return false;
    };
    let mut state = FabricState::default();
    let changes = state.apply(&samples, &TELEMETRY_SETTINGS);
    assert!(changes.windows <= samples.len() as u64);
    for direction in state.directions.values() {
        // Corruption is errored frames over frames; congestion is discards
        // over packets sent (docs/telemetry.md), which can pass 1.
        if let Some((rate, _)) = direction.corruption {
            assert!((0.0..=1.0).contains(&rate), "corruption rate {rate}");
        }
        if let Some((rate, _)) = direction.congestion {
            assert!(rate >= 0.0 && rate.is_finite(), "congestion rate {rate}");
        }
    }
    for key in &changes.ends {
        assert!(state.ends.contains_key(key));
    }
    assert_eq!(
        write_changed_ends(&state, &changes).lines().count(),
        changes.ends.len()
    );
    assert_eq!(
        write_changed_directions(&state, &changes).lines().count(),
        changes.directions.len()
    );
    // Compared as bytes: a NaN reading (PostgreSQL's real holds one) is
    // restored as NaN, which `==` would call different.
    let checkpoint = state.checkpoint();
    let restored = FabricState::restore(&checkpoint).expect("a checkpoint restores");
    assert_eq!(restored.checkpoint(), checkpoint);

    let mut stepwise = FabricState::default();
    for batch in samples.chunk_by(|a, b| a.batch == b.batch) {
        stepwise.apply(batch, &TELEMETRY_SETTINGS);
    }
    assert_eq!(stepwise.checkpoint(), checkpoint, "batch by batch differs");
    true
}

/// The best matching weight by trying every matching (n <= 8).
fn brute_force(n: usize, edges: &[(u32, u32, i64)]) -> i64 {
    let mut best: HashMap<(u32, u32), i64> = HashMap::new();
    for &(a, b, w) in edges {
        if a != b {
            let key = (a.min(b), a.max(b));
            let entry = best.entry(key).or_insert(w);
            *entry = (*entry).max(w);
        }
    }
    fn go(v: usize, used: u32, n: usize, best: &HashMap<(u32, u32), i64>) -> i64 {
        if v == n {
            return 0;
        }
        if used & (1 << v) != 0 {
            return go(v + 1, used, n, best);
        }
        let mut top = go(v + 1, used | (1 << v), n, best);
        for u in v + 1..n {
            if used & (1 << u) == 0
                && let Some(&w) = best.get(&(v as u32, u as u32))
            {
                top = top.max(w + go(v + 1, used | (1 << v) | (1 << u), n, best));
            }
        }
        top
    }
    go(0, 0, n, &best)
}

/// Weighted pairs, ports, zones, option names and demand windows built from
/// the bytes go through the matching input checks: never a panic; an
/// accepted matching is a matching of the given edges with the brute-force
/// best weight; a slot keeps to ports and zones with its weight under its
/// bound (equal to the brute force when exact with one port per rack); an
/// accepted schedule passes [`verify`] with no violation. Returns whether
/// the schedule's options and windows were accepted.
pub fn matching(data: &[u8]) -> bool {
    let mut bytes = Bytes(data);
    let n = bytes.below(8) + 1;
    let edges: Vec<(u32, u32, i64)> = (0..bytes.below(12))
        .map(|_| {
            let a = bytes.below(n + 1) as u32;
            let b = bytes.below(n + 1) as u32;
            (a, b, i64::from(bytes.byte() as i8))
        })
        .collect();

    if let Ok(mates) = checked_matching(n, &edges) {
        assert_eq!(mates.len(), n);
        let mut weight = 0;
        for (v, mate) in mates.iter().enumerate() {
            let Some(u) = *mate else { continue };
            assert_ne!(u as usize, v, "vertex {v} matched to itself");
            assert_eq!(mates[u as usize], Some(v as u32), "not symmetric");
            let w = edges
                .iter()
                .filter(|&&(a, b, _)| (a, b) == (v as u32, u) || (b, a) == (v as u32, u))
                .map(|e| e.2)
                .max()
                .expect("matched along an edge");
            if (v as u32) < u {
                weight += w;
            }
        }
        assert_eq!(weight, brute_force(n, &edges), "not a maximum");
    }

    let ports: Vec<u32> = (0..n).map(|_| bytes.below(3) as u32).collect();
    let zones: Option<Vec<u32>> = match bytes.below(4) {
        0 => None,
        1 => Some(vec![0; n + 1]),
        _ => Some((0..n).map(|_| bytes.below(2) as u32).collect()),
    };
    let algorithm = [
        "exact",
        "greedy",
        "round-robin",
        "static",
        "random",
        "magic",
    ][bytes.below(6)];
    let seed = u64::from(bytes.byte());
    let slot_index = bytes.below(4);
    if let Ok(choice) = choose_slot(&ports, &edges, algorithm, seed, zones.clone(), slot_index) {
        let zone = |r: u32| zones.as_ref().map_or(0, |z| z[r as usize]);
        let mut used = vec![0u32; n];
        for c in &choice.circuits {
            assert!(c.a < c.b && c.count >= 1, "{c:?}");
            assert_eq!(zone(c.a), zone(c.b), "{c:?} crosses zones");
            used[c.a as usize] += c.count;
            used[c.b as usize] += c.count;
        }
        for (r, &k) in ports.iter().enumerate() {
            assert!(used[r] <= k, "rack {r} uses {} of {k} ports", used[r]);
        }
        assert!(choice.weight <= choice.bound);
        assert!((0.0..=1.0).contains(&choice.gap));
        let single = ports.iter().all(|&k| k == 1);
        if choice.exact && single && zones.is_none() {
            // A slot adds up a pair's entries (a matching keeps its heaviest).
            let mut summed: HashMap<(u32, u32), i64> = HashMap::new();
            for &(a, b, w) in &edges {
                *summed.entry((a.min(b), a.max(b))).or_insert(0) += w;
            }
            let summed: Vec<(u32, u32, i64)> =
                summed.into_iter().map(|((a, b), w)| (a, b, w)).collect();
            assert_eq!(choice.weight, brute_force(n, &summed));
        }
    }

    let windows: Vec<Vec<(u32, u32, u64)>> = (0..bytes.below(4))
        .map(|_| {
            (0..bytes.below(6))
                .map(|_| {
                    let src = bytes.below(n + 1) as u32;
                    let dst = bytes.below(n + 1) as u32;
                    (src, dst, u64::from(bytes.byte()) * 400_000)
                })
                .collect()
        })
        .collect();
    let options = ScheduleOptions {
        zones: (bytes.below(2) == 1).then(|| (0..n).map(|_| bytes.below(2) as u32).collect()),
        reconfig: ["per_port", "global", "x"][bytes.below(3)],
        mode: ["replay", "drain", "x"][bytes.below(3)],
        algorithm: ["exact", "greedy", "round-robin", "static", "random", "x"][bytes.below(6)],
        seed: u64::from(bytes.byte()),
        burst_active: bytes.below(3) as u32,
        burst_reset: bytes.below(3) as u32,
        hysteresis: f64::from(bytes.byte()) / 64.0 - 0.5,
        dark_time_s: f64::from(bytes.byte()) / 128.0,
        max_slots: 16,
        ..Default::default()
    };
    let done = bytes.is_empty();
    if let Ok(config) = options.config(ports, &windows) {
        let schedule = plan(&config, &windows).expect("a checked config plans");
        let violations = verify(&config, &windows, &schedule.slots).expect("checked");
        assert!(
            violations.is_empty(),
            "{violations:?} (input used up: {done})"
        );
        return true;
    }
    false
}
