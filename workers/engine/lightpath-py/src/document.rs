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

fn convert(py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<(Document, Option<String>)> {
    let doc = doc
        .cast::<PyDict>()
        .map_err(|_| bad("document", "expected a JSON object"))?;
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
    let tiers: Vec<String> = match get(doc, "tiers")? {
        Some(value) => value
            .cast::<PyList>()
            .map_err(|_| tiers_error())?
            .iter()
            .map(|t| t.extract::<String>().map_err(|_| tiers_error()))
            .collect::<PyResult<_>>()?,
        None => return Err(tiers_error()),
    };
    let num_tiers = tiers.len();
    let capacity_constraint = fraction(doc, "capacity_constraint", "capacity_constraint")?;

    let mut switches = Vec::new();
    for (i, item) in list(doc, "switches")?.iter().enumerate() {
        let path = format!("switches[{i}]");
        let switch = object(item, &path)?;
        let name = string(&switch, "name", &format!("{path}.name"), |_| {
            "expected a non-empty string".into()
        })?
        .unwrap_or_default();
        let tier_path = format!("{path}.tier");
        let tier_error = |value: &str| {
            bad(
                &tier_path,
                format!("{value} is not a tier index in 0..{}", num_tiers.max(1) - 1),
            )
        };
        let tier = match get(&switch, "tier")? {
            None => return Err(tier_error("None")),
            Some(value) if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() => {
                return Err(tier_error(&repr(&value)));
            }
            Some(value) => value
                .extract::<i64>()
                .map_err(|_| tier_error(&repr(&value)))?,
        };
        let capacity_constraint = fraction(
            &switch,
            "capacity_constraint",
            &format!("{path}.capacity_constraint"),
        )?;
        switches.push(DocumentSwitch {
            name,
            tier,
            capacity_constraint,
        });
    }

    let mut rows = list(doc, "links")?;
    if let Some(text) = get(doc, "links_csv")? {
        if !text.is_instance_of::<PyString>() {
            return Err(bad("links_csv", "expected CSV text"));
        }
        rows.extend(csv_rows(py, &text)?);
    }
    let mut links = Vec::with_capacity(rows.len());
    for (i, item) in rows.iter().enumerate() {
        let path = format!("links[{i}]");
        let link = object(item, &path)?;
        let end = |key: &str| {
            string(&link, key, &format!("{path}.{key}"), |v| {
                format!("unknown switch {v}")
            })
            .map(Option::unwrap_or_default)
        };
        let port = |key: &str| {
            string(&link, key, &format!("{path}.{key}"), |_| {
                "expected a non-empty string".into()
            })
            .map(Option::unwrap_or_default)
        };
        let (a, a_port, b, b_port) = (end("a")?, port("a_port")?, end("b")?, port("b_port")?);
        let admin_state = string(&link, "admin_state", &format!("{path}.admin_state"), |v| {
            format!("{v} is not 'enabled' or 'disabled'")
        })?;
        let oper_state = string(&link, "oper_state", &format!("{path}.oper_state"), |v| {
            format!("{v} is not 'up' or 'down'")
        })?;
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
            tiers,
            capacity_constraint,
            switches,
            links,
        },
        name,
    ))
}

/// Reads an interchange document into the engine's graph and the names,
/// states and thresholds callers need; raises `ValueError` naming the path.
#[pyfunction]
pub(crate) fn read_fabric_document<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (document, name) = convert(py, doc)?;
    let fabric = py
        .detach(|| read_document(&document))
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
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
    dict.set_item("tiers", &document.tiers)?;
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
