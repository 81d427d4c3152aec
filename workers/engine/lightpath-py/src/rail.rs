//! Python bindings of `lightpath_core::rail`: stretch plans, the worst path,
//! reliability classes and FEC, taking a `FabricGraph` and per-link lists
//! and returning plain dicts. Invalid input raises `ValueError` listing
//! every problem, joined by "; ".

use std::collections::HashMap;

use lightpath_core::rail::{
    self, Classes, CostBreakdown, CostParams, Fiber, LinkLengths, PairFractions, PathCoding,
    PlanConfig, RailError, StretchPlan, StretchReach, Technology, WorstPath,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::FabricGraph;

fn rail_error(err: RailError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

fn technology_dict<'py>(py: Python<'py>, t: &Technology) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &t.name)?;
    d.set_item("speed_gbps", t.speed_gbps)?;
    d.set_item("fiber", t.fiber.as_str())?;
    d.set_item("rated_reach_m", t.rated_reach_m)?;
    d.set_item("price_usd", t.price_usd)?;
    let stretch = PyList::empty(py);
    for s in &t.stretch {
        let e = PyDict::new(py);
        e.set_item("nrb", s.nrb)?;
        e.set_item("reach_m", s.reach_m)?;
        stretch.append(e)?;
    }
    d.set_item("stretch", stretch)?;
    Ok(d)
}

/// The seed's standard technologies (Table 4.2, Appendix D); only the 10G
/// parts have prices.
#[pyfunction]
pub(crate) fn rail_standard_catalog(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    rail::standard_catalog()
        .iter()
        .map(|t| technology_dict(py, t))
        .collect()
}

/// A catalog entry from a dict shaped like `rail_standard_catalog()`'s.
fn technology_from(
    i: usize,
    item: &Bound<'_, PyAny>,
    problems: &mut Vec<String>,
) -> Option<Technology> {
    let at = format!("catalog[{i}]");
    let Ok(d) = item.cast::<PyDict>() else {
        problems.push(format!("{at}: expected an object"));
        return None;
    };
    let field = |key: &str| d.get_item(key).ok().flatten().filter(|v| !v.is_none());
    let name: Option<String> = field("name").and_then(|v| v.extract().ok());
    let speed: Option<u32> = field("speed_gbps").and_then(|v| v.extract().ok());
    let fiber = field("fiber")
        .and_then(|v| v.extract::<String>().ok())
        .and_then(|f| Fiber::parse(&f));
    let rated: Option<f64> = field("rated_reach_m").and_then(|v| v.extract().ok());
    let price = match field("price_usd") {
        None => Some(None),
        Some(v) => v.extract::<f64>().ok().map(Some),
    };
    let mut stretch = Vec::new();
    if let Some(list) = field("stretch") {
        match list.cast::<PyList>() {
            Ok(list) => {
                for (j, e) in list.iter().enumerate() {
                    let pair = e.cast::<PyDict>().ok().and_then(|e| {
                        let nrb = e.get_item("nrb").ok().flatten()?.extract::<f64>().ok()?;
                        let reach_m = e
                            .get_item("reach_m")
                            .ok()
                            .flatten()?
                            .extract::<f64>()
                            .ok()?;
                        Some(StretchReach { nrb, reach_m })
                    });
                    match pair {
                        Some(p) => stretch.push(p),
                        None => problems.push(format!(
                            "{at}.stretch[{j}]: expected {{\"nrb\": number, \"reach_m\": number}}"
                        )),
                    }
                }
            }
            Err(_) => problems.push(format!("{at}.stretch: expected a list")),
        }
    }
    let mut missing = |ok: bool, key: &str, what: &str| {
        if !ok {
            problems.push(format!("{at}.{key}: expected {what}"));
        }
    };
    missing(name.is_some(), "name", "a string");
    missing(speed.is_some(), "speed_gbps", "a positive integer");
    missing(fiber.is_some(), "fiber", "'MMF' or 'SMF'");
    missing(rated.is_some(), "rated_reach_m", "a number");
    missing(price.is_some(), "price_usd", "a number or null");
    Some(Technology {
        name: name?,
        speed_gbps: speed?,
        fiber: fiber?,
        rated_reach_m: rated?,
        price_usd: price?,
        stretch,
    })
}

fn costs_from(costs: Option<HashMap<String, f64>>, problems: &mut Vec<String>) -> CostParams {
    let mut params = CostParams::default();
    for (key, value) in costs.unwrap_or_default() {
        let slot = match key.as_str() {
            "mmf_usd_per_m" => &mut params.mmf_usd_per_m,
            "smf_usd_per_m" => &mut params.smf_usd_per_m,
            "port_usd" => &mut params.port_usd,
            "switch_watts" => &mut params.switch_watts,
            "usd_per_kwh" => &mut params.usd_per_kwh,
            "years" => &mut params.years,
            _ => {
                problems.push(format!(
                    "costs.{key}: unknown (expected mmf_usd_per_m, smf_usd_per_m, port_usd, \
                     switch_watts, usd_per_kwh, years)"
                ));
                continue;
            }
        };
        *slot = value;
    }
    params
}

fn breakdown_dict<'py>(py: Python<'py>, b: &CostBreakdown) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let lines = PyList::empty(py);
    for l in &b.lines {
        let e = PyDict::new(py);
        e.set_item("category", l.category.as_str())?;
        e.set_item("item", &l.item)?;
        e.set_item("unit_usd", l.unit_usd)?;
        e.set_item("unit", l.unit)?;
        e.set_item("quantity", l.quantity)?;
        e.set_item("total_usd", l.total_usd)?;
        lines.append(e)?;
    }
    d.set_item("lines", lines)?;
    d.set_item("total_usd", b.total_usd)?;
    d.set_item("transceiver_share", b.transceiver_share)?;
    Ok(d)
}

fn fractions_dict<'py>(py: Python<'py>, f: &PairFractions) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let per_tor = PyList::empty(py);
    for (i, &tor) in f.tors.iter().enumerate() {
        let e = PyDict::new(py);
        e.set_item("tor", tor)?;
        e.set_item("mean", f.per_tor_mean[i])?;
        e.set_item("min", f.per_tor_min[i].map(|m| m.0))?;
        e.set_item("min_dst", f.per_tor_min[i].map(|m| m.1))?;
        per_tor.append(e)?;
    }
    d.set_item("per_tor", per_tor)?;
    d.set_item(
        "worst_pair",
        match f.worst_pair {
            Some((fraction, src, dst)) => {
                let w = PyDict::new(py);
                w.set_item("src", src)?;
                w.set_item("dst", dst)?;
                w.set_item("fraction", fraction)?;
                Some(w)
            }
            None => None,
        },
    )?;
    d.set_item("mean", f.mean)?;
    d.set_item("quantiles", f.quantiles.clone())?;
    d.set_item("connected_pairs", f.connected_pairs)?;
    d.set_item("disconnected_pairs", f.disconnected_pairs)?;
    Ok(d)
}

fn plan_dict<'py>(
    py: Python<'py>,
    plan: &StretchPlan,
    catalog: &[Technology],
    nrb: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let name = |i: usize| catalog[i].name.as_str();
    d.set_item("nrb", nrb)?;
    d.set_item("max_hops", plan.max_hops)?;
    d.set_item("link_bound", plan.link_bound)?;
    d.set_item("savings", plan.savings)?;
    d.set_item("stretched_links", plan.stretched_links)?;
    d.set_item("min_p_good", plan.min_p_good)?;
    // Theorem 3: every path, and so the expected good fraction, is at least l^h.
    d.set_item(
        "path_bound",
        plan.min_p_good
            .powi(i32::try_from(plan.max_hops).unwrap_or(i32::MAX)),
    )?;
    d.set_item("baseline", breakdown_dict(py, &plan.baseline)?)?;
    d.set_item("plan", breakdown_dict(py, &plan.plan)?)?;
    let links = PyList::empty(py);
    for (i, c) in plan.links.iter().enumerate() {
        let e = PyDict::new(py);
        e.set_item("link", i)?;
        e.set_item("baseline", name(c.baseline))?;
        e.set_item("plan", name(c.plan))?;
        e.set_item("stretched", c.stretched)?;
        e.set_item("p_good", c.p_good)?;
        e.set_item("baseline_usd", c.baseline_usd)?;
        e.set_item("plan_usd", c.plan_usd)?;
        links.append(e)?;
    }
    d.set_item("links", links)?;
    let bands = PyList::empty(py);
    for b in &plan.bands {
        let e = PyDict::new(py);
        e.set_item("from_m", b.from_m)?;
        e.set_item("to_m", b.to_m)?;
        e.set_item("share", b.share)?;
        e.set_item("baseline", name(b.baseline))?;
        e.set_item("plan", name(b.plan))?;
        e.set_item("stretched", b.stretched)?;
        e.set_item("p_good", b.p_good)?;
        bands.append(e)?;
    }
    d.set_item("bands", bands)?;
    d.set_item(
        "good_paths",
        plan.good_paths
            .as_ref()
            .map(|f| fractions_dict(py, f))
            .transpose()?,
    )?;
    let sweeps = PyList::empty(py);
    for curve in &plan.sweeps {
        let e = PyDict::new(py);
        e.set_item("nrb", curve.nrb)?;
        let points: Vec<(f64, Option<f64>)> = curve
            .points
            .iter()
            .map(|p| (p.max_length_m, p.savings))
            .collect();
        e.set_item("points", points)?;
        sweeps.append(e)?;
    }
    d.set_item("sweeps", sweeps)?;
    Ok(d)
}

/// Stretch plan of a fabric: per-link lengths (`length_m` with `speed_gbps`,
/// one int or one per link) or `uniform=(min_m, max_m)` at `speed_gbps`.
#[pyfunction]
#[pyo3(signature = (
    graph, *, length_m=None, speed_gbps=None, uniform=None, nrb=None, catalog=None, prices=None,
    costs=None, max_hops=None, sweep_max_lengths_m=None, sweep_nrbs=None, quantiles=None,
    pair_stats=true
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rail_plan<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    length_m: Option<Vec<f64>>,
    speed_gbps: Option<&Bound<'py, PyAny>>,
    uniform: Option<(f64, f64)>,
    nrb: Option<f64>,
    catalog: Option<Vec<Bound<'py, PyAny>>>,
    prices: Option<HashMap<String, f64>>,
    costs: Option<HashMap<String, f64>>,
    max_hops: Option<u32>,
    sweep_max_lengths_m: Option<Vec<f64>>,
    sweep_nrbs: Option<Vec<f64>>,
    quantiles: Option<Vec<f64>>,
    pair_stats: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let core = &graph.get().inner;
    let mut problems = Vec::new();
    let mut config = PlanConfig::seed(nrb);
    if let Some(items) = catalog {
        config.catalog = items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| technology_from(i, item, &mut problems))
            .collect();
    }
    for (name, price) in prices.unwrap_or_default() {
        match config.catalog.iter_mut().find(|t| t.name == name) {
            Some(t) => t.price_usd = Some(price),
            None => problems.push(format!("prices.{name}: no such technology in the catalog")),
        }
    }
    config.costs = costs_from(costs, &mut problems);
    config.max_hops = max_hops;
    if let Some(lengths) = sweep_max_lengths_m {
        config.sweep_max_lengths_m = lengths;
    }
    if let Some(nrbs) = sweep_nrbs {
        config.sweep_nrbs = nrbs;
    }
    if let Some(q) = quantiles {
        config.quantiles = q;
    }
    config.pair_stats = pair_stats;
    let speeds: Option<Vec<u32>> = match speed_gbps {
        None => None,
        Some(v) => match v.extract::<u32>() {
            Ok(one) => Some(vec![one; core.num_links()]),
            Err(_) => match v.extract::<Vec<u32>>() {
                Ok(many) => Some(many),
                Err(_) => {
                    problems.push("speed_gbps: expected an int or one int per link".into());
                    None
                }
            },
        },
    };
    let lengths = match (length_m, uniform) {
        (Some(length_m), None) => Some(LinkLengths::PerLink {
            length_m,
            speed_gbps: speeds.unwrap_or_else(|| vec![10; core.num_links()]),
        }),
        (None, Some((min_m, max_m))) => Some(LinkLengths::Uniform {
            min_m,
            max_m,
            speed_gbps: speeds.and_then(|s| s.first().copied()).unwrap_or(10),
        }),
        _ => {
            problems
                .push("lengths: give either length_m (per link) or uniform=(min_m, max_m)".into());
            None
        }
    };
    RailError::check(problems).map_err(rail_error)?;
    let lengths = lengths.expect("checked");
    let plan = py
        .detach(|| rail::plan_stretch(core, &lengths, &config))
        .map_err(rail_error)?;
    plan_dict(py, &plan, &config.catalog, nrb)
}

fn path_dict<'py>(py: Python<'py>, w: &WorstPath) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("loss", w.loss)?;
    d.set_item("src", w.src)?;
    d.set_item("dst", w.dst)?;
    d.set_item("top", w.top)?;
    let hops = PyList::empty(py);
    for h in &w.hops {
        let e = PyDict::new(py);
        e.set_item("link", h.link)?;
        e.set_item("upward", h.upward)?;
        e.set_item("loss", h.loss)?;
        hops.append(e)?;
    }
    d.set_item("hops", hops)?;
    Ok(d)
}

/// The worst ECMP path over the `usable` links (all if None), or None.
#[pyfunction]
#[pyo3(signature = (graph, loss_up, loss_down, usable=None))]
pub(crate) fn rail_worst_path<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    loss_up: Vec<f64>,
    loss_down: Vec<f64>,
    usable: Option<Vec<bool>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let core = &graph.get().inner;
    let usable = usable.unwrap_or_else(|| vec![true; core.num_links()]);
    let worst = py
        .detach(|| rail::worst_path(core, &usable, &loss_up, &loss_down))
        .map_err(rail_error)?;
    worst.map(|w| path_dict(py, &w)).transpose()
}

fn coding_dict<'py>(py: Python<'py>, c: &PathCoding, target: f64) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("target", target)?;
    d.set_item("paths", c.paths)?;
    d.set_item("uncoded", c.uncoded)?;
    d.set_item("xor", c.xor)?;
    d.set_item("replicated", c.replicated)?;
    d.set_item("unusable", c.unusable)?;
    d.set_item("mean_overhead", c.mean_overhead)?;
    d.set_item("max_overhead", c.max_overhead)?;
    Ok(d)
}

/// Nested reliability classes over the `alive` links (all if None), with
/// per class its links, worst path, the share of each ToR pair's paths it
/// keeps and how its paths would be coded for `fec_target`.
#[pyfunction]
#[pyo3(signature = (
    graph, loss_up, loss_down, alive=None, bounds=None, repair_above=rail::DEFAULT_REPAIR_ABOVE,
    fec_target=rail::fec::DEFAULT_TARGET, quantiles=None, pair_stats=true
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rail_classes<'py>(
    py: Python<'py>,
    graph: &Bound<'py, FabricGraph>,
    loss_up: Vec<f64>,
    loss_down: Vec<f64>,
    alive: Option<Vec<bool>>,
    bounds: Option<Vec<f64>>,
    repair_above: f64,
    fec_target: f64,
    quantiles: Option<Vec<f64>>,
    pair_stats: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let core = &graph.get().inner;
    let alive = alive.unwrap_or_else(|| vec![true; core.num_links()]);
    let bounds = bounds.unwrap_or_else(|| rail::DEFAULT_BOUNDS.to_vec());
    let quantiles = quantiles.unwrap_or_else(|| vec![0.0001, 0.01, 0.05, 0.5]);
    if !(fec_target > 0.0 && fec_target < 1.0) {
        return Err(PyValueError::new_err(format!(
            "fec_target: {fec_target} is not a fraction in (0, 1)"
        )));
    }
    type Stats = Vec<(Option<PairFractions>, Option<PathCoding>)>;
    let (classes, stats): (Classes, Stats) = py
        .detach(|| {
            let classes =
                rail::build_classes(core, &alive, &loss_up, &loss_down, &bounds, repair_above)?;
            let mut stats = Vec::new();
            for class in &classes.classes {
                if !pair_stats {
                    stats.push((None, None));
                    continue;
                }
                let kept: Vec<f64> = class
                    .members
                    .iter()
                    .map(|&m| if m { 1.0 } else { 0.0 })
                    .collect();
                let fractions = rail::pair_fractions(core, &alive, &kept, &kept, &quantiles)?;
                let coding =
                    rail::code_paths(core, &class.members, &loss_up, &loss_down, fec_target)?;
                stats.push((Some(fractions), Some(coding)));
            }
            Ok::<_, RailError>((classes, stats))
        })
        .map_err(rail_error)?;
    let d = PyDict::new(py);
    d.set_item("repair", classes.repair.clone())?;
    let list = PyList::empty(py);
    for (class, (fractions, coding)) in classes.classes.iter().zip(&stats) {
        let e = PyDict::new(py);
        e.set_item("bound", class.bound)?;
        let links: Vec<usize> = (0..class.members.len())
            .filter(|&l| class.members[l])
            .collect();
        e.set_item("links", links)?;
        e.set_item("removed", class.removed.clone())?;
        e.set_item(
            "worst",
            class.worst.as_ref().map(|w| path_dict(py, w)).transpose()?,
        )?;
        e.set_item(
            "kept_paths",
            fractions
                .as_ref()
                .map(|f| fractions_dict(py, f))
                .transpose()?,
        )?;
        e.set_item(
            "fec",
            coding
                .as_ref()
                .map(|c| coding_dict(py, c, fec_target))
                .transpose()?,
        )?;
        list.append(e)?;
    }
    d.set_item("classes", list)?;
    Ok(d)
}

/// The coding of one path with loss rate `loss` for target `target`.
#[pyfunction]
#[pyo3(signature = (loss, target=rail::fec::DEFAULT_TARGET))]
pub(crate) fn rail_fec(py: Python<'_>, loss: f64, target: f64) -> PyResult<Bound<'_, PyDict>> {
    let c = rail::fec::choose(loss, target).map_err(rail_error)?;
    let d = PyDict::new(py);
    let (scheme, n) = match c.scheme {
        rail::FecScheme::None => ("none", None),
        rail::FecScheme::Xor { n } => ("xor", Some(n)),
        rail::FecScheme::Replicate3 => ("replicate3", None),
        rail::FecScheme::Unusable => ("unusable", None),
    };
    d.set_item("loss", loss)?;
    d.set_item("target", target)?;
    d.set_item("scheme", scheme)?;
    d.set_item("n", n)?;
    d.set_item("residual_loss", c.residual_loss)?;
    d.set_item("overhead", c.overhead)?;
    Ok(d)
}

/// `q(n, p)`: the loss XOR(n) leaves on a path losing `p`.
#[pyfunction]
pub(crate) fn rail_xor_residual(n: u64, p: f64) -> PyResult<f64> {
    if !(0.0..=1.0).contains(&p) || n == 0 {
        return Err(PyValueError::new_err(format!(
            "need n >= 1 and p in [0, 1], got n={n}, p={p}"
        )));
    }
    Ok(rail::fec::xor_residual(n, p))
}

/// Adds the RAIL functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rail_standard_catalog, m)?)?;
    m.add_function(wrap_pyfunction!(rail_plan, m)?)?;
    m.add_function(wrap_pyfunction!(rail_worst_path, m)?)?;
    m.add_function(wrap_pyfunction!(rail_classes, m)?)?;
    m.add_function(wrap_pyfunction!(rail_fec, m)?)?;
    m.add_function(wrap_pyfunction!(rail_xor_residual, m)?)?;
    Ok(())
}
