//! `read_fabric_document`: the interchange document ("lightpath-fabric/1", a
//! dict as `json.load` gives it) to the engine's graph and names. This module
//! only converts the JSON values to `lightpath_core::document::Document`,
//! naming the path of a value of the wrong type; the rules live in the core.

use std::sync::Arc;

use lightpath_core::corropt::LinkState;
use lightpath_core::document::{Document, DocumentLink, DocumentSwitch, FORMAT, read_document};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

use crate::FabricGraph;

fn bad(path: impl AsRef<str>, message: impl AsRef<str>) -> PyErr {
    PyValueError::new_err(format!("{}: {}", path.as_ref(), message.as_ref()))
}

fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string())
}

/// `dict[key]`, treating a missing key and None alike.
fn get<'py>(dict: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(dict.get_item(key)?.filter(|v| !v.is_none()))
}

fn object<'py>(value: &Bound<'py, PyAny>, path: &str) -> PyResult<Bound<'py, PyDict>> {
    value
        .cast::<PyDict>()
        .cloned()
        .map_err(|_| bad(path, "expected an object"))
}

fn list<'py>(doc: &Bound<'py, PyDict>, key: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    match get(doc, key)? {
        None => Ok(Vec::new()),
        Some(value) => match value.cast::<PyList>() {
            Ok(items) => Ok(items.iter().collect()),
            Err(_) => Err(bad(key, "expected a list")),
        },
    }
}

/// A JSON number (not a bool) as f64; `message(repr)` otherwise.
fn number(value: &Bound<'_, PyAny>) -> Option<f64> {
    if value.is_instance_of::<PyBool>()
        || !(value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>())
    {
        return None;
    }
    value.extract::<f64>().ok()
}

fn fraction(dict: &Bound<'_, PyDict>, key: &str, path: &str) -> PyResult<Option<f64>> {
    match get(dict, key)? {
        None => Ok(None),
        Some(value) => number(&value).map(Some).ok_or_else(|| {
            bad(
                path,
                format!("{} is not a fraction in [0, 1]", repr(&value)),
            )
        }),
    }
}

/// A string field; `None` if absent, None or not a string (`Err` then, with
/// `message(repr)`).
fn string(
    dict: &Bound<'_, PyDict>,
    key: &str,
    path: &str,
    message: impl Fn(&str) -> String,
) -> PyResult<Option<String>> {
    match get(dict, key)? {
        None => Ok(None),
        Some(value) => match value.cast::<PyString>() {
            Ok(s) => Ok(Some(s.to_str()?.to_owned())),
            Err(_) => Err(bad(path, message(&repr(&value)))),
        },
    }
}

/// The rows of `links_csv` as dicts of strings (empty cells left out), read
/// with Python's `csv` module as the backend's import does.
fn csv_rows<'py>(py: Python<'py>, text: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let io = py.import("io")?;
    let csv = py.import("csv")?;
    let reader = csv.call_method1("DictReader", (io.call_method1("StringIO", (text,))?,))?;
    let mut rows = Vec::new();
    for row in reader.try_iter()? {
        let row = row?;
        let clean = PyDict::new(py);
        for item in row.cast::<PyDict>()?.iter() {
            let (key, value) = item;
            if key.is_none()
                || value.is_none()
                || value
                    .cast::<PyString>()
                    .is_ok_and(|s| s.is_empty().unwrap_or(false))
            {
                continue;
            }
            clean.set_item(key, value)?;
        }
        rows.push(clean.into_any());
    }
    Ok(rows)
}

/// The document's problems of type (a value that is not what its field
/// holds), collected so that one reading lists them all.
struct Problems<'py> {
    py: Python<'py>,
    messages: Vec<String>,
    /// Paths (`switches[2]`, `links[0]`) whose entry had a problem of type:
    /// what the core then says about them would only repeat it.
    tainted: Vec<String>,
}

impl Problems<'_> {
    /// The value, or `default` with the problem noted against `entry`.
    fn keep<T>(&mut self, entry: &str, result: PyResult<T>, default: T) -> T {
        result.unwrap_or_else(|err| {
            self.messages.push(err.value(self.py).to_string());
            self.tainted.push(entry.to_owned());
            default
        })
    }

    /// Whether the core's error at `path` is about an entry already reported.
    fn covers(&self, path: &str) -> bool {
        self.tainted.iter().any(|entry| {
            path.strip_prefix(entry.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    }
}

/// The document as the core reads it, or every problem of type found.
fn convert<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
) -> PyResult<(Document, Option<String>, Problems<'py>)> {
    let doc = doc
        .cast::<PyDict>()
        .map_err(|_| bad("document", "expected a JSON object"))?;
    let mut problems = Problems {
        py,
        messages: Vec::new(),
        tainted: Vec::new(),
    };
    if let Some(format) = get(doc, "format")?
        && !format
            .cast::<PyString>()
            .is_ok_and(|f| f.to_str().is_ok_and(|f| f == FORMAT))
    {
        return Err(bad(
            "format",
            format!("unsupported format {}; expected '{FORMAT}'", repr(&format)),
        ));
    }
    let name = match get(doc, "name")? {
        Some(value) => value.cast::<PyString>().ok().map(|s| s.to_string()),
        None => None,
    };
    let tiers_error = || bad("tiers", "expected a list of at least 2 tier names");
    // Absent: the core infers the tiers from the switches.
    let tiers: Option<Vec<String>> = match get(doc, "tiers")? {
        Some(value) => {
            let read = value
                .cast::<PyList>()
                .map_err(|_| tiers_error())
                .and_then(|items| {
                    items
                        .iter()
                        .map(|t| t.extract::<String>().map_err(|_| tiers_error()))
                        .collect::<PyResult<Vec<String>>>()
                });
            // A given list that is too short is refused by the core, not inferred.
            match read {
                Ok(tiers) if tiers.is_empty() => problems.keep("tiers", Err(tiers_error()), None),
                read => problems.keep("tiers", read.map(Some), None),
            }
        }
        None => Some(Vec::new()),
    };
    let tier_range = match &tiers {
        Some(t) if t.len() >= 2 => format!("0..{}", t.len() - 1),
        _ => "0..".to_owned(),
    };
    let capacity_constraint = problems.keep(
        "capacity_constraint",
        fraction(doc, "capacity_constraint", "capacity_constraint"),
        None,
    );

    let mut switches = Vec::new();
    let switch_items = problems.keep("switches", list(doc, "switches"), Vec::new());
    for (i, item) in switch_items.iter().enumerate() {
        let path = format!("switches[{i}]");
        // An entry that is no object still holds its index, as a switch the
        // core says nothing more about.
        let Some(switch) = problems.keep(&path, object(item, &path).map(Some), None) else {
            switches.push(DocumentSwitch {
                name: format!("\u{0}{i}"),
                tier: -1,
                capacity_constraint: None,
            });
            continue;
        };
        let name_path = format!("{path}.name");
        let name = problems.keep(
            &path,
            string(&switch, "name", &name_path, |_| {
                "expected a non-empty string".into()
            })
            .map(Option::unwrap_or_default),
            format!("\u{0}{i}"),
        );
        let tier_path = format!("{path}.tier");
        let tier_error = |value: &str| {
            bad(
                &tier_path,
                format!("{value} is not a tier index in {tier_range}"),
            )
        };
        let tier = match get(&switch, "tier")? {
            None => Err(tier_error("None")),
            Some(value) if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() => {
                Err(tier_error(&repr(&value)))
            }
            Some(value) => value
                .extract::<i64>()
                .map_err(|_| tier_error(&repr(&value))),
        };
        // A bad tier becomes -1: the core then leaves the switch's links
        // out of the adjacency check instead of reporting them too.
        let tier = problems.keep(&path, tier, -1);
        let capacity_constraint = problems.keep(
            &path,
            fraction(
                &switch,
                "capacity_constraint",
                &format!("{path}.capacity_constraint"),
            ),
            None,
        );
        switches.push(DocumentSwitch {
            name,
            tier,
            capacity_constraint,
        });
    }

    let mut rows = problems.keep("links", list(doc, "links"), Vec::new());
    if let Some(text) = get(doc, "links_csv")? {
        if text.is_instance_of::<PyString>() {
            rows.extend(csv_rows(py, &text)?);
        } else {
            problems.keep("links_csv", Err(bad("links_csv", "expected CSV text")), ());
        }
    }
    let mut links = Vec::with_capacity(rows.len());
    for (i, item) in rows.iter().enumerate() {
        let path = format!("links[{i}]");
        // A link with a value of the wrong type keeps its index (the core's
        // messages about it are dropped: they would repeat the problem).
        let link = problems.keep(&path, object(item, &path), PyDict::new(py));
        let mut field = |key: &str, message: &dyn Fn(&str) -> String| {
            problems.keep(
                &path,
                string(&link, key, &format!("{path}.{key}"), message),
                None,
            )
        };
        let unknown = |v: &str| format!("unknown switch {v}");
        let not_empty = |_: &str| "expected a non-empty string".to_owned();
        let a = field("a", &unknown).unwrap_or_default();
        let a_port = field("a_port", &not_empty);
        let b = field("b", &unknown).unwrap_or_default();
        let b_port = field("b_port", &not_empty);
        let admin_state = field("admin_state", &|v| {
            format!("{v} is not 'enabled' or 'disabled'")
        });
        let oper_state = field("oper_state", &|v| format!("{v} is not 'up' or 'down'"));
        links.push(DocumentLink {
            a,
            a_port,
            b,
            b_port,
            admin_state,
            oper_state,
        });
    }
    Ok((
        Document {
            tiers: tiers.unwrap_or_default(),
            capacity_constraint,
            switches,
            links,
        },
        name,
        problems,
    ))
}

/// Where a problem's path (`links[3].a: ...`) sits in the document: its
/// section in the order the document is read, then the entry's index.
fn document_position(message: &str) -> (usize, usize) {
    let path = message.split(':').next().unwrap_or_default();
    let section = path.split(['[', '.']).next().unwrap_or_default();
    let rank = [
        "format",
        "tiers",
        "capacity_constraint",
        "switches",
        "links",
        "links_csv",
    ]
    .iter()
    .position(|s| *s == section)
    .unwrap_or(0);
    let index = path
        .split_once('[')
        .and_then(|(_, rest)| rest.split(']').next())
        .and_then(|i| i.parse().ok())
        .unwrap_or(0);
    (rank, index)
}

/// Reads an interchange document into the engine's graph and the names,
/// states and thresholds callers need; raises `ValueError` naming the path.
#[pyfunction]
pub(crate) fn read_fabric_document<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (document, name, problems) = convert(py, doc)?;
    let read = py.detach(|| read_document(&document));
    // Problems of type first, then the core's about the values that had
    // the right type (a value of the wrong type was left out or defaulted).
    let fabric = match (read, problems.messages.is_empty()) {
        (Ok(fabric), true) => fabric,
        (read, _) => {
            let mut all = problems.messages.clone();
            if let Err(errors) = read {
                all.extend(
                    errors
                        .0
                        .iter()
                        .filter(|e| !problems.covers(&e.path))
                        .map(ToString::to_string),
                );
            }
            // Stable: within one entry, the order each reading found them in.
            all.sort_by_key(|message| document_position(message));
            return Err(PyValueError::new_err(all.join("; ")));
        }
    };
    let dict = PyDict::new(py);
    let graph = &fabric.graph;
    let switch_tiers = graph.switch_tiers().to_vec();
    let (lower, upper): (Vec<u32>, Vec<u32>) = (0..graph.num_links() as u32)
        .map(|l| (graph.lower(l), graph.upper(l)))
        .unzip();
    let states: Vec<&str> = fabric
        .link_states
        .iter()
        .map(|s| match s {
            LinkState::Enabled => "enabled",
            LinkState::Disabled => "disabled",
            LinkState::Down => "down",
        })
        .collect();
    dict.set_item("name", name)?;
    dict.set_item("tiers", &fabric.tiers)?;
    dict.set_item("switch_names", &fabric.switch_names)?;
    dict.set_item("switch_tiers", switch_tiers)?;
    dict.set_item("link_lower", lower)?;
    dict.set_item("link_upper", upper)?;
    dict.set_item("link_names", &fabric.link_names)?;
    dict.set_item("link_ids", &fabric.link_ids)?;
    dict.set_item("link_states", states)?;
    dict.set_item("capacity", fabric.capacity)?;
    let overrides = PyDict::new(py);
    for (tor, fraction) in &fabric.overrides {
        overrides.set_item(tor, fraction)?;
    }
    dict.set_item("overrides", overrides)?;
    dict.set_item(
        "graph",
        FabricGraph {
            inner: Arc::new(fabric.graph),
        },
    )?;
    Ok(dict)
}
