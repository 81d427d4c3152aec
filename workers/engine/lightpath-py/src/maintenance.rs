//! `maintenance_plan`: the maintenance planner on a `CorrOptSession`'s state.
//!
//! A function over a session rather than one over a graph and link states:
//! the backend keeps a live session per fabric (the capacity guard's) and the
//! CLI builds one from a fabric document, so both plan on the same state the
//! guard judges. The session is left as it was.

use lightpath_core::corropt::CorrOptError;
use lightpath_core::maintenance::{
    Crew, Location, MaintenancePlan, PlanError, PlanOptions, Restoration, TravelModel, WorkOrder,
    plan,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMapping};

use crate::corropt::{corropt_error, time_budget};
use crate::corropt_session::CorrOptSession;

/// The row a rack stands in: `pod N` when its switch has a pod, else the rack
/// name before its last `-`, else the rack (`lightpath_core::maintenance::row_of`).
#[pyfunction]
#[pyo3(signature = (rack, pod=None))]
pub(crate) fn maintenance_row(rack: &str, pod: Option<i64>) -> String {
    lightpath_core::maintenance::row_of(rack, pod)
}

/// Plans the visits of `work_orders` (mappings: `id`, `footprint`,
/// `duration_s`, `success_probability`, `rack`, `row`, `penalty_rate`,
/// optional `restoration` `{"links", "penalty_rate"}`) for `technicians`
/// over a shift of `shift_s` seconds on the session's state.
#[pyfunction]
#[pyo3(signature = (
    session, work_orders, technicians, shift_s, *, travel=None, service_time_s=None,
    exact_up_to=None, time_budget_s=None, seed=None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn maintenance_plan<'py>(
    py: Python<'py>,
    session: &Bound<'py, CorrOptSession>,
    work_orders: Vec<Bound<'py, PyAny>>,
    technicians: u32,
    shift_s: u64,
    travel: Option<(u64, u64, u64)>,
    service_time_s: Option<u64>,
    exact_up_to: Option<usize>,
    time_budget_s: Option<f64>,
    seed: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let orders = work_orders
        .iter()
        .enumerate()
        .map(|(position, order)| work_order(position, order))
        .collect::<PyResult<Vec<_>>>()?;
    let crew = Crew {
        technicians,
        shift_s,
    };
    let (same_rack_s, same_row_s, elsewhere_s) = travel.unwrap_or((0, 0, 0));
    let travel = TravelModel {
        same_rack_s,
        same_row_s,
        elsewhere_s,
    };
    let defaults = PlanOptions::default();
    let options = PlanOptions {
        service_time_s: service_time_s.unwrap_or(defaults.service_time_s),
        exact_up_to: exact_up_to.unwrap_or(defaults.exact_up_to),
        time_budget: time_budget(time_budget_s)?.unwrap_or(defaults.time_budget),
        seed: seed.unwrap_or(defaults.seed),
    };
    let mut session = session.borrow_mut();
    let state = &mut session.state;
    let result = py
        .detach(|| plan(state, &orders, crew, travel, options))
        .map_err(plan_error)?;
    plan_dict(py, &result)
}

/// One work order from its mapping; messages name its position and id.
fn work_order(position: usize, order: &Bound<'_, PyAny>) -> PyResult<WorkOrder> {
    let order = order
        .cast::<PyMapping>()
        .map_err(|_| PyValueError::new_err(format!("work order {position}: must be a mapping")))?;
    let id: u64 = order
        .get_item("id")
        .map_err(|_| PyValueError::new_err(format!("work order {position}: id is missing")))?
        .extract()
        .map_err(|_| {
            PyValueError::new_err(format!(
                "work order {position}: id must be a non-negative integer"
            ))
        })?;
    let name = |key: &str| format!("work order {id}: {key}");
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        order
            .get_item(key)
            .map_err(|_| PyValueError::new_err(format!("{} is missing", name(key))))
    };
    let extract = |key: &str, what: &str| {
        let value = get(key)?;
        Ok::<_, PyErr>((value, format!("{} must be {what}", name(key))))
    };
    let (value, bad) = extract("footprint", "a list of link indices")?;
    let footprint: Vec<u32> = value.extract().map_err(|_| PyValueError::new_err(bad))?;
    let (value, bad) = extract("duration_s", "a whole number of seconds")?;
    let duration_s: u64 = value.extract().map_err(|_| PyValueError::new_err(bad))?;
    let (value, bad) = extract("success_probability", "a number")?;
    let success_probability: f64 = value.extract().map_err(|_| PyValueError::new_err(bad))?;
    let (value, bad) = extract("penalty_rate", "a number")?;
    let penalty_rate: f64 = value.extract().map_err(|_| PyValueError::new_err(bad))?;
    let (value, bad) = extract("rack", "a non-negative integer")?;
    let rack: u32 = value.extract().map_err(|_| PyValueError::new_err(bad))?;
    let (value, bad) = extract("row", "a non-negative integer")?;
    let row: u32 = value.extract().map_err(|_| PyValueError::new_err(bad))?;
    let restoration = match order.get_item("restoration") {
        Ok(value) if !value.is_none() => {
            let bad = || {
                PyValueError::new_err(format!(
                    "{} must be {{\"links\": [link indices], \"penalty_rate\": number}}",
                    name("restoration")
                ))
            };
            let value = value.cast::<PyMapping>().map_err(|_| bad())?;
            let links: Vec<u32> = value
                .get_item("links")
                .and_then(|v| v.extract())
                .map_err(|_| bad())?;
            let penalty_rate: f64 = value
                .get_item("penalty_rate")
                .and_then(|v| v.extract())
                .map_err(|_| bad())?;
            Some(Restoration {
                links,
                penalty_rate,
            })
        }
        _ => None,
    };
    Ok(WorkOrder {
        id,
        footprint,
        duration_s,
        success_probability,
        location: Location { rack, row },
        penalty_rate,
        restoration,
    })
}

fn plan_error(err: PlanError) -> PyErr {
    match err {
        PlanError::CorrOpt(err @ CorrOptError::Path(_)) => corropt_error(err),
        _ => PyValueError::new_err(err.to_string()),
    }
}

fn plan_dict<'py>(py: Python<'py>, plan: &MaintenancePlan) -> PyResult<Bound<'py, PyDict>> {
    let visits = plan
        .visits
        .iter()
        .map(|visit| {
            let dict = PyDict::new(py);
            dict.set_item("technician", visit.technician)?;
            dict.set_item("work_order", visit.work_order)?;
            dict.set_item("start_s", visit.start_s)?;
            dict.set_item("end_s", visit.end_s)?;
            dict.set_item("links_down", &visit.links_down)?;
            dict.set_item("restored", &visit.restored)?;
            Ok(dict)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let dict = PyDict::new(py);
    dict.set_item("visits", visits)?;
    dict.set_item("unscheduled", &plan.unscheduled)?;
    let left_for_later = plan
        .left_for_later
        .iter()
        .map(|left| {
            let dict = PyDict::new(py);
            dict.set_item("work_order", left.work_order)?;
            dict.set_item("reason", left.reason.as_str())?;
            dict.set_item("detail", &left.detail)?;
            Ok(dict)
        })
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("left_for_later", left_for_later)?;
    dict.set_item("expected_penalty_hours", plan.expected_penalty_hours)?;
    dict.set_item("fifo_penalty_hours", plan.fifo_penalty_hours)?;
    dict.set_item("lower_bound", plan.lower_bound)?;
    dict.set_item("gap", plan.gap())?;
    dict.set_item("proven_optimal", plan.proven_optimal)?;
    Ok(dict)
}
