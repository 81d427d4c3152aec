//! Python bindings of `lightpath_core::corropt`: the fast checker, the
//! switch-local baseline and the exact optimizer as functions taking a
//! `FabricGraph`, link states as names or bytes and corrupting links as
//! `(link, loss_rate)` pairs or `(link, up, down)` triples, and returning
//! plain dicts.

use std::collections::HashMap;
use std::time::Duration;

use lightpath_core::corropt::{
    CorrOptError, CorrOptState, CorruptingLink, Decision, LinkState, Optimization, Penalty,
    Refusal, Thresholds, TorImpact, required_paths, switch_local_share,
};
use lightpath_core::{FabricGraph as CoreGraph, PathError};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

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
        link_states: Option<&Bound<'_, PyAny>>,
        corrupting: &Bound<'_, PyAny>,
        capacity: f64,
        overrides: Option<HashMap<i64, f64>>,
        penalty: &str,
    ) -> PyResult<Self> {
        let states = match link_states {
            None => vec![LinkState::Enabled; graph.num_links()],
            Some(states) => link_states_from(states)?,
        };
        let corrupting = corrupting_links(corrupting, graph.num_links())?;
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

/// Corrupting links from a sequence of `(link, loss_rate)` (one direction)
/// or `(link, loss_rate_up, loss_rate_down)` tuples; a rate of None means 0.
/// The core checks the ranges.
pub(crate) fn corrupting_links(
    corrupting: &Bound<'_, PyAny>,
    num_links: usize,
) -> PyResult<Vec<CorruptingLink>> {
    if corrupting.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "corrupting must be a sequence of (link, loss_rate) or (link, loss_rate_up, loss_rate_down) tuples, not a str",
        ));
    }
    let mut links = Vec::with_capacity(corrupting.len().unwrap_or(0));
    for (index, item) in corrupting.try_iter()?.enumerate() {
        let item = item?;
        let bad = || {
            PyValueError::new_err(format!(
                "corrupting[{index}]: expected (link, loss_rate) or (link, loss_rate_up, \
                 loss_rate_down) with an integer link and rates as numbers or None, got {}",
                item.repr()
                    .map_or_else(|_| "?".to_owned(), |r| r.to_string())
            ))
        };
        let (link, up, down) = match item.len() {
            Ok(2) => {
                let (link, up) = item.extract::<(i64, Option<f64>)>().map_err(|_| bad())?;
                (link, up, None)
            }
            Ok(3) => item
                .extract::<(i64, Option<f64>, Option<f64>)>()
                .map_err(|_| bad())?,
            _ => return Err(bad()),
        };
        let link = u32::try_from(link).map_err(|_| {
            PyValueError::new_err(format!(
                "link {link} does not exist (the fabric has {num_links} links)"
            ))
        })?;
        links.push(CorruptingLink::both_directions(
            link,
            up.unwrap_or(0.0),
            down.unwrap_or(0.0),
        ));
    }
    Ok(links)
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

pub(crate) fn link_state(link: usize, name: &str) -> PyResult<LinkState> {
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
    corrupting: &Bound<'py, PyAny>,
    link_states: Option<&Bound<'py, PyAny>>,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let graph: &CoreGraph = &graph.get().inner;
    let inputs = Inputs::convert(graph, link_states, corrupting, capacity, overrides, penalty)?;
    let decisions = py
        .detach(|| {
            inputs
                .state(graph)?
                .check_batch(&inputs.corrupting, inputs.penalty)
        })
        .map_err(corropt_error)?;
    decisions
        .iter()
        .map(|d| decision_dict(py, d, true))
        .collect()
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
    corrupting: &Bound<'py, PyAny>,
    link_states: Option<&Bound<'py, PyAny>>,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
    share: Option<f64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let graph: &CoreGraph = &graph.get().inner;
    let inputs = Inputs::convert(graph, link_states, corrupting, capacity, overrides, penalty)?;
    let share = share.unwrap_or_else(|| switch_local_share(capacity, graph.num_tiers() - 1));
    let decisions = py
        .detach(|| {
            inputs
                .state(graph)?
                .switch_local(&inputs.corrupting, inputs.penalty, share)
        })
        .map_err(corropt_error)?;
    decisions
        .iter()
        .map(|d| decision_dict(py, d, true))
        .collect()
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
    corrupting: &Bound<'py, PyAny>,
    link_states: Option<&Bound<'py, PyAny>>,
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &str,
    time_budget_s: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let graph: &CoreGraph = &graph.get().inner;
    let inputs = Inputs::convert(graph, link_states, corrupting, capacity, overrides, penalty)?;
    let budget = time_budget(time_budget_s)?;
    let optimization = py
        .detach(|| {
            inputs
                .state(graph)?
                .optimize(&inputs.corrupting, inputs.penalty, budget)
        })
        .map_err(corropt_error)?;
    optimization_dict(py, &optimization)
}

/// Penalty `I(loss_rate) + I(loss_rate_down)` of a link under the named
/// penalty function, exactly as the deciders compute it.
#[pyfunction]
#[pyo3(signature = (name, loss_rate, loss_rate_down=0.0))]
pub(crate) fn corropt_penalty(name: &str, loss_rate: f64, loss_rate_down: f64) -> PyResult<f64> {
    let penalty = penalty_function(name)?;
    for (value, what) in [(loss_rate, ""), (loss_rate_down, "downward ")] {
        if !(0.0..=1.0).contains(&value) {
            return Err(PyValueError::new_err(format!(
                "{what}loss rate {value} is not a fraction in [0, 1]"
            )));
        }
    }
    Ok(CorruptingLink::both_directions(0, loss_rate, loss_rate_down).penalty(penalty))
}

/// Up-paths a ToR with `design_paths` up-paths must keep at threshold
/// `capacity`: `ceil(capacity * design_paths)`, with products within a
/// relative 1e-9 of a whole number snapped to it, as the deciders do.
#[pyfunction]
pub(crate) fn corropt_required_paths(capacity: f64, design_paths: i128) -> PyResult<u64> {
    Thresholds::new(capacity).map_err(corropt_error)?;
    let design = u64::try_from(design_paths).map_err(|_| {
        PyValueError::new_err(format!(
            "design_paths must be a whole number in [0, 2**64 - 1], got {design_paths}"
        ))
    })?;
    Ok(required_paths(capacity, design))
}

/// `time_budget_s` as a duration (None: no budget).
pub(crate) fn time_budget(time_budget_s: Option<f64>) -> PyResult<Option<Duration>> {
    time_budget_s
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err(format!(
                    "time_budget_s must be a non-negative number of seconds, got {s}"
                ))
            })
        })
        .transpose()
}

/// One decision as a dict; `affected` is left out unless `include_affected`.
/// Keys are interned: a spine-link decision builds 48 `affected` dicts, and
/// creating the key strings afresh would dominate its cost.
pub(crate) fn decision_dict<'py>(
    py: Python<'py>,
    d: &Decision,
    include_affected: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "link"), d.link)?;
    dict.set_item(intern!(py, "penalty"), d.penalty)?;
    dict.set_item(intern!(py, "disabled"), d.disabled)?;
    if include_affected {
        let affected = d
            .affected
            .iter()
            .map(|i| impact_dict(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        dict.set_item(intern!(py, "affected"), affected)?;
    }
    let refusal = match &d.refusal {
        None => None,
        Some(Refusal::TorCapacity { tors }) => {
            let r = PyDict::new(py);
            r.set_item(intern!(py, "kind"), intern!(py, "tor_capacity"))?;
            r.set_item(intern!(py, "tors"), tors)?;
            Some(r)
        }
        Some(Refusal::SwitchAllowance {
            switch,
            out_of_service,
            allowance,
        }) => {
            let r = PyDict::new(py);
            r.set_item(intern!(py, "kind"), intern!(py, "switch_allowance"))?;
            r.set_item(intern!(py, "switch"), switch)?;
            r.set_item(intern!(py, "out_of_service"), out_of_service)?;
            r.set_item(intern!(py, "allowance"), allowance)?;
            Some(r)
        }
    };
    dict.set_item(intern!(py, "refusal"), refusal)?;
    Ok(dict)
}

pub(crate) fn impact_dict<'py>(py: Python<'py>, i: &TorImpact) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "tor"), i.tor)?;
    dict.set_item(intern!(py, "paths_before"), i.paths_before)?;
    dict.set_item(intern!(py, "paths_after"), i.paths_after)?;
    dict.set_item(intern!(py, "design_paths"), i.design_paths)?;
    dict.set_item(intern!(py, "required_paths"), i.required_paths)?;
    dict.set_item(intern!(py, "fraction_before"), i.fraction_before)?;
    dict.set_item(intern!(py, "fraction_after"), i.fraction_after)?;
    dict.set_item(intern!(py, "threshold"), i.threshold)?;
    Ok(dict)
}

pub(crate) fn optimization_dict<'py>(
    py: Python<'py>,
    o: &Optimization,
) -> PyResult<Bound<'py, PyDict>> {
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

/// Link states from `bytes` / `bytearray` (one byte per link: b"e" or 0
/// enabled, b"d" or 1 disabled, b"D" or 2 down) or from a sequence of the
/// names "enabled", "disabled", "down". The length is checked by the core.
pub(crate) fn link_states_from(states: &Bound<'_, PyAny>) -> PyResult<Vec<LinkState>> {
    if let Ok(bytes) = states.cast::<PyBytes>() {
        return link_states_from_codes(bytes.as_bytes());
    }
    if let Ok(bytes) = states.cast::<PyByteArray>() {
        return link_states_from_codes(&bytes.to_vec());
    }
    if states.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "link_states must be bytes or a sequence of state names, not a str",
        ));
    }
    let mut converted = Vec::with_capacity(states.len().unwrap_or(0));
    // Lists of states usually repeat the same few string objects: the last
    // one seen is kept (alive, so that identity is meaningful) with its state.
    let mut last: Option<(Bound<'_, PyAny>, LinkState)> = None;
    for (link, item) in states.try_iter()?.enumerate() {
        let item = item?;
        if let Some((seen, state)) = &last
            && seen.is(&item)
        {
            converted.push(*state);
            continue;
        }
        let state = match item.cast::<PyString>() {
            Ok(name) => link_state(link, name.to_str()?)?,
            Err(_) => {
                return Err(PyValueError::new_err(format!(
                    "link {link}: state must be 'enabled', 'disabled' or 'down', got {}",
                    item.repr()?
                )));
            }
        };
        converted.push(state);
        last = Some((item, state));
    }
    Ok(converted)
}

fn link_states_from_codes(codes: &[u8]) -> PyResult<Vec<LinkState>> {
    codes
        .iter()
        .enumerate()
        .map(|(link, &code)| match code {
            b'e' | 0 => Ok(LinkState::Enabled),
            b'd' | 1 => Ok(LinkState::Disabled),
            b'D' | 2 => Ok(LinkState::Down),
            other => Err(PyValueError::new_err(format!(
                "link {link}: state byte {other:#04x} is not b'e' or 0 (enabled), \
                 b'd' or 1 (disabled), b'D' or 2 (down)"
            ))),
        })
        .collect()
}
