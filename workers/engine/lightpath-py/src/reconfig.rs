//! Python bindings of `lightpath_core::reconfig`: ShareBackup plans and pool
//! sizing, Larry runs and feasibility checks. Inputs and outputs cross the
//! boundary as JSON-shaped Python objects (dicts and lists): the core's
//! serde types define the shapes, so they match the CLI's JSON output.
//! Invalid input raises `ValueError` listing every problem, joined by "; ".

use lightpath_core::reconfig::larry::{self, ControllerConfig, CounterSample, Policy, RackSet};
use lightpath_core::reconfig::sharebackup::{self, Event, FatTree};
use lightpath_core::reconfig::{cost, pool};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn problems(list: Vec<String>) -> PyErr {
    PyValueError::new_err(list.join("; "))
}

/// Python object → JSON text (Python's own encoder) → serde type.
fn from_py<T: serde::de::DeserializeOwned>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let text: String = value
        .py()
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|err| PyValueError::new_err(format!("{what}: {err}")))
}

/// Deterministic JSON text → Python objects.
fn to_py(py: Python<'_>, json: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// Plans a ShareBackup event log on a k-ary fat tree with `pods` pods and
/// `backups` per failure group; returns the schedule (counts, initial
/// circuits, one plan per event) with `violations` from the verifier.
#[pyfunction]
#[pyo3(signature = (k, pods, backups, events, reconfig_ms=0.5))]
fn sharebackup_plan(
    py: Python<'_>,
    k: u32,
    pods: u32,
    backups: u32,
    events: &Bound<'_, PyAny>,
    reconfig_ms: f64,
) -> PyResult<Py<PyAny>> {
    let tree = FatTree::new(k, pods, backups).map_err(|e| problems(e.problems))?;
    let events: Vec<Event> = from_py(events, "events")?;
    let json = py
        .detach(|| {
            let schedule = sharebackup::plan(&tree, &events, reconfig_ms)?;
            let violations = sharebackup::verify(&schedule);
            let mut json = schedule.to_json();
            // Append the verifier's answer as a last field.
            json.pop();
            json.push_str(",\"violations\":");
            json.push_str(&serde_json::to_string(&violations).expect("strings serialise"));
            json.push('}');
            Ok(json)
        })
        .map_err(|e: sharebackup::ShareBackupError| problems(e.problems))?;
    to_py(py, &json)
}

/// A valid random event log (seeded) for a fat tree, as event dicts.
#[pyfunction]
fn sharebackup_synthetic_log(
    py: Python<'_>,
    k: u32,
    pods: u32,
    backups: u32,
    length: usize,
    seed: u64,
) -> PyResult<Py<PyAny>> {
    let tree = FatTree::new(k, pods, backups).map_err(|e| problems(e.problems))?;
    let events = py.detach(|| sharebackup::synthetic_log(&tree, length, seed));
    to_py(
        py,
        &serde_json::to_string(&events).expect("events serialise"),
    )
}

/// Smallest backups per group so that P(any group out of backups) ≤ target.
#[pyfunction]
fn sharebackup_size(
    py: Python<'_>,
    group_slots: u32,
    groups: u32,
    mtbf_hours: f64,
    mttr_hours: f64,
    target: f64,
) -> PyResult<Py<PyAny>> {
    let sizing =
        pool::size_pool(group_slots, groups, mtbf_hours, mttr_hours, target).map_err(problems)?;
    to_py(
        py,
        &serde_json::to_string(&sizing).expect("sizing serialises"),
    )
}

/// Monte Carlo estimate of P[a group has more than `backups` slots down].
#[pyfunction]
fn sharebackup_monte_carlo(
    py: Python<'_>,
    group_slots: u32,
    mtbf_hours: f64,
    mttr_hours: f64,
    backups: u32,
    horizon_hours: f64,
    seed: u64,
) -> PyResult<(f64, f64)> {
    if group_slots == 0 || !(mtbf_hours > 0.0 && mttr_hours > 0.0 && horizon_hours > 0.0) {
        return Err(PyValueError::new_err(
            "group_slots, mtbf_hours, mttr_hours and horizon_hours must be positive",
        ));
    }
    let mc = py.detach(|| {
        pool::monte_carlo_exhaustion(
            group_slots,
            mtbf_hours,
            mttr_hours,
            backups,
            horizon_hours,
            seed,
        )
    });
    Ok((mc.p_group, mc.standard_error))
}

/// Whether each rack can get `request[t]` circuit uplinks; the min cut when not.
#[pyfunction]
fn larry_check(
    py: Python<'_>,
    rack_set: &Bound<'_, PyAny>,
    request: Vec<u32>,
) -> PyResult<Py<PyAny>> {
    let rack_set: RackSet = from_py(rack_set, "rack_set")?;
    let answer = py
        .detach(|| larry::check(&rack_set, &request))
        .map_err(problems)?;
    to_py(
        py,
        &serde_json::to_string(&answer).expect("answer serialises"),
    )
}

/// Runs the Larry controller (or a baseline) over per-ToR counter samples.
#[pyfunction]
#[pyo3(signature = (rack_set, samples, threshold=0.85, policy="conservative"))]
fn larry_run(
    py: Python<'_>,
    rack_set: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    threshold: f64,
    policy: &str,
) -> PyResult<Py<PyAny>> {
    let rack_set: RackSet = from_py(rack_set, "rack_set")?;
    let samples: Vec<CounterSample> = from_py(samples, "samples")?;
    let policy: Policy = serde_json::from_value(serde_json::Value::String(policy.to_owned())).map_err(|_| {
        PyValueError::new_err(format!(
            "policy must be conservative, static, one_big_switch or proportional, got {policy:?}"
        ))
    })?;
    let config = ControllerConfig { threshold, policy };
    let json = py
        .detach(|| larry::run(&rack_set, &samples, &config).map(|run| run.to_json()))
        .map_err(problems)?;
    to_py(py, &json)
}

/// Counts and normalised cost: fully provisioned, static and Larry uplinks
/// for a rack set, and a plain fat tree versus ShareBackup.
#[pyfunction]
#[pyo3(signature = (racks, servers, static_uplinks, larry_s, larry_l, larry_r, k, pods, backups, cs_port_ratio=0.3))]
#[allow(clippy::too_many_arguments)] // one flat call mirrors the CLI's options
fn reconfig_costs(
    py: Python<'_>,
    racks: u64,
    servers: u64,
    static_uplinks: u64,
    larry_s: u64,
    larry_l: u64,
    larry_r: u64,
    k: u32,
    pods: u32,
    backups: u32,
    cs_port_ratio: f64,
) -> PyResult<Py<PyAny>> {
    let tree = FatTree::new(k, pods, backups).map_err(|e| problems(e.problems))?;
    if !(cs_port_ratio.is_finite() && cs_port_ratio >= 0.0) {
        return Err(PyValueError::new_err(format!(
            "cs_port_ratio must be non-negative, got {cs_port_ratio}"
        )));
    }
    let prices = cost::PriceSheet {
        cs_port_ratio,
        ..cost::PriceSheet::default()
    };
    let mut rows = cost::compare_rack_set(
        racks,
        servers,
        static_uplinks,
        [larry_s, larry_l, larry_r],
        &prices,
    );
    rows.extend(cost::compare_sharebackup(&tree, &prices));
    to_py(py, &serde_json::to_string(&rows).expect("rows serialise"))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sharebackup_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sharebackup_synthetic_log, m)?)?;
    m.add_function(wrap_pyfunction!(sharebackup_size, m)?)?;
    m.add_function(wrap_pyfunction!(sharebackup_monte_carlo, m)?)?;
    m.add_function(wrap_pyfunction!(larry_check, m)?)?;
    m.add_function(wrap_pyfunction!(larry_run, m)?)?;
    m.add_function(wrap_pyfunction!(reconfig_costs, m)?)?;
    Ok(())
}
