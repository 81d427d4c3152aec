//! Python bindings of `lightpath_core::corropt`: the fast checker, the
//! switch-local baseline and the exact optimizer as functions taking a
//! `FabricGraph`, link states as strings and corrupting links as
//! `(link, loss_rate)` pairs, and returning plain dicts.

use std::collections::HashMap;
use std::time::Duration;

use lightpath_core::corropt::{
    CorrOptError, CorrOptState, CorruptingLink, Decision, LinkState, Optimization, Penalty,
    Refusal, Thresholds, TorImpact, switch_local_share,
};
use lightpath_core::{FabricGraph as CoreGraph, PathError};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::FabricGraph;

/// Everything a CorrOpt call needs, converted from Python before the GIL is
/// released.
struct Inputs {
    states: Vec<LinkState>,
    corrupting: Vec<CorruptingLink>,
    thresholds: Thresholds,
    penalty: Penalty,
}

impl Inputs {
    fn convert(
        graph: &CoreGraph,
        link_states: Option<Vec<String>>,
        corrupting: Vec<(i64, f64)>,
        capacity: f64,
        overrides: Option<HashMap<i64, f64>>,
        penalty: &str,
    ) -> PyResult<Self> {
        let states = match link_states {
            None => vec![LinkState::Enabled; graph.num_links()],
            Some(names) => names
                .iter()
                .enumerate()
                .map(|(link, name)| link_state(link, name))
                .collect::<PyResult<_>>()?,
        };
        let corrupting = corrupting
            .into_iter()
            .map(|(link, loss_rate)| {
                let link = u32::try_from(link).map_err(|_| {
                    PyValueError::new_err(format!(
                        "link {link} does not exist (the fabric has {} links)",
                        graph.num_links()
                    ))
                })?;
                Ok(CorruptingLink { link, loss_rate })
            })
            .collect::<PyResult<_>>()?;
        let thresholds = thresholds(capacity, overrides)?;
        let penalty = penalty_function(penalty)?;
        Ok(Self {
            states,
            corrupting,
            thresholds,
            penalty,
        })
    }

    fn state<'g>(&self, graph: &'g CoreGraph) -> Result<CorrOptState<'g>, CorrOptError> {
        CorrOptState::new(graph, self.states.clone(), &self.thresholds)
    }
}

/// `capacity` for every ToR, with per-ToR `overrides` keyed by switch index.
pub(crate) fn thresholds(
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
) -> PyResult<Thresholds> {
    let mut thresholds = Thresholds::new(capacity).map_err(corropt_error)?;
    let mut overrides: Vec<(i64, f64)> = overrides.unwrap_or_default().into_iter().collect();
    overrides.sort_by_key(|&(tor, _)| tor);
    for (tor, fraction) in overrides {
        let tor = u32::try_from(tor).map_err(|_| {
            PyValueError::new_err(format!(
                "threshold override for switch {tor}, which is not a ToR (tier 0) of the fabric"
            ))
        })?;
        thresholds = thresholds
            .with_override(tor, fraction)
            .map_err(corropt_error)?;
    }
    Ok(thresholds)
}

pub(crate) fn penalty_function(name: &str) -> PyResult<Penalty> {
    match name {
        "linear" => Ok(Penalty::Linear),
        "log" => Ok(Penalty::Log),
        "step" => Ok(Penalty::Step),
        other => Err(PyValueError::new_err(format!(
            "penalty must be 'linear', 'log' or 'step', got {other:?}"
        ))),
    }
}

fn link_state(link: usize, name: &str) -> PyResult<LinkState> {
    match name {
        "enabled" => Ok(LinkState::Enabled),
        "disabled" => Ok(LinkState::Disabled),
        "down" => Ok(LinkState::Down),
        other => Err(PyValueError::new_err(format!(
            "link {link}: state must be 'enabled', 'disabled' or 'down', got {other:?}"
        ))),
    }
}

pub(crate) fn corropt_error(err: CorrOptError) -> PyErr {
    match err {
        CorrOptError::Path(PathError::Overflow { .. }) => PyOverflowError::new_err(err.to_string()),
        _ => PyValueError::new_err(err.to_string()),
    }
}

/// Fast checker: considers the corrupting links (all must be enabled) in
/// decreasing penalty and disables each one if and only if no ToR below it
/// falls under its threshold. Returns one decision dict per link, in the
/// order considered.
#[pyfunction]
#[pyo3(signature = (graph, corrupting, link_states=None, capacity=0.75, overrides=None, penalty="linear"))]
pub(crate) fn corropt_check<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    corrupting: Vec<(i64, f64)>,
    link_states: Option<Vec<String>>,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let graph = &graph.get().inner;
    let inputs = Inputs::convert(graph, link_states, corrupting, capacity, overrides, penalty)?;
    let decisions = py
        .detach(|| {
            inputs
                .state(graph)?
                .check_batch(&inputs.corrupting, inputs.penalty)
        })
        .map_err(corropt_error)?;
    decisions.iter().map(|d| decision_dict(py, d)).collect()
}

/// Switch-local baseline: in decreasing penalty, disables a corrupting link
/// if its lower switch, with m up-links, has fewer than floor(m (1 - share))
/// up-links disabled or down. `share` defaults to capacity^(1/r) for r tiers
/// above the ToR. Returns decision dicts like `corropt_check`.
#[pyfunction]
#[pyo3(signature = (graph, corrupting, link_states=None, capacity=0.75, overrides=None, penalty="linear", share=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn corropt_switch_local<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    corrupting: Vec<(i64, f64)>,
    link_states: Option<Vec<String>>,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
    share: Option<f64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let graph = &graph.get().inner;
    let inputs = Inputs::convert(graph, link_states, corrupting, capacity, overrides, penalty)?;
    let share = share.unwrap_or_else(|| switch_local_share(capacity, graph.num_tiers() - 1));
    let decisions = py
        .detach(|| {
            inputs
                .state(graph)?
                .switch_local(&inputs.corrupting, inputs.penalty, share)
        })
        .map_err(corropt_error)?;
    decisions.iter().map(|d| decision_dict(py, d)).collect()
}

/// Exact optimizer: the enabled corrupting links to disable so that the
/// penalty left enabled is smallest while every ToR keeps its threshold.
/// Links that are disabled or down are left as they are. With
/// `time_budget_s`, returns the best answer found when the budget runs out,
/// with `proven_optimal` and a lower bound.
#[pyfunction]
#[pyo3(signature = (graph, corrupting, link_states=None, capacity=0.75, overrides=None, penalty="linear", time_budget_s=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn corropt_optimize<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    corrupting: Vec<(i64, f64)>,
    link_states: Option<Vec<String>>,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
    time_budget_s: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let graph = &graph.get().inner;
    let inputs = Inputs::convert(graph, link_states, corrupting, capacity, overrides, penalty)?;
    let budget = time_budget_s
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err(format!(
                    "time_budget_s must be a non-negative number of seconds, got {s}"
                ))
            })
        })
        .transpose()?;
    let optimization = py
        .detach(|| {
            inputs
                .state(graph)?
                .optimize(&inputs.corrupting, inputs.penalty, budget)
        })
        .map_err(corropt_error)?;
    optimization_dict(py, &optimization)
}

fn decision_dict<'py>(py: Python<'py>, d: &Decision) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("link", d.link)?;
    dict.set_item("penalty", d.penalty)?;
    dict.set_item("disabled", d.disabled)?;
    let affected = d
        .affected
        .iter()
        .map(|i| impact_dict(py, i))
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("affected", affected)?;
    let refusal = match &d.refusal {
        None => None,
        Some(Refusal::TorCapacity { tors }) => {
            let r = PyDict::new(py);
            r.set_item("kind", "tor_capacity")?;
            r.set_item("tors", tors)?;
            Some(r)
        }
        Some(Refusal::SwitchAllowance {
            switch,
            out_of_service,
            allowance,
        }) => {
            let r = PyDict::new(py);
            r.set_item("kind", "switch_allowance")?;
            r.set_item("switch", switch)?;
            r.set_item("out_of_service", out_of_service)?;
            r.set_item("allowance", allowance)?;
            Some(r)
        }
    };
    dict.set_item("refusal", refusal)?;
    Ok(dict)
}

fn impact_dict<'py>(py: Python<'py>, i: &TorImpact) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("tor", i.tor)?;
    dict.set_item("paths_before", i.paths_before)?;
    dict.set_item("paths_after", i.paths_after)?;
    dict.set_item("design_paths", i.design_paths)?;
    dict.set_item("required_paths", i.required_paths)?;
    dict.set_item("fraction_before", i.fraction_before)?;
    dict.set_item("fraction_after", i.fraction_after)?;
    dict.set_item("threshold", i.threshold)?;
    Ok(dict)
}

fn optimization_dict<'py>(py: Python<'py>, o: &Optimization) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("disable", &o.disable)?;
    dict.set_item("keep_enabled", &o.keep_enabled)?;
    dict.set_item("remaining_penalty", o.remaining_penalty)?;
    dict.set_item(
        "remaining_penalty_lower_bound",
        o.remaining_penalty_lower_bound,
    )?;
    dict.set_item("proven_optimal", o.proven_optimal)?;
    dict.set_item("pruned", o.pruned)?;
    dict.set_item("segments", o.segments)?;
    dict.set_item("largest_segment", o.largest_segment)?;
    dict.set_item("nodes", o.nodes)?;
    Ok(dict)
}
