//! Python bindings of the CorrOpt trace generator and simulator (the
//! simulation runs without the GIL).

use std::collections::HashMap;
use std::time::Duration;

use lightpath_core::corropt::{
    Onset, Policy, SimConfig, SimResult, generate_trace, simulate, switch_local_share,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::FabricGraph;
use crate::corropt::{corropt_error, link_states_from, penalty_function, thresholds};

/// Synthetic corruption onsets: each link starts corrupting as a Poisson
/// process with mean time between onsets `mttf_hours`, over `hours` hours;
/// loss rates follow CorrOpt's Table 3.1. Returns `(time_s, link,
/// loss_rate)` tuples sorted by time. Deterministic in `seed`.
#[pyfunction]
#[pyo3(signature = (graph, mttf_hours, hours, seed=0))]
pub(crate) fn corropt_trace(
    py: Python<'_>,
    graph: &Bound<'_, FabricGraph>,
    mttf_hours: f64,
    hours: f64,
    seed: i128,
) -> PyResult<Vec<(f64, u32, f64)>> {
    let graph: &lightpath_core::FabricGraph = &graph.get().inner;
    let seed = seed_value(seed)?;
    let trace = py
        .detach(|| generate_trace(graph, mttf_hours, hours, seed))
        .map_err(corropt_error)?;
    Ok(trace
        .into_iter()
        .map(|o| (o.time_s, o.link, o.loss_rate))
        .collect())
}

/// Replays a trace of `(time_s, link, loss_rate)` onsets under a policy and
/// the repair model, from `link_states` (all enabled if None); returns the
/// series, their integrals and event counts.
#[pyfunction]
#[pyo3(signature = (
    graph, trace, policy="corropt", capacity=0.75, overrides=None, penalty="linear",
    share=None, repair_delay_s=172_800.0, fix_probability=0.8, seed=0, progress=None,
    horizon_s=None, time_budget_s=None, link_states=None,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn corropt_simulate<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    trace: Vec<(f64, i64, f64)>,
    policy: &str,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
    share: Option<f64>,
    repair_delay_s: f64,
    fix_probability: f64,
    seed: i128,
    progress: Option<Py<PyAny>>,
    horizon_s: Option<f64>,
    time_budget_s: Option<f64>,
    link_states: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let graph: &lightpath_core::FabricGraph = &graph.get().inner;
    if let Some(callback) = &progress
        && !callback.bind(py).is_callable()
    {
        return Err(PyTypeError::new_err(
            "progress must be a callable taking the simulated fraction",
        ));
    }
    let policy = match (policy, share) {
        ("switch-local", share) => Policy::SwitchLocal {
            share: share.unwrap_or_else(|| switch_local_share(capacity, graph.num_tiers() - 1)),
        },
        ("fast-checker" | "corropt", Some(_)) => {
            return Err(PyValueError::new_err(
                "share applies only to policy='switch-local'",
            ));
        }
        ("fast-checker", None) => Policy::FastChecker,
        ("corropt", None) => Policy::CorrOpt,
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "policy must be 'corropt', 'fast-checker' or 'switch-local', got {other:?}"
            )));
        }
    };
    let trace = trace
        .into_iter()
        .enumerate()
        .map(|(index, (time_s, link, loss_rate))| {
            let link = u32::try_from(link).map_err(|_| {
                PyValueError::new_err(format!(
                    "trace onset {index}: link {link} does not exist (the fabric has {} links)",
                    graph.num_links()
                ))
            })?;
            Ok(Onset {
                time_s,
                link,
                loss_rate,
            })
        })
        .collect::<PyResult<Vec<Onset>>>()?;
    let optimizer_budget = time_budget_s
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err(format!(
                    "time_budget_s must be a non-negative number of seconds, got {s}"
                ))
            })
        })
        .transpose()?;
    let config = SimConfig {
        policy,
        thresholds: thresholds(capacity, overrides)?,
        penalty: penalty_function(penalty)?,
        repair_delay_s,
        fix_probability,
        seed: seed_value(seed)?,
        horizon_s,
        optimizer_budget,
        exhaustive_reruns: false,
        initial_states: link_states.map(link_states_from).transpose()?,
    };

    // The simulation runs without the GIL; the progress callable needs it,
    // so each report (about a hundred per run) attaches briefly. The first
    // exception it raises is kept, later reports are skipped, and the
    // exception is raised once the run ends.
    let mut callback_error: Option<PyErr> = None;
    let result = py.detach(|| {
        simulate(graph, &trace, &config, |fraction| {
            if let Some(callback) = &progress
                && callback_error.is_none()
            {
                Python::attach(|py| {
                    if let Err(err) = callback.call1(py, (fraction,)) {
                        callback_error = Some(err);
                    }
                });
            }
        })
    });
    let result = result.map_err(corropt_error)?;
    if let Some(err) = callback_error {
        return Err(err);
    }
    result_dict(py, &result)
}

fn seed_value(seed: i128) -> PyResult<u64> {
    u64::try_from(seed).map_err(|_| {
        PyValueError::new_err(format!("seed must be an integer in [0, 2**64), got {seed}"))
    })
}

fn result_dict<'py>(py: Python<'py>, r: &SimResult) -> PyResult<Bound<'py, PyDict>> {
    let series = PyDict::new(py);
    series.set_item("time_s", &r.series.time_s)?;
    series.set_item("penalty", &r.series.penalty)?;
    series.set_item("active_corrupting", &r.series.active_corrupting)?;
    series.set_item("disabled", &r.series.disabled)?;
    series.set_item("worst_fraction", &r.series.worst_fraction)?;
    let counts = PyDict::new(py);
    let c = &r.counts;
    counts.set_item("onsets", c.onsets)?;
    counts.set_item("absorbed_onsets", c.absorbed_onsets)?;
    counts.set_item("refused_arrivals", c.refused_arrivals)?;
    counts.set_item("disables", c.disables)?;
    counts.set_item("repairs", c.repairs)?;
    counts.set_item("second_rounds", c.second_rounds)?;
    counts.set_item("optimizer_runs", c.optimizer_runs)?;
    counts.set_item("optimizer_unproven", c.optimizer_unproven)?;
    counts.set_item("threshold_breaches", c.threshold_breaches)?;
    let dict = PyDict::new(py);
    dict.set_item("policy", r.policy.name())?;
    if let Policy::SwitchLocal { share } = r.policy {
        dict.set_item("share", share)?;
    }
    dict.set_item("horizon_s", r.horizon_s)?;
    dict.set_item("series", series)?;
    dict.set_item("penalty_seconds", r.penalty_seconds)?;
    dict.set_item("active_corrupting_seconds", r.active_corrupting_seconds)?;
    dict.set_item("disabled_seconds", r.disabled_seconds)?;
    dict.set_item("lowest_worst_fraction", r.lowest_worst_fraction)?;
    dict.set_item("counts", counts)?;
    Ok(dict)
}
