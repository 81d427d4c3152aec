//! The fabric interchange document ("lightpath-fabric/1") as the engine
//! reads it: switches and links by name, turned into a [`FabricGraph`] with
//! the names, link states and capacity thresholds CorrOpt needs.
//!
//! The rules follow the backend's validation (`backend/fabric/services/
//! interchange.py`) for everything that shapes the graph: unique tier and
//! switch names, tiers in range, links between known switches on adjacent
//! tiers, each port used once, states from the allowed values, fractions in
//! `[0, 1]`. Fields the engine does not use (lengths, optics, racks...) are
//! not checked here. Errors name the document path of the first problem,
//! like `links[3].a: unknown switch 'x'`.
//!
//! The caller (the Python binding) converts the document's JSON values into
//! [`Document`], reporting values of the wrong type with the same paths.

use std::collections::HashMap;
use std::fmt;

use crate::corropt::LinkState;
use crate::fabric::{FabricGraph, LinkId, SwitchId};

/// The format name of the interchange document.
pub const FORMAT: &str = "lightpath-fabric/1";
/// Capacity threshold of a document without `capacity_constraint`.
pub const DEFAULT_CAPACITY: f64 = 0.75;

/// One entry of `switches`.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentSwitch {
    /// `name`.
    pub name: String,
    /// `tier`, 0 for ToRs.
    pub tier: i64,
    /// `capacity_constraint`: the switch's own threshold (used for ToRs).
    pub capacity_constraint: Option<f64>,
}

/// One entry of `links` (or a row of `links_csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentLink {
    /// Switch name of end A.
    pub a: String,
    /// Port on switch A.
    pub a_port: String,
    /// Switch name of end B.
    pub b: String,
    /// Port on switch B.
    pub b_port: String,
    /// `admin_state`: "enabled" (default) or "disabled".
    pub admin_state: Option<String>,
    /// `oper_state`: "up" (default) or "down".
    pub oper_state: Option<String>,
}

/// The parts of an interchange document the engine reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// `tiers`: tier names, bottom-up.
    pub tiers: Vec<String>,
    /// `capacity_constraint`: the fabric-wide threshold (default 0.75).
    pub capacity_constraint: Option<f64>,
    /// `switches`, in order: switch index = position.
    pub switches: Vec<DocumentSwitch>,
    /// `links` then the rows of `links_csv`: link index = position.
    pub links: Vec<DocumentLink>,
}

/// A document turned into the engine's graph, with what callers need to
/// name things and to run CorrOpt on it.
#[derive(Debug, Clone)]
pub struct DocumentFabric {
    /// The switch graph: switch `i` is `switches[i]`, link `j` is `links[j]`
    /// (its lower end the switch on the lower tier, whatever the a/b order).
    pub graph: FabricGraph,
    /// Switch names by index.
    pub switch_names: Vec<String>,
    /// Link names `a:a_port-b:b_port`, as written in the document.
    pub link_names: Vec<String>,
    /// Link index by name, both `a:a_port-b:b_port` and `b:b_port-a:a_port`.
    pub link_ids: HashMap<String, LinkId>,
    /// Per link: `Disabled` if `admin_state` is "disabled", else `Down` if
    /// `oper_state` is "down", else `Enabled`.
    pub link_states: Vec<LinkState>,
    /// The fabric-wide threshold.
    pub capacity: f64,
    /// ToRs with their own threshold, ascending.
    pub overrides: Vec<(SwitchId, f64)>,
}

/// What is wrong with a document, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentError {
    /// Path of the offending value, e.g. `links[3].a`.
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl DocumentError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for DocumentError {}

fn fraction(path: impl Into<String>, value: f64) -> Result<f64, DocumentError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(DocumentError::new(
            path,
            format!("{value} is not a fraction in [0, 1]"),
        ))
    }
}

/// Reads `doc` into a [`DocumentFabric`], or the first problem found.
pub fn read_document(doc: &Document) -> Result<DocumentFabric, DocumentError> {
    if doc.tiers.len() < 2 || doc.tiers.iter().any(String::is_empty) {
        return Err(DocumentError::new(
            "tiers",
            "expected a list of at least 2 tier names",
        ));
    }
    for (i, tier) in doc.tiers.iter().enumerate() {
        if doc.tiers[..i].contains(tier) {
            return Err(DocumentError::new(
                format!("tiers[{i}]"),
                format!("duplicate tier name '{tier}'"),
            ));
        }
    }
    let num_tiers = doc.tiers.len();
    let capacity = match doc.capacity_constraint {
        None => DEFAULT_CAPACITY,
        Some(c) => fraction("capacity_constraint", c)?,
    };

    let mut index_of: HashMap<&str, SwitchId> = HashMap::with_capacity(doc.switches.len());
    let mut switch_tiers = Vec::with_capacity(doc.switches.len());
    let mut overrides = Vec::new();
    for (i, switch) in doc.switches.iter().enumerate() {
        if switch.name.is_empty() {
            return Err(DocumentError::new(
                format!("switches[{i}].name"),
                "expected a non-empty string",
            ));
        }
        let tier = u32::try_from(switch.tier)
            .ok()
            .filter(|&t| (t as usize) < num_tiers)
            .ok_or_else(|| {
                DocumentError::new(
                    format!("switches[{i}].tier"),
                    format!(
                        "{} is not a tier index in 0..{}",
                        switch.tier,
                        num_tiers - 1
                    ),
                )
            })?;
        if let Some(c) = switch.capacity_constraint {
            let c = fraction(format!("switches[{i}].capacity_constraint"), c)?;
            if tier == 0 {
                overrides.push((i as SwitchId, c));
            }
        }
        if index_of.insert(&switch.name, i as SwitchId).is_some() {
            return Err(DocumentError::new(
                format!("switches[{i}].name"),
                format!("duplicate switch name '{}'", switch.name),
            ));
        }
        switch_tiers.push(tier);
    }

    let n = doc.links.len();
    let (mut lower, mut upper) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut link_names = Vec::with_capacity(n);
    let mut link_ids = HashMap::with_capacity(2 * n);
    let mut link_states = Vec::with_capacity(n);
    let mut used_ports: HashMap<(&str, &str), usize> = HashMap::with_capacity(2 * n);
    for (i, link) in doc.links.iter().enumerate() {
        let mut ends = [0; 2];
        for (k, (end, name, port_key, port)) in [
            ("a", &link.a, "a_port", &link.a_port),
            ("b", &link.b, "b_port", &link.b_port),
        ]
        .into_iter()
        .enumerate()
        {
            ends[k] = *index_of.get(name.as_str()).ok_or_else(|| {
                DocumentError::new(
                    format!("links[{i}].{end}"),
                    format!("unknown switch '{name}'"),
                )
            })?;
            if port.is_empty() {
                return Err(DocumentError::new(
                    format!("links[{i}].{port_key}"),
                    "expected a non-empty string",
                ));
            }
            if let Some(previous) = used_ports.insert((name, port), i) {
                return Err(DocumentError::new(
                    format!("links[{i}].{port_key}"),
                    format!("port {name}:{port} is already used by link {previous}"),
                ));
            }
        }
        let [a, b] = ends;
        let (ta, tb) = (switch_tiers[a as usize], switch_tiers[b as usize]);
        if ta.abs_diff(tb) != 1 {
            return Err(DocumentError::new(
                format!("links[{i}]"),
                format!("'{}' and '{}' are not on adjacent tiers", link.a, link.b),
            ));
        }
        let (lo, hi) = if ta < tb { (a, b) } else { (b, a) };
        lower.push(lo);
        upper.push(hi);
        let admin = match link.admin_state.as_deref() {
            None | Some("") | Some("enabled") => false,
            Some("disabled") => true,
            Some(other) => {
                return Err(DocumentError::new(
                    format!("links[{i}].admin_state"),
                    format!("'{other}' is not 'enabled' or 'disabled'"),
                ));
            }
        };
        let down = match link.oper_state.as_deref() {
            None | Some("") | Some("up") => false,
            Some("down") => true,
            Some(other) => {
                return Err(DocumentError::new(
                    format!("links[{i}].oper_state"),
                    format!("'{other}' is not 'up' or 'down'"),
                ));
            }
        };
        link_states.push(if admin {
            LinkState::Disabled
        } else if down {
            LinkState::Down
        } else {
            LinkState::Enabled
        });
        let name = format!("{}:{}-{}:{}", link.a, link.a_port, link.b, link.b_port);
        link_ids.entry(name.clone()).or_insert(i as LinkId);
        link_ids
            .entry(format!(
                "{}:{}-{}:{}",
                link.b, link.b_port, link.a, link.a_port
            ))
            .or_insert(i as LinkId);
        link_names.push(name);
    }
    let graph = FabricGraph::new(num_tiers as u32, switch_tiers, lower, upper)
        .map_err(|err| DocumentError::new("tiers", err.to_string()))?;
    Ok(DocumentFabric {
        graph,
        switch_names: doc.switches.iter().map(|s| s.name.clone()).collect(),
        link_names,
        link_ids,
        link_states,
        capacity,
        overrides,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switch(name: &str, tier: i64) -> DocumentSwitch {
        DocumentSwitch {
            name: name.into(),
            tier,
            capacity_constraint: None,
        }
    }

    fn link(a: &str, a_port: &str, b: &str, b_port: &str) -> DocumentLink {
        DocumentLink {
            a: a.into(),
            a_port: a_port.into(),
            b: b.into(),
            b_port: b_port.into(),
            admin_state: None,
            oper_state: None,
        }
    }

    /// Two ToRs under one spine; the second link written spine first.
    fn doc() -> Document {
        Document {
            tiers: vec!["tor".into(), "spine".into()],
            capacity_constraint: Some(0.5),
            switches: vec![switch("t0", 0), switch("t1", 0), switch("s", 1)],
            links: vec![link("t0", "up", "s", "d0"), link("s", "d1", "t1", "up")],
        }
    }

    #[test]
    fn maps_names_to_indices_lower_end_first() {
        let mut d = doc();
        d.switches[1].capacity_constraint = Some(1.0);
        d.switches[2].capacity_constraint = Some(0.2); // not a ToR: checked, not an override
        d.links[1].admin_state = Some("disabled".into());
        d.links[0].oper_state = Some("down".into());
        let f = read_document(&d).unwrap();
        assert_eq!(f.graph.lower(1), 1);
        assert_eq!(f.graph.upper(1), 2);
        assert_eq!(f.link_names, vec!["t0:up-s:d0", "s:d1-t1:up"]);
        assert_eq!(f.link_ids["t1:up-s:d1"], 1);
        assert_eq!(f.link_ids["s:d1-t1:up"], 1);
        assert_eq!(f.link_states, vec![LinkState::Down, LinkState::Disabled]);
        assert_eq!((f.capacity, f.overrides.clone()), (0.5, vec![(1, 1.0)]));
        d.capacity_constraint = None;
        assert_eq!(read_document(&d).unwrap().capacity, DEFAULT_CAPACITY);
    }

    #[test]
    fn errors_name_the_path() {
        type Change = Box<dyn Fn(&mut Document)>;
        let cases: Vec<(Change, &str)> = vec![
            (
                Box::new(|d| d.tiers.truncate(1)),
                "tiers: expected a list of at least 2 tier names",
            ),
            (
                Box::new(|d| d.tiers[1] = "tor".into()),
                "tiers[1]: duplicate tier name 'tor'",
            ),
            (
                Box::new(|d| d.capacity_constraint = Some(75.0)),
                "capacity_constraint: 75 is not a fraction in [0, 1]",
            ),
            (
                Box::new(|d| d.switches[1].tier = 2),
                "switches[1].tier: 2 is not a tier index in 0..1",
            ),
            (
                Box::new(|d| d.switches[1].name = "t0".into()),
                "switches[1].name: duplicate switch name 't0'",
            ),
            (
                Box::new(|d| d.switches[0].name.clear()),
                "switches[0].name: expected a non-empty string",
            ),
            (
                Box::new(|d| d.switches[0].capacity_constraint = Some(-1.0)),
                "switches[0].capacity_constraint: -1 is not a fraction in [0, 1]",
            ),
            (
                Box::new(|d| d.links[1].b = "x".into()),
                "links[1].b: unknown switch 'x'",
            ),
            (
                Box::new(|d| d.links[1].b = "t0".into()),
                "links[1].b_port: port t0:up is already used by link 0",
            ),
            (
                Box::new(|d| d.links[0].a_port.clear()),
                "links[0].a_port: expected a non-empty string",
            ),
            (
                Box::new(|d| d.links[0].b = "t1".into()),
                "links[0]: 't0' and 't1' are not on adjacent tiers",
            ),
            (
                Box::new(|d| d.links[1].oper_state = Some("flapping".into())),
                "links[1].oper_state: 'flapping' is not 'up' or 'down'",
            ),
            (
                Box::new(|d| d.links[0].admin_state = Some("off".into())),
                "links[0].admin_state: 'off' is not 'enabled' or 'disabled'",
            ),
        ];
        for (change, message) in cases {
            let mut d = doc();
            change(&mut d);
            assert_eq!(read_document(&d).unwrap_err().to_string(), message);
        }
    }
}
