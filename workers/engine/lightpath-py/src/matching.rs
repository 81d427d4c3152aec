//! Python bindings of `lightpath_core::matching`: maximum-weight matching,
//! one slot's circuits, schedules over a demand series, their verification
//! and edge groups. Inputs are lists of tuples, outputs plain dicts; invalid
//! input raises `ValueError` listing every problem, joined by "; ".

use lightpath_core::matching::groups::{EdgeGroup, match_with_groups};
use lightpath_core::matching::slot::Circuit;
use lightpath_core::matching::{
    Algorithm, MatchingError, Schedule, ScheduleOptions, Slot, Window, check_edges,
    checked_matching, choose_slot, plan_reporting, verify,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

fn matching_error(err: MatchingError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// Maximum-weight matching (Edmonds' blossom algorithm): for each vertex its
/// partner or None. Weights are non-negative integers.
#[pyfunction]
pub(crate) fn max_weight_matching(
    py: Python<'_>,
    num_vertices: usize,
    edges: Vec<(u32, u32, i64)>,
) -> PyResult<Vec<Option<u32>>> {
    py.detach(|| checked_matching(num_vertices, &edges))
        .map_err(matching_error)
}

fn circuits_list<'py>(py: Python<'py>, circuits: &[Circuit]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for c in circuits {
        let d = PyDict::new(py);
        d.set_item("a", c.a)?;
        d.set_item("b", c.b)?;
        d.set_item("count", c.count)?;
        list.append(d)?;
    }
    Ok(list)
}

/// One slot's circuits for pair weights `(a, b, weight)` and `ports` per
/// rack: {"circuits", "weight", "bound", "gap", "exact", "maximal"}. A pair
/// can take min(k_a, k_b) parallel circuits, each worth the pair's weight.
#[pyfunction]
#[pyo3(signature = (ports, pairs, algorithm="exact", seed=0, zones=None, slot_index=0))]
pub(crate) fn circuit_slot<'py>(
    py: Python<'py>,
    ports: Vec<u32>,
    pairs: Vec<(u32, u32, i64)>,
    algorithm: &str,
    seed: u64,
    zones: Option<Vec<u32>>,
    slot_index: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let choice = py
        .detach(|| choose_slot(&ports, &pairs, algorithm, seed, zones, slot_index))
        .map_err(matching_error)?;
    let d = PyDict::new(py);
    d.set_item("circuits", circuits_list(py, &choice.circuits)?)?;
    d.set_item("weight", choice.weight)?;
    d.set_item("bound", choice.bound)?;
    d.set_item("gap", choice.gap)?;
    d.set_item("exact", choice.exact)?;
    d.set_item("maximal", choice.maximal)?;
    Ok(d)
}

/// An edge group as Python gives it: (rack pairs, bonus bytes).
type GroupInput = (Vec<(u32, u32)>, i64);

fn edge_groups(groups: Option<Vec<GroupInput>>) -> Vec<EdgeGroup> {
    groups
        .unwrap_or_default()
        .into_iter()
        .map(|(pairs, bonus)| EdgeGroup { pairs, bonus })
        .collect()
}

fn slot_dict<'py>(py: Python<'py>, s: &Slot) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("index", s.index)?;
    d.set_item("t0", s.t0)?;
    d.set_item("t1", s.t1)?;
    d.set_item("circuits", circuits_list(py, &s.circuits)?)?;
    d.set_item("changed_ports", &s.changed_ports)?;
    d.set_item("weight", s.weight)?;
    d.set_item("bound", s.bound)?;
    d.set_item("offloaded_bytes", s.offloaded_bytes)?;
    d.set_item("algorithm", s.algorithm.name())?;
    d.set_item("exact", s.exact)?;
    d.set_item("maximal", s.maximal)?;
    d.set_item("completed_groups", &s.completed_groups)?;
    d.set_item("bonus", s.bonus)?;
    Ok(d)
}

fn schedule_dict<'py>(py: Python<'py>, schedule: &Schedule) -> PyResult<Bound<'py, PyDict>> {
    let slots = PyList::empty(py);
    for s in &schedule.slots {
        slots.append(slot_dict(py, s)?)?;
    }
    let m = &schedule.metrics;
    let metrics = PyDict::new(py);
    metrics.set_item("total_bytes", m.total_bytes)?;
    metrics.set_item("offloaded_bytes", m.offloaded_bytes)?;
    metrics.set_item("optical_ratio", m.optical_ratio)?;
    metrics.set_item("uniform_ratio", m.uniform_ratio)?;
    metrics.set_item("visit_delay_max_slots", m.visit_delay_max_slots)?;
    metrics.set_item("visit_delay_p95_slots", m.visit_delay_p95_slots)?;
    let histogram = PyList::empty(py);
    for bin in &m.visit_delay_histogram {
        let b = PyDict::new(py);
        b.set_item("min_slots", bin.min_slots)?;
        b.set_item("max_slots", bin.max_slots)?;
        b.set_item("min_s", bin.min_s)?;
        b.set_item("max_s", bin.max_s)?;
        b.set_item("pairs", bin.pairs)?;
        histogram.append(b)?;
    }
    metrics.set_item("visit_delay_histogram", histogram)?;
    metrics.set_item("flap_count", m.flap_count)?;
    metrics.set_item("weight", m.weight)?;
    metrics.set_item("bonus", m.bonus)?;
    metrics.set_item("groups_completed", m.groups_completed)?;
    metrics.set_item("bound", m.bound)?;
    metrics.set_item("gap", m.gap)?;
    metrics.set_item("fallback_slots", m.fallback_slots)?;
    metrics.set_item("runtime_s", m.runtime_s)?;
    let d = PyDict::new(py);
    d.set_item("slots", slots)?;
    d.set_item("metrics", metrics)?;
    Ok(d)
}

/// A circuit schedule over `windows` (each a list of (src, dst, bytes)):
/// {"slots": [...], "metrics": {...}}. `progress`, if given, is called with
/// the number of slots planned after every `progress_every` slots (briefly
/// taking the GIL); an exception it raises stops the plan and is raised.
#[pyfunction]
#[pyo3(signature = (
    ports, windows, *, zones=None, capacity_bytes_per_s=1.25e9, period_s=1.0,
    dark_time_s=0.01, reconfig="per_port", mode="replay", algorithm="exact", seed=0,
    min_demand_bytes=1_000_000, burst_active=1, burst_reset=1, hysteresis=0.0,
    time_budget_s=None, max_slots=100_000, groups=None, progress=None, progress_every=100
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn circuit_plan<'py>(
    py: Python<'py>,
    ports: Vec<u32>,
    windows: Vec<Window>,
    zones: Option<Vec<u32>>,
    capacity_bytes_per_s: f64,
    period_s: f64,
    dark_time_s: f64,
    reconfig: &str,
    mode: &str,
    algorithm: &str,
    seed: u64,
    min_demand_bytes: u64,
    burst_active: u32,
    burst_reset: u32,
    hysteresis: f64,
    time_budget_s: Option<f64>,
    max_slots: usize,
    groups: Option<Vec<GroupInput>>,
    progress: Option<Py<PyAny>>,
    progress_every: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let config = ScheduleOptions {
        zones,
        capacity_bytes_per_s,
        period_s,
        dark_time_s,
        reconfig,
        mode,
        algorithm,
        seed,
        min_demand_bytes,
        burst_active,
        burst_reset,
        hysteresis,
        time_budget_s,
        max_slots,
        groups: edge_groups(groups),
    }
    .config(ports, &windows)
    .map_err(matching_error)?;
    if let Some(callback) = &progress
        && !callback.bind(py).is_callable()
    {
        return Err(PyValueError::new_err(
            "progress must be a callable taking the number of slots planned",
        ));
    }
    let every = progress_every.max(1);
    let mut callback_error: Option<PyErr> = None;
    let planned = py
        .detach(|| {
            plan_reporting(&config, &windows, &mut |done| {
                let Some(callback) = &progress else {
                    return true;
                };
                if done % every != 0 {
                    return true;
                }
                Python::attach(|py| match callback.call1(py, (done,)) {
                    Ok(_) => true,
                    Err(err) => {
                        callback_error = Some(err);
                        false
                    }
                })
            })
        })
        .map_err(matching_error)?;
    if let Some(err) = callback_error {
        return Err(err);
    }
    let schedule =
        planned.ok_or_else(|| PyRuntimeError::new_err("the plan stopped without a reason"))?;
    schedule_dict(py, &schedule)
}

/// `d[key]` as a `T`, or None when it is missing or of another type.
fn optional_field<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> Option<T> {
    d.get_item(key)
        .ok()
        .flatten()
        .and_then(|v| v.extract::<T>().ok())
}

fn slot_from(i: usize, item: &Bound<'_, PyAny>, problems: &mut Vec<String>) -> Option<Slot> {
    let at = format!("slots[{i}]");
    let Ok(d) = item.cast::<PyDict>() else {
        problems.push(format!("{at}: expected an object"));
        return None;
    };
    let mut missing = Vec::new();
    macro_rules! field {
        ($key:literal, $ty:ty) => {
            match d
                .get_item($key)
                .ok()
                .flatten()
                .and_then(|v| v.extract::<$ty>().ok())
            {
                Some(v) => Some(v),
                None => {
                    missing.push($key);
                    None
                }
            }
        };
    }
    let index = field!("index", usize);
    let t0 = field!("t0", f64);
    let t1 = field!("t1", f64);
    let changed_ports = field!("changed_ports", Vec<u32>);
    let weight = field!("weight", i64);
    let bound = field!("bound", i64);
    let offloaded = field!("offloaded_bytes", u64);
    let algorithm = field!("algorithm", String);
    let exact = field!("exact", bool);
    let maximal = field!("maximal", bool);
    let mut circuits = Vec::new();
    match d
        .get_item("circuits")
        .ok()
        .flatten()
        .and_then(|v| v.cast_into::<PyList>().ok())
    {
        Some(list) => {
            for (j, c) in list.iter().enumerate() {
                let parsed = c.cast::<PyDict>().ok().and_then(|c| {
                    let get = |k: &str| c.get_item(k).ok().flatten()?.extract::<u32>().ok();
                    Some(Circuit {
                        a: get("a")?,
                        b: get("b")?,
                        count: get("count")?,
                    })
                });
                match parsed {
                    Some(c) => circuits.push(c),
                    None => problems.push(format!(
                        "{at}.circuits[{j}]: expected {{a, b, count}} with non-negative integers"
                    )),
                }
            }
        }
        None => missing.push("circuits"),
    }
    if !missing.is_empty() {
        problems.push(format!("{at}: missing or invalid {}", missing.join(", ")));
        return None;
    }
    let algorithm_name = algorithm?;
    let Some(algorithm) = Algorithm::parse(&algorithm_name) else {
        problems.push(format!("{at}: unknown algorithm {algorithm_name:?}"));
        return None;
    };
    Some(Slot {
        index: index?,
        t0: t0?,
        t1: t1?,
        circuits,
        changed_ports: changed_ports?,
        weight: weight?,
        bound: bound?,
        offloaded_bytes: offloaded?,
        algorithm,
        exact: exact?,
        maximal: maximal?,
        // Schedules stored before edge-group bonuses were reported lack them.
        completed_groups: optional_field(d, "completed_groups").unwrap_or_default(),
        bonus: optional_field(d, "bonus").unwrap_or_default(),
    })
}

/// Every violation of a schedule's `slots` (as returned by `circuit_plan`)
/// against its inputs, one line each; empty when it holds.
#[pyfunction]
#[pyo3(signature = (
    ports, windows, slots, *, zones=None, capacity_bytes_per_s=1.25e9, period_s=1.0,
    dark_time_s=0.01, reconfig="per_port", mode="replay", algorithm="exact", seed=0,
    min_demand_bytes=1_000_000, burst_active=1, burst_reset=1, hysteresis=0.0,
    time_budget_s=None, max_slots=100_000, groups=None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn circuit_verify(
    py: Python<'_>,
    ports: Vec<u32>,
    windows: Vec<Window>,
    slots: Vec<Bound<'_, PyAny>>,
    zones: Option<Vec<u32>>,
    capacity_bytes_per_s: f64,
    period_s: f64,
    dark_time_s: f64,
    reconfig: &str,
    mode: &str,
    algorithm: &str,
    seed: u64,
    min_demand_bytes: u64,
    burst_active: u32,
    burst_reset: u32,
    hysteresis: f64,
    time_budget_s: Option<f64>,
    max_slots: usize,
    groups: Option<Vec<GroupInput>>,
) -> PyResult<Vec<String>> {
    let config = ScheduleOptions {
        zones,
        capacity_bytes_per_s,
        period_s,
        dark_time_s,
        reconfig,
        mode,
        algorithm,
        seed,
        min_demand_bytes,
        burst_active,
        burst_reset,
        hysteresis,
        time_budget_s,
        max_slots,
        groups: edge_groups(groups),
    }
    .config(ports, &windows)
    .map_err(matching_error)?;
    let mut problems = Vec::new();
    let parsed: Vec<Slot> = slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| slot_from(i, s, &mut problems))
        .collect();
    MatchingError::check(problems).map_err(matching_error)?;
    py.detach(|| verify(&config, &windows, &parsed))
        .map_err(matching_error)
}

/// Best matching with edge groups (`groups`: (pairs, bonus)): {"circuits",
/// "weight", "completed", "exact"}; exact up to 12 groups.
#[pyfunction]
pub(crate) fn circuit_groups<'py>(
    py: Python<'py>,
    num_racks: usize,
    edges: Vec<(u32, u32, i64)>,
    groups: Vec<(Vec<(u32, u32)>, i64)>,
) -> PyResult<Bound<'py, PyDict>> {
    check_edges(num_racks, &edges).map_err(matching_error)?;
    let groups = edge_groups(Some(groups));
    let best = py.detach(|| match_with_groups(num_racks, &edges, &groups));
    let d = PyDict::new(py);
    d.set_item("circuits", circuits_list(py, &best.circuits)?)?;
    d.set_item("weight", best.weight)?;
    d.set_item("completed", best.completed)?;
    d.set_item("exact", best.exact)?;
    Ok(d)
}

/// Adds the matching functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(max_weight_matching, m)?)?;
    m.add_function(wrap_pyfunction!(circuit_slot, m)?)?;
    m.add_function(wrap_pyfunction!(circuit_plan, m)?)?;
    m.add_function(wrap_pyfunction!(circuit_verify, m)?)?;
    m.add_function(wrap_pyfunction!(circuit_groups, m)?)?;
    Ok(())
}
