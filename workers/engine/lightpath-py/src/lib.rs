//! Python bindings of `lightpath-core`: argument conversion, error mapping and
//! releasing the GIL around the computation. No algorithm lives here.

use std::sync::Arc;

use lightpath_core::fabric::MAX_TIERS;
use lightpath_core::{FabricGraph as CoreGraph, PathError};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

mod corropt;
mod corropt_session;
mod corropt_sim;
mod document;
mod maintenance;
mod matching;
mod rail;
mod reconfig;
mod telemetry;

/// Switch graph of a multi-tier Clos fabric (tier 0 = ToR, top tier =
/// num_tiers - 1); link i joins switch link_lower[i] to switch link_upper[i]
/// one tier above it.
#[pyclass(frozen, module = "lightpath_engine", name = "FabricGraph")]
struct FabricGraph {
    /// Shared with the `CorrOptSession`s built on this graph.
    pub(crate) inner: Arc<CoreGraph>,
}

#[pymethods]
impl FabricGraph {
    #[new]
    fn new(
        py: Python<'_>,
        num_tiers: i64,
        switch_tiers: Vec<i64>,
        link_lower: Vec<i64>,
        link_upper: Vec<i64>,
    ) -> PyResult<Self> {
        // Checked first, as the core does, so that tier messages below are sound.
        let num_tiers = u32::try_from(num_tiers)
            .ok()
            .filter(|tiers| (1..=MAX_TIERS).contains(tiers))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "num_tiers must be between 1 and {MAX_TIERS}, got {num_tiers}"
                ))
            })?;
        let switch_tiers = indices(switch_tiers, |switch, tier| {
            format!(
                "switch {switch} has tier {tier} but the fabric has {num_tiers} tiers (0 to {})",
                num_tiers - 1
            )
        })?;
        let num_switches = switch_tiers.len();
        let unknown = |end: &'static str| {
            move |link: usize, switch: i64| {
                format!(
                    "link {link}: {end} switch {switch} does not exist \
                     (the fabric has {num_switches} switches)"
                )
            }
        };
        let link_lower = indices(link_lower, unknown("lower"))?;
        let link_upper = indices(link_upper, unknown("upper"))?;
        let inner = py
            .detach(|| CoreGraph::new(num_tiers, switch_tiers, link_lower, link_upper))
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
        Ok(Self {
            inner: Arc::new(inner),
        })
    }

    /// Number of switches.
    #[getter]
    fn num_switches(&self) -> usize {
        self.inner.num_switches()
    }

    /// Number of links.
    #[getter]
    fn num_links(&self) -> usize {
        self.inner.num_links()
    }

    /// Number of tiers.
    #[getter]
    fn num_tiers(&self) -> u32 {
        self.inner.num_tiers()
    }

    /// Number of valley-free upward paths from each switch to any top-tier
    /// switch, over the links whose `usable` entry is True (all links if None).
    #[pyo3(signature = (usable=None))]
    fn up_paths(&self, py: Python<'_>, usable: Option<Vec<bool>>) -> PyResult<Vec<u64>> {
        let graph: &CoreGraph = &self.inner;
        py.detach(|| match usable {
            Some(mask) => graph.up_paths(&mask),
            None => graph.total_up_paths(),
        })
        .map_err(path_error)
    }

    /// (switch_index, available, total) up-paths of every tier-0 switch in
    /// index order; total counts every link as usable.
    #[pyo3(signature = (usable=None))]
    fn tor_capacity(
        &self,
        py: Python<'_>,
        usable: Option<Vec<bool>>,
    ) -> PyResult<Vec<(u32, u64, u64)>> {
        let graph: &CoreGraph = &self.inner;
        let capacity = py
            .detach(|| {
                let mask = usable.unwrap_or_else(|| vec![true; graph.num_links()]);
                graph.tor_capacity(&mask)
            })
            .map_err(path_error)?;
        Ok(capacity
            .into_iter()
            .map(|tor| (tor.switch, tor.available, tor.total))
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "FabricGraph(num_tiers={}, num_switches={}, num_links={})",
            self.inner.num_tiers(),
            self.inner.num_switches(),
            self.inner.num_links()
        )
    }
}

/// Converts Python ints to u32 indices; `message(position, value)` explains a
/// value that no valid fabric could contain (negative or above u32).
fn indices(values: Vec<i64>, message: impl Fn(usize, i64) -> String) -> PyResult<Vec<u32>> {
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| u32::try_from(v).map_err(|_| PyValueError::new_err(message(i, v))))
        .collect()
}

fn path_error(err: PathError) -> PyErr {
    match err {
        PathError::Overflow { .. } => PyOverflowError::new_err(err.to_string()),
        PathError::MaskLength { .. } | PathError::UnknownLink { .. } => {
            PyValueError::new_err(err.to_string())
        }
    }
}

/// Native engine of Lightpath: path counting, capacity and CorrOpt link
/// disabling on Clos fabrics.
#[pymodule]
fn lightpath_engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<FabricGraph>()?;
    m.add_function(wrap_pyfunction!(corropt::corropt_check, m)?)?;
    m.add_function(wrap_pyfunction!(corropt::corropt_switch_local, m)?)?;
    m.add_function(wrap_pyfunction!(corropt::corropt_optimize, m)?)?;
    m.add_function(wrap_pyfunction!(corropt::corropt_penalty, m)?)?;
    m.add_function(wrap_pyfunction!(corropt::corropt_required_paths, m)?)?;
    m.add_class::<corropt_session::CorrOptSession>()?;
    m.add_function(wrap_pyfunction!(corropt_sim::corropt_trace, m)?)?;
    m.add_function(wrap_pyfunction!(corropt_sim::corropt_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(corropt_sim::corropt_compare, m)?)?;
    m.add_function(wrap_pyfunction!(document::read_fabric_document, m)?)?;
    m.add_class::<telemetry::TelemetryState>()?;
    m.add_function(wrap_pyfunction!(maintenance::maintenance_plan, m)?)?;
    m.add_function(wrap_pyfunction!(maintenance::maintenance_row, m)?)?;
    matching::register(m)?;
    rail::register(m)?;
    reconfig::register(m)?;
    Ok(())
}
