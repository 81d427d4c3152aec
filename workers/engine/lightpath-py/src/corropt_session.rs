//! `CorrOptSession`: one fabric's CorrOpt state kept between Python calls.
//!
//! The `corropt_*` functions rebuild the state (a full path count, and the
//! conversion of every link state) on each call. A session builds it once and
//! then pays only for the decision: its core state shares ownership of the
//! `FabricGraph`'s `Arc`, so it needs no borrow of the Python object and no
//! unsafe code.

use std::collections::HashMap;
use std::sync::Arc;

use lightpath_core::corropt::{CorrOptState, CorruptingLink, LinkState, Penalty};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::FabricGraph;
use crate::corropt::{
    corropt_error, corrupting_links, decision_dict, impact_dict, link_state, link_states_from,
    optimization_dict, penalty_function, thresholds, time_budget,
};

/// CorrOpt state of one fabric kept between calls: link states, live
/// up-path counts and per-ToR requirements. Decisions that disable a link
/// change the state; later calls see it.
#[pyclass(module = "lightpath_engine", name = "CorrOptSession")]
pub(crate) struct CorrOptSession {
    pub(crate) state: CorrOptState<'static>,
    penalty: Penalty,
    penalty_name: &'static str,
    capacity: f64,
    graph: Py<FabricGraph>,
}

#[pymethods]
impl CorrOptSession {
    #[new]
    #[pyo3(signature = (graph, link_states=None, capacity=0.75, overrides=None, penalty="linear"))]
    fn new(
        py: Python<'_>,
        graph: &Bound<'_, FabricGraph>,
        link_states: Option<&Bound<'_, PyAny>>,
        capacity: f64,
        overrides: Option<HashMap<i64, f64>>,
        penalty: &str,
    ) -> PyResult<Self> {
        let fabric = Arc::clone(&graph.get().inner);
        let states = match link_states {
            None => vec![LinkState::Enabled; fabric.num_links()],
            Some(states) => link_states_from(states)?,
        };
        let thresholds = thresholds(capacity, overrides)?;
        let (penalty, penalty_name) = penalty_with_name(penalty)?;
        let state = py
            .detach(|| CorrOptState::new_shared(fabric, states, &thresholds))
            .map_err(corropt_error)?;
        Ok(Self {
            state,
            penalty,
            penalty_name,
            capacity,
            graph: graph.clone().unbind(),
        })
    }

    /// The fabric of this session.
    #[getter]
    fn graph(&self, py: Python<'_>) -> Py<FabricGraph> {
        self.graph.clone_ref(py)
    }

    /// The default threshold fraction.
    #[getter]
    fn capacity(&self) -> f64 {
        self.capacity
    }

    /// The penalty function's name.
    #[getter]
    fn penalty(&self) -> &'static str {
        self.penalty_name
    }

    /// Fast checker for one newly corrupting, enabled link: disables it (in
    /// this session) if and only if no ToR below it falls under its
    /// threshold. Returns the decision dict of `corropt_check`, without
    /// `affected` unless `include_affected`. `loss_rate_down`: the other
    /// direction's rate (the link's penalty is `I(loss_rate) + I(loss_rate_down)`).
    #[pyo3(signature = (link, loss_rate, include_affected=true, loss_rate_down=0.0))]
    fn check<'py>(
        &mut self,
        py: Python<'py>,
        link: i64,
        loss_rate: f64,
        include_affected: bool,
        loss_rate_down: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let link = self.link_id(link)?;
        let corrupting = CorruptingLink::both_directions(link, loss_rate, loss_rate_down);
        let (state, penalty) = (&mut self.state, self.penalty);
        let decision = py
            .detach(|| state.check(corrupting, penalty))
            .map_err(corropt_error)?;
        decision_dict(py, &decision, include_affected)
    }

    /// Fast checker for `(link, loss_rate)` pairs arriving together, in
    /// decreasing penalty (ties by link index), each disable applied before
    /// the next decision. Decisions come back in that order. Nothing is
    /// changed if an input is invalid.
    #[pyo3(signature = (corrupting, include_affected=true))]
    fn check_batch<'py>(
        &mut self,
        py: Python<'py>,
        corrupting: &Bound<'py, PyAny>,
        include_affected: bool,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let corrupting = self.corrupting(corrupting)?;
        let (state, penalty) = (&mut self.state, self.penalty);
        let decisions = py
            .detach(|| state.check_batch(&corrupting, penalty))
            .map_err(corropt_error)?;
        decisions
            .iter()
            .map(|d| decision_dict(py, d, include_affected))
            .collect()
    }

    /// Exact optimizer on the session's state: the dict of
    /// `corropt_optimize`. The state is unchanged unless `apply`, which
    /// disables the links in `disable`.
    #[pyo3(signature = (corrupting, time_budget_s=None, apply=false))]
    fn optimize<'py>(
        &mut self,
        py: Python<'py>,
        corrupting: &Bound<'py, PyAny>,
        time_budget_s: Option<f64>,
        apply: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let corrupting = self.corrupting(corrupting)?;
        let budget = time_budget(time_budget_s)?;
        let (state, penalty) = (&mut self.state, self.penalty);
        let optimization = py
            .detach(|| {
                let optimization = state.optimize(&corrupting, penalty, budget)?;
                if apply {
                    state.apply(&optimization)?;
                }
                Ok(optimization)
            })
            .map_err(corropt_error)?;
        optimization_dict(py, &optimization)
    }

    /// The capacity restoration: the links among `candidates` (disabled for
    /// corruption, as `(link, loss_rate)` pairs or `(link, up, down)`
    /// triples) to enable, at the least added penalty, so that taking
    /// `footprint` out of service leaves every ToR at or above the guard's
    /// floor (mode "restore"), or so that every ToR is back at its
    /// requirement (mode "recover", no footprint). The session is unchanged.
    #[pyo3(signature = (candidates, footprint=Vec::new(), mode="restore", time_budget_s=None))]
    fn restore<'py>(
        &mut self,
        py: Python<'py>,
        candidates: &Bound<'py, PyAny>,
        footprint: Vec<i64>,
        mode: &str,
        time_budget_s: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let candidates = self.corrupting(candidates)?;
        let footprint = footprint
            .into_iter()
            .map(|l| self.link_id(l))
            .collect::<PyResult<Vec<_>>>()?;
        let recover = match mode {
            "restore" => false,
            "recover" if footprint.is_empty() => true,
            "recover" => {
                return Err(PyValueError::new_err(
                    "mode 'recover' takes no footprint: it brings ToRs back to their requirement",
                ));
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "mode must be 'restore' or 'recover', got {other:?}"
                )));
            }
        };
        let budget = time_budget(time_budget_s)?;
        let (state, penalty) = (&self.state, self.penalty);
        let restoration = py
            .detach(|| {
                if recover {
                    state.recover(&candidates, penalty, budget)
                } else {
                    state.restore(&footprint, &candidates, penalty, budget)
                }
            })
            .map_err(corropt_error)?;
        let dict = PyDict::new(py);
        dict.set_item("enable", &restoration.enable)?;
        dict.set_item("added_penalty", restoration.added_penalty)?;
        dict.set_item(
            "added_penalty_lower_bound",
            restoration.added_penalty_lower_bound,
        )?;
        dict.set_item("proven_optimal", restoration.proven_optimal)?;
        dict.set_item("restores_all", restoration.restores_all())?;
        let unreachable = restoration
            .unreachable
            .iter()
            .map(|u| {
                let tor = PyDict::new(py);
                tor.set_item("tor", u.tor)?;
                tor.set_item("paths_before", u.paths_before)?;
                tor.set_item("paths_best", u.paths_best)?;
                tor.set_item("floor", u.floor)?;
                tor.set_item("required_paths", u.required_paths)?;
                tor.set_item("design_paths", u.design_paths)?;
                Ok(tor)
            })
            .collect::<PyResult<Vec<_>>>()?;
        dict.set_item("unreachable", unreachable)?;
        dict.set_item("nodes", restoration.nodes)?;
        Ok(dict)
    }

    /// The capacity guard: what setting every `(link, state)` of `changes`
    /// at once would do, without changing the session. Returns `{"safe",
    /// "affected", "blocking"}`: the ToRs whose up-paths change (ascending,
    /// as `affected` of a decision) and those that would end under their
    /// floor (their requirement, or what they have if already under).
    fn evaluate<'py>(
        &mut self,
        py: Python<'py>,
        changes: Vec<(i64, String)>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let changes = changes
            .iter()
            .map(|(link, state)| {
                let link = self.link_id(*link)?;
                Ok((link, link_state(link as usize, state)?))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let session = &mut self.state;
        let verdict = py
            .detach(|| session.evaluate(&changes))
            .map_err(corropt_error)?;
        let dict = PyDict::new(py);
        dict.set_item("safe", verdict.safe())?;
        let affected = verdict
            .affected
            .iter()
            .map(|i| impact_dict(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        dict.set_item("affected", affected)?;
        dict.set_item("blocking", verdict.blocking)?;
        Ok(dict)
    }

    /// `(tor, available, design, required)` up-paths of every ToR, in switch
    /// order: a capacity report from the session's state.
    fn tor_paths(&self) -> Vec<(u32, u64, u64, u64)> {
        let state = &self.state;
        state
            .fabric()
            .tors()
            .iter()
            .map(|&t| {
                (
                    t,
                    state.up_paths()[t as usize],
                    state.design_paths(t),
                    state.required_paths(t),
                )
            })
            .collect()
    }

    /// Sets one link's state unconditionally (a repair, a failure, an
    /// operator's action) and returns the ToRs whose capacity changed, in
    /// the order the engine updated them.
    fn set_link_state(&mut self, py: Python<'_>, link: i64, state: &str) -> PyResult<Vec<u32>> {
        let link = self.link_id(link)?;
        let new_state = link_state(link as usize, state)?;
        let session = &mut self.state;
        let impacts = py
            .detach(|| session.set_link_state(link, new_state))
            .map_err(corropt_error)?;
        Ok(impacts.iter().map(|i| i.tor).collect())
    }

    /// State of one link: "enabled", "disabled" or "down".
    fn link_state(&self, link: i64) -> PyResult<&'static str> {
        let link = self.link_id(link)?;
        self.state
            .link_states()
            .get(link as usize)
            .map(|&s| state_name(s))
            .ok_or_else(|| self.unknown_link(i64::from(link)))
    }

    /// Every link's state as bytes, one per link: b"e" enabled, b"d"
    /// disabled, b"D" down (accepted back as `link_states`).
    fn link_states<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let codes: Vec<u8> = self
            .state
            .link_states()
            .iter()
            .map(|&s| match s {
                LinkState::Enabled => b'e',
                LinkState::Disabled => b'd',
                LinkState::Down => b'D',
            })
            .collect();
        PyBytes::new(py, &codes)
    }

    /// Current up-paths of `tor` over enabled links divided by its design
    /// up-paths (1.0 if it has none). Any switch index is accepted.
    fn capacity_fraction(&self, tor: i64) -> PyResult<f64> {
        let switch = self.switch_id(tor)?;
        Ok(self.state.capacity_fraction(switch))
    }

    /// `(tor, fraction)` of the ToR with the smallest capacity fraction
    /// (lowest index on ties), or None if the fabric has no ToRs.
    fn worst_tor(&self) -> Option<(u32, f64)> {
        self.state.worst_tor()
    }

    /// ToRs currently below their required up-paths, ascending.
    fn tors_below_threshold(&self) -> Vec<u32> {
        self.state.tors_below_threshold()
    }

    fn __repr__(&self) -> String {
        let states = self.state.link_states();
        let count = |s: LinkState| states.iter().filter(|&&x| x == s).count();
        format!(
            "CorrOptSession(num_links={}, capacity={}, penalty='{}', disabled={}, down={})",
            states.len(),
            self.capacity,
            self.penalty_name,
            count(LinkState::Disabled),
            count(LinkState::Down)
        )
    }
}

impl CorrOptSession {
    fn num_links(&self) -> usize {
        self.state.link_states().len()
    }

    fn unknown_link(&self, link: i64) -> PyErr {
        PyValueError::new_err(format!(
            "link {link} does not exist (the fabric has {} links)",
            self.num_links()
        ))
    }

    /// A link index that fits the core's type; the core checks the range.
    fn link_id(&self, link: i64) -> PyResult<u32> {
        u32::try_from(link).map_err(|_| self.unknown_link(link))
    }

    fn switch_id(&self, switch: i64) -> PyResult<u32> {
        let num_switches = self.state.fabric().num_switches();
        u32::try_from(switch)
            .ok()
            .filter(|&s| (s as usize) < num_switches)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "switch {switch} does not exist (the fabric has {num_switches} switches)"
                ))
            })
    }

    fn corrupting(&self, corrupting: &Bound<'_, PyAny>) -> PyResult<Vec<CorruptingLink>> {
        corrupting_links(corrupting, self.num_links())
    }
}

fn penalty_with_name(name: &str) -> PyResult<(Penalty, &'static str)> {
    let penalty = penalty_function(name)?;
    let name = match penalty {
        Penalty::Linear => "linear",
        Penalty::Log => "log",
        Penalty::Step => "step",
    };
    Ok((penalty, name))
}

fn state_name(state: LinkState) -> &'static str {
    match state {
        LinkState::Enabled => "enabled",
        LinkState::Disabled => "disabled",
        LinkState::Down => "down",
    }
}
