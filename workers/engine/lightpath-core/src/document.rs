//! The fabric interchange document ("lightpath-fabric/1") as the engine
//! reads it: switches and links by name, turned into a [`FabricGraph`] with
//! the names, link states and capacity thresholds CorrOpt needs.
//!
//! The rules follow the backend's validation (`backend/fabric/services/
//! interchange.py`) for everything that shapes the graph: unique tier and
//! switch names, tiers in range, links between known switches on adjacent
//! tiers, each port used once, states from the allowed values, fractions in
//! `[0, 1]`. Fields the engine does not use (lengths, optics, racks...) are
//! not checked here. Errors name the document path of every problem, like
//! `links[3].a: unknown switch 'x'`. Where the engine needs less than the
//! backend's import, the document may give less: without `tiers`, the tiers
//! follow from the switches' tier indices; without ports, a link is named by
//! its switches (offline CorrOpt never uses ports).
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
/// Tiers inferred from switch tier indices at most (a Clos fabric has a
/// handful; a larger index is more likely a typo than a fabric).
const MAX_INFERRED_TIERS: i64 = 64;

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
    /// Port on switch A; `None` when the document gives none (offline
    /// CorrOpt never uses ports; a link is then named `a-b`).
    pub a_port: Option<String>,
    /// Switch name of end B.
    pub b: String,
    /// Port on switch B, as `a_port`.
    pub b_port: Option<String>,
    /// `admin_state`: "enabled" (default) or "disabled".
    pub admin_state: Option<String>,
    /// `oper_state`: "up" (default) or "down".
    pub oper_state: Option<String>,
}

impl DocumentLink {
    /// `switch:port` of an end, or the switch alone when it has no port.
    fn end_name(switch: &str, port: Option<&String>) -> String {
        match port {
            Some(port) => format!("{switch}:{port}"),
            None => switch.to_owned(),
        }
    }

    /// The link's name as written (`a:a_port-b:b_port`, or `a-b` without
    /// ports), and the same with its ends swapped.
    pub fn names(&self) -> (String, String) {
        let a = Self::end_name(&self.a, self.a_port.as_ref());
        let b = Self::end_name(&self.b, self.b_port.as_ref());
        (format!("{a}-{b}"), format!("{b}-{a}"))
    }
}

/// The parts of an interchange document the engine reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// `tiers`: tier names, bottom-up. Empty when the document gives none:
    /// the tiers then follow from the switches' tier indices (`tier0`,
    /// `tier1`, ... up to the highest index used).
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
    /// Tier names, bottom-up: the document's, or the inferred `tierN`.
    pub tiers: Vec<String>,
    /// Switch names by index.
    pub switch_names: Vec<String>,
    /// Link names `a:a_port-b:b_port` (`a-b` without ports), as written.
    pub link_names: Vec<String>,
    /// Link index by name, both `a:a_port-b:b_port` and `b:b_port-a:a_port`
    /// (the first link of a name wins: port-less parallel links share one).
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

/// Every problem of a document, in document order (at least one).
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentErrors(pub Vec<DocumentError>);

impl fmt::Display for DocumentErrors {
    /// The problems joined by `; `, as one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DocumentErrors {}

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

/// The tier names: the document's, checked, or (none given) `tier0..tierN`
/// up to the highest tier index a switch uses. `None` when they are unusable.
fn tier_names(doc: &Document, errors: &mut Vec<DocumentError>) -> Option<Vec<String>> {
    if doc.tiers.is_empty() {
        let highest = doc.switches.iter().map(|s| s.tier).max().unwrap_or(0);
        if highest < 1 {
            errors.push(DocumentError::new(
                "tiers",
                "not given, and the switches' tier indices span fewer than 2 tiers",
            ));
            return None;
        }
        if highest >= MAX_INFERRED_TIERS {
            errors.push(DocumentError::new(
                "tiers",
                format!(
                    "not given, and a switch's tier index is {highest}: give the tier names for more than {MAX_INFERRED_TIERS} tiers"
                ),
            ));
            return None;
        }
        let count = usize::try_from(highest).ok()? + 1;
        return Some((0..count).map(|t| format!("tier{t}")).collect());
    }
    if doc.tiers.len() < 2 || doc.tiers.iter().any(String::is_empty) {
        errors.push(DocumentError::new(
            "tiers",
            "expected a list of at least 2 tier names",
        ));
        return None;
    }
    let before = errors.len();
    for (i, tier) in doc.tiers.iter().enumerate() {
        if doc.tiers[..i].contains(tier) {
            errors.push(DocumentError::new(
                format!("tiers[{i}]"),
                format!("duplicate tier name '{tier}'"),
            ));
        }
    }
    (errors.len() == before).then(|| doc.tiers.clone())
}

/// Reads `doc` into a [`DocumentFabric`], or every problem found. A value
/// already found bad does not cause more problems further on (a link to a
/// switch whose tier is bad is not checked for adjacency).
pub fn read_document(doc: &Document) -> Result<DocumentFabric, DocumentErrors> {
    let mut errors = Vec::new();
    let tiers = tier_names(doc, &mut errors);
    let num_tiers = tiers.as_ref().map(Vec::len);
    let capacity = match doc.capacity_constraint {
        None => DEFAULT_CAPACITY,
        Some(c) => fraction("capacity_constraint", c).unwrap_or_else(|e| {
            errors.push(e);
            DEFAULT_CAPACITY
        }),
    };

    let mut index_of: HashMap<&str, SwitchId> = HashMap::with_capacity(doc.switches.len());
    // A switch's tier, None when it is not a valid index.
    let mut switch_tiers: Vec<Option<u32>> = Vec::with_capacity(doc.switches.len());
    let mut overrides = Vec::new();
    for (i, switch) in doc.switches.iter().enumerate() {
        if switch.name.is_empty() {
            errors.push(DocumentError::new(
                format!("switches[{i}].name"),
                "expected a non-empty string",
            ));
        }
        let tier = u32::try_from(switch.tier)
            .ok()
            .filter(|&t| num_tiers.is_none_or(|n| (t as usize) < n));
        if tier.is_none() {
            let range = match num_tiers {
                Some(n) => format!("0..{}", n - 1),
                None => "0..".to_owned(),
            };
            errors.push(DocumentError::new(
                format!("switches[{i}].tier"),
                format!("{} is not a tier index in {range}", switch.tier),
            ));
        }
        if let Some(c) = switch.capacity_constraint {
            match fraction(format!("switches[{i}].capacity_constraint"), c) {
                Ok(c) if tier == Some(0) => overrides.push((i as SwitchId, c)),
                Ok(_) => {}
                Err(e) => errors.push(e),
            }
        }
        if !switch.name.is_empty() && index_of.insert(&switch.name, i as SwitchId).is_some() {
            errors.push(DocumentError::new(
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
        let mut ends = [None; 2];
        for (k, (end, name, port_key, port)) in [
            ("a", &link.a, "a_port", &link.a_port),
            ("b", &link.b, "b_port", &link.b_port),
        ]
        .into_iter()
        .enumerate()
        {
            ends[k] = index_of.get(name.as_str()).copied();
            if ends[k].is_none() {
                errors.push(DocumentError::new(
                    format!("links[{i}].{end}"),
                    format!("unknown switch '{name}'"),
                ));
            }
            match port.as_deref() {
                None => {}
                Some("") => errors.push(DocumentError::new(
                    format!("links[{i}].{port_key}"),
                    "expected a non-empty string",
                )),
                Some(port) => {
                    if let Some(previous) = used_ports.insert((name, port), i) {
                        errors.push(DocumentError::new(
                            format!("links[{i}].{port_key}"),
                            format!("port {name}:{port} is already used by link {previous}"),
                        ));
                    }
                }
            }
        }
        if let [Some(a), Some(b)] = ends
            && let (Some(ta), Some(tb)) = (switch_tiers[a as usize], switch_tiers[b as usize])
        {
            if ta.abs_diff(tb) == 1 {
                let (lo, hi) = if ta < tb { (a, b) } else { (b, a) };
                lower.push(lo);
                upper.push(hi);
            } else {
                errors.push(DocumentError::new(
                    format!("links[{i}]"),
                    format!("'{}' and '{}' are not on adjacent tiers", link.a, link.b),
                ));
            }
        }
        let admin = match link.admin_state.as_deref() {
            None | Some("") | Some("enabled") => false,
            Some("disabled") => true,
            Some(other) => {
                errors.push(DocumentError::new(
                    format!("links[{i}].admin_state"),
                    format!("'{other}' is not 'enabled' or 'disabled'"),
                ));
                false
            }
        };
        let down = match link.oper_state.as_deref() {
            None | Some("") | Some("up") => false,
            Some("down") => true,
            Some(other) => {
                errors.push(DocumentError::new(
                    format!("links[{i}].oper_state"),
                    format!("'{other}' is not 'up' or 'down'"),
                ));
                false
            }
        };
        link_states.push(if admin {
            LinkState::Disabled
        } else if down {
            LinkState::Down
        } else {
            LinkState::Enabled
        });
        let (name, reversed) = link.names();
        link_ids.entry(name.clone()).or_insert(i as LinkId);
        link_ids.entry(reversed).or_insert(i as LinkId);
        link_names.push(name);
    }
    let (Some(tiers), true) = (tiers, errors.is_empty()) else {
        return Err(DocumentErrors(errors));
    };
    let switch_tiers = switch_tiers
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect();
    let graph = FabricGraph::new(tiers.len() as u32, switch_tiers, lower, upper)
        .map_err(|err| DocumentErrors(vec![DocumentError::new("tiers", err.to_string())]))?;
    Ok(DocumentFabric {
        graph,
        tiers,
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
            a_port: Some(a_port.into()),
            b: b.into(),
            b_port: Some(b_port.into()),
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
                // t1 is gone, so the link to it names an unknown switch too.
                "switches[1].name: duplicate switch name 't0'; links[1].b: unknown switch 't1'",
            ),
            (
                Box::new(|d| d.switches[0].name.clear()),
                "switches[0].name: expected a non-empty string; links[0].a: unknown switch 't0'",
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
                Box::new(|d| d.links[0].a_port = Some(String::new())),
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

    #[test]
    fn tiers_follow_from_the_switches_when_not_given() {
        let mut d = doc();
        d.tiers.clear();
        let f = read_document(&d).unwrap();
        assert_eq!(f.tiers, vec!["tier0", "tier1"]);
        assert_eq!(f.graph.num_tiers(), 2);
        d.switches[2].tier = 0;
        d.links.clear();
        assert_eq!(
            read_document(&d).unwrap_err().to_string(),
            "tiers: not given, and the switches' tier indices span fewer than 2 tiers"
        );
        d.switches[2].tier = 64;
        assert!(
            read_document(&d)
                .unwrap_err()
                .to_string()
                .starts_with("tiers: not given, and a switch's tier index is 64")
        );
    }

    #[test]
    fn links_without_ports_are_named_by_their_switches() {
        let mut d = doc();
        for link in &mut d.links {
            (link.a_port, link.b_port) = (None, None);
        }
        let f = read_document(&d).unwrap();
        assert_eq!(f.link_names, vec!["t0-s", "s-t1"]);
        assert_eq!(f.link_ids["t1-s"], 1);
        assert_eq!(f.graph.lower(1), 1);
    }

    #[test]
    fn every_problem_is_listed_in_document_order() {
        let mut d = doc();
        d.capacity_constraint = Some(2.0);
        d.switches[1].tier = 5;
        d.links[0].b = "x".into();
        d.links[1].oper_state = Some("sideways".into());
        let errors = read_document(&d).unwrap_err();
        assert_eq!(
            errors.to_string(),
            "capacity_constraint: 2 is not a fraction in [0, 1]; \
             switches[1].tier: 5 is not a tier index in 0..1; \
             links[0].b: unknown switch 'x'; \
             links[1].oper_state: 'sideways' is not 'up' or 'down'"
        );
        // The link to the switch with a bad tier is not also "not adjacent".
        assert_eq!(errors.0.len(), 4);
    }
}
