//! Python bindings of the CorrOpt trace generator and simulator (the
//! simulation runs without the GIL).

use std::collections::HashMap;
use std::ops::ControlFlow;

use lightpath_core::FabricGraph as CoreGraph;
use lightpath_core::corropt::{
    CorrOptError, Onset, Policy, SimConfig, SimResult, compare_policies_reporting, generate_trace,
    simulate_reporting, switch_local_share,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::FabricGraph;
use crate::corropt::{corropt_error, link_states_from, penalty_function, thresholds, time_budget};

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

/// The options `corropt_simulate` and `corropt_compare` share, as Python
/// passes them.
struct SimOptions<'a, 'py> {
    capacity: f64,
    overrides: Option<HashMap<i64, f64>>,
    penalty: &'a str,
    share: Option<f64>,
    repair_delay_s: f64,
    fix_probability: f64,
    seed: i128,
    progress: Option<Py<PyAny>>,
    horizon_s: Option<f64>,
    time_budget_s: Option<f64>,
    link_states: Option<&'a Bound<'py, PyAny>>,
}

/// Everything of a simulation but the policy, converted before the GIL is
/// released.
struct SimArgs {
    trace: Vec<Onset>,
    config: SimConfig,
    capacity: f64,
    share: Option<f64>,
    progress: Option<Py<PyAny>>,
}

impl SimArgs {
    fn convert(
        py: Python<'_>,
        graph: &CoreGraph,
        trace: Vec<(f64, i64, f64)>,
        options: SimOptions<'_, '_>,
    ) -> PyResult<Self> {
        if let Some(callback) = &options.progress
            && !callback.bind(py).is_callable()
        {
            return Err(PyTypeError::new_err(
                "progress must be a callable taking the simulated fraction",
            ));
        }
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
        let config = SimConfig {
            policy: Policy::CorrOpt,
            thresholds: thresholds(options.capacity, options.overrides)?,
            penalty: penalty_function(options.penalty)?,
            repair_delay_s: options.repair_delay_s,
            fix_probability: options.fix_probability,
            seed: seed_value(options.seed)?,
            horizon_s: options.horizon_s,
            optimizer_budget: time_budget(options.time_budget_s)?,
            exhaustive_reruns: false,
            initial_states: options.link_states.map(link_states_from).transpose()?,
        };
        Ok(Self {
            trace,
            config,
            capacity: options.capacity,
            share: options.share,
            progress: options.progress,
        })
    }

    /// The named policy; switch-local's share defaults to `c^(1/r)`.
    fn policy(&self, graph: &CoreGraph, name: &str) -> PyResult<Policy> {
        match name {
            "switch-local" => Ok(Policy::SwitchLocal {
                share: self
                    .share
                    .unwrap_or_else(|| switch_local_share(self.capacity, graph.num_tiers() - 1)),
            }),
            "fast-checker" => Ok(Policy::FastChecker),
            "corropt" => Ok(Policy::CorrOpt),
            other => Err(PyValueError::new_err(format!(
                "policy must be 'corropt', 'fast-checker' or 'switch-local', got {other:?}"
            ))),
        }
    }
}

/// Runs `run` without the GIL, with a reporter that calls the Python
/// `progress` callable (if any) with the arguments `args(report)` builds. The
/// callable needs the GIL, so each report (about a hundred per run, more in a
/// burst of events) attaches briefly. An exception it raises stops the run
/// at once and is raised (a cancelled job's progress raises to stop it).
fn run_detached<T, R: Copy + Send>(
    py: Python<'_>,
    progress: Option<&Py<PyAny>>,
    args: impl Fn(Python<'_>, R) -> PyResult<Bound<'_, PyTuple>> + Sync,
    run: impl FnOnce(&mut dyn FnMut(R) -> ControlFlow<()>) -> Result<Option<T>, CorrOptError> + Send,
) -> PyResult<T>
where
    T: Send,
{
    let mut callback_error: Option<PyErr> = None;
    let result = py.detach(|| {
        run(&mut |report: R| {
            let Some(callback) = progress else {
                return ControlFlow::Continue(());
            };
            Python::attach(
                |py| match args(py, report).and_then(|a| callback.call1(py, a)) {
                    Ok(_) => ControlFlow::Continue(()),
                    Err(err) => {
                        callback_error = Some(err);
                        ControlFlow::Break(())
                    }
                },
            )
        })
    });
    let result = result.map_err(corropt_error)?;
    match (result, callback_error) {
        (_, Some(err)) => Err(err),
        (Some(result), None) => Ok(result),
        (None, None) => Err(PyRuntimeError::new_err(
            "the simulation stopped without a reason",
        )),
    }
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
    let graph: &CoreGraph = &graph.get().inner;
    #[rustfmt::skip]
    let options = SimOptions {
        capacity, overrides, penalty, share, repair_delay_s, fix_probability, seed, progress,
        horizon_s, time_budget_s, link_states,
    };
    let args = SimArgs::convert(py, graph, trace, options)?;
    let policy = args.policy(graph, policy)?;
    if share.is_some() && !matches!(policy, Policy::SwitchLocal { .. }) {
        return Err(PyValueError::new_err(
            "share applies only to policy='switch-local'",
        ));
    }
    let config = SimConfig {
        policy,
        ..args.config.clone()
    };
    let trace = &args.trace;
    let result = run_detached(
        py,
        args.progress.as_ref(),
        |py, fraction: f64| PyTuple::new(py, [fraction]),
        |report| simulate_reporting(graph, trace, &config, report),
    )?;
    result_dict(py, &result)
}

/// Runs several policies on one trace (the core's `compare_policies`) and
/// returns their results side by side with each one's penalty ratio to
/// CorrOpt (which runs once more as the reference if not among `policies`).
#[pyfunction]
#[pyo3(signature = (
    graph, trace, policies=vec!["corropt".to_owned(), "fast-checker".to_owned(), "switch-local".to_owned()],
    capacity=0.75, overrides=None, penalty="linear", share=None, repair_delay_s=172_800.0,
    fix_probability=0.8, seed=0, progress=None, horizon_s=None, time_budget_s=None, link_states=None,
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn corropt_compare<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    trace: Vec<(f64, i64, f64)>,
    policies: Vec<String>,
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
    let graph: &CoreGraph = &graph.get().inner;
    #[rustfmt::skip]
    let options = SimOptions {
        capacity, overrides, penalty, share, repair_delay_s, fix_probability, seed, progress,
        horizon_s, time_budget_s, link_states,
    };
    let args = SimArgs::convert(py, graph, trace, options)?;
    if policies.is_empty() {
        return Err(PyValueError::new_err(
            "policies must name at least one policy",
        ));
    }
    let mut chosen: Vec<Policy> = Vec::with_capacity(policies.len());
    for name in &policies {
        let policy = args.policy(graph, name)?;
        if chosen.iter().any(|p| p.name() == policy.name()) {
            return Err(PyValueError::new_err(format!(
                "policy {name:?} is listed more than once"
            )));
        }
        chosen.push(policy);
    }
    if share.is_some()
        && !chosen
            .iter()
            .any(|p| matches!(p, Policy::SwitchLocal { .. }))
    {
        return Err(PyValueError::new_err(
            "share applies only to 'switch-local', which is not among the policies",
        ));
    }
    let trace = &args.trace;
    let config = &args.config;
    let names: Vec<&'static str> = chosen
        .iter()
        .map(Policy::name)
        .chain([Policy::CorrOpt.name()])
        .collect();
    let comparison = run_detached(
        py,
        args.progress.as_ref(),
        |py, (run, fraction): (usize, f64)| (names[run], fraction).into_pyobject(py),
        |report| {
            compare_policies_reporting(graph, trace, config, &chosen, &mut |run, f| {
                report((run, f))
            })
        },
    )?;
    let dict = PyDict::new(py);
    let results = comparison
        .results
        .iter()
        .map(|r| result_dict(py, r))
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("results", results)?;
    dict.set_item(
        "corropt_penalty_seconds",
        comparison.corropt_penalty_seconds,
    )?;
    dict.set_item("penalty_ratio", &comparison.penalty_ratio)?;
    Ok(dict)
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
