//! Stretch costing (seed §4.2, §4.6.1, Appendix B): per link, the cheapest
//! technology whose *rated* reach covers it (baseline) against the cheapest
//! whose *stretched* reach at the network reliability bound (NRB) covers it
//! (plan); the cost of both in the categories of the seed's Table 4.1; the
//! expected fraction of good paths; and savings against the maximum link
//! length (Figure 4.13).
//!
//! A link costs two transceivers plus its fiber; the cheapest choice is by
//! that total, ties going to the larger reach margin. The plan may choose
//! among strictly more parts than the baseline, so it never costs more, and
//! lowering the NRB only adds parts.
//!
//! Probability of a good link (Appendix B): a stretched link, used beyond its
//! rated reach under the stretch entry of bound `B`, is good with probability
//! `B^(1/h)` (`h` = hops of the longest path), the per-link bound the stretch
//! table was built for; a link within its rated reach is good. By Lemma 2 and
//! Theorem 3 every path is then good with probability at least
//! `prod p >= B^(h/h)`, and the expected good fraction is at least the NRB.
//!
//! Lengths come per link (a fabric document) or as a uniform distribution
//! over `[min, max]` for every link; the latter is the seed's expected-value
//! model: the share of links choosing each part is exact, transceiver counts
//! are those shares of the link count rounded to whole links (largest
//! remainder, so they add up), and fiber is the exact expected length. That
//! is how Table 4.1 reads: 60 % of 16,384 links at most 300 m gives 9,830 SR
//! links, and 1,474.56 km of MMF.

use super::RailError;
use super::catalog::{CostParams, Fiber, Technology, catalog_problems};
use super::pairs::{PairFractions, compute as pair_compute};
use crate::fabric::FabricGraph;

/// Hours in a year of 365 days.
const HOURS_PER_YEAR: f64 = 8760.0;

/// Link lengths of a plan.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkLengths {
    /// One length and speed per link of the fabric.
    PerLink {
        /// Metres, per link.
        length_m: Vec<f64>,
        /// Gb/s, per link.
        speed_gbps: Vec<u32>,
    },
    /// Every link's length uniform on `[min_m, max_m]`, all at one speed.
    Uniform {
        /// Shortest length.
        min_m: f64,
        /// Longest length.
        max_m: f64,
        /// Speed of every link.
        speed_gbps: u32,
    },
}

/// What to plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanConfig {
    /// Technologies to choose from.
    pub catalog: Vec<Technology>,
    /// Prices besides transceivers.
    pub costs: CostParams,
    /// Network reliability bound of the plan; `None` plans without stretch.
    pub nrb: Option<f64>,
    /// Hops of the longest path; `None`: `2 (tiers - 1)`.
    pub max_hops: Option<u32>,
    /// Maximum link lengths of the savings sweep (uniform from 0 to each).
    pub sweep_max_lengths_m: Vec<f64>,
    /// Stretch levels of the sweep: one curve per NRB, plus one without stretch.
    pub sweep_nrbs: Vec<f64>,
    /// Quantiles of the per-pair good fractions to report.
    pub quantiles: Vec<f64>,
    /// Whether to compute per-pair good-path fractions (all ToR pairs).
    pub pair_stats: bool,
}

impl PlanConfig {
    /// The seed's setting: standard catalog, seed costs, no stretch, sweeps
    /// of 0 to 1000 m every 10 m for NRB 0.99 and 0.95.
    pub fn seed(nrb: Option<f64>) -> Self {
        Self {
            catalog: super::catalog::standard_catalog(),
            costs: CostParams::default(),
            nrb,
            max_hops: None,
            sweep_max_lengths_m: (0..=100).map(|i| f64::from(i) * 10.0).collect(),
            sweep_nrbs: vec![0.99, 0.95],
            quantiles: vec![0.0001, 0.01, 0.05, 0.5],
            pair_stats: true,
        }
    }
}

/// The choice for one link (per-link mode).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkChoice {
    /// Catalog index of the baseline's part.
    pub baseline: usize,
    /// Catalog index of the plan's part.
    pub plan: usize,
    /// Whether the plan uses its part beyond the rated reach.
    pub stretched: bool,
    /// Probability that the link is good in the plan.
    pub p_good: f64,
    /// Cost of the link (two parts and fiber) in the baseline.
    pub baseline_usd: f64,
    /// Cost of the link in the plan.
    pub plan_usd: f64,
}

/// A range of lengths over which the choice is the same (uniform mode).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LengthBand {
    /// Start of the range, metres.
    pub from_m: f64,
    /// End of the range, metres.
    pub to_m: f64,
    /// Share of the links in the range.
    pub share: f64,
    /// Catalog index of the baseline's part.
    pub baseline: usize,
    /// Catalog index of the plan's part.
    pub plan: usize,
    /// Whether the plan stretches its part there.
    pub stretched: bool,
    /// Probability that such a link is good in the plan.
    pub p_good: f64,
}

/// What a cost line counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostCategory {
    /// Transceivers of one technology.
    Transceivers,
    /// Fiber of one type.
    Fiber,
    /// Switch ports.
    SwitchPorts,
    /// Switch energy over the period.
    Power,
}

impl CostCategory {
    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            CostCategory::Transceivers => "transceivers",
            CostCategory::Fiber => "fiber",
            CostCategory::SwitchPorts => "switch_ports",
            CostCategory::Power => "power",
        }
    }
}

/// One row of Table 4.1.
#[derive(Debug, Clone, PartialEq)]
pub struct CostLine {
    /// Category.
    pub category: CostCategory,
    /// Technology name, "MMF"/"SMF", "ports" or "energy".
    pub item: String,
    /// Price per unit.
    pub unit_usd: f64,
    /// The unit: "part", "m", "port" or "kWh".
    pub unit: &'static str,
    /// Units used (parts, metres, ports, kWh).
    pub quantity: f64,
    /// `unit_usd * quantity`.
    pub total_usd: f64,
}

/// The cost of one design.
#[derive(Debug, Clone, PartialEq)]
pub struct CostBreakdown {
    /// Transceivers by technology (catalog order, unused ones left out),
    /// fiber by type, switch ports, power.
    pub lines: Vec<CostLine>,
    /// Sum of the lines.
    pub total_usd: f64,
    /// Transceivers' share of the total.
    pub transceiver_share: f64,
}

/// A point of a savings curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweepPoint {
    /// Link lengths uniform on `[0, max_length_m]`.
    pub max_length_m: f64,
    /// `1 - plan / baseline`, `None` if some link length has no part.
    pub savings: Option<f64>,
}

/// Savings against the maximum link length at one stretch level.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepCurve {
    /// The NRB of the curve, `None` for no stretch.
    pub nrb: Option<f64>,
    /// The points, in the order of `sweep_max_lengths_m`.
    pub points: Vec<SweepPoint>,
}

/// A stretch plan and its baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct StretchPlan {
    /// Hops of the longest path used for the per-link bound.
    pub max_hops: u32,
    /// `nrb^(1/h)`, the probability each link must be good at least.
    pub link_bound: Option<f64>,
    /// Per link (per-link mode; empty otherwise).
    pub links: Vec<LinkChoice>,
    /// Per length range (uniform mode; empty otherwise).
    pub bands: Vec<LengthBand>,
    /// Links (or expected links) the plan stretches.
    pub stretched_links: f64,
    /// Lowest per-link probability of being good.
    pub min_p_good: f64,
    /// Cost without stretch.
    pub baseline: CostBreakdown,
    /// Cost with stretch.
    pub plan: CostBreakdown,
    /// `1 - plan / baseline` (0 when the baseline costs nothing).
    pub savings: f64,
    /// Expected good-path fractions per ToR pair, if asked for.
    pub good_paths: Option<PairFractions>,
    /// Savings curves: no stretch first, then one per sweep NRB.
    pub sweeps: Vec<SweepCurve>,
}

/// The cheapest part of `speed` covering `length` with reaches from
/// `nrb`: (catalog index, link cost, reach bound used when stretched).
fn cheapest(
    catalog: &[Technology],
    costs: &CostParams,
    speed: u32,
    length: f64,
    nrb: Option<f64>,
) -> Option<(usize, f64, Option<f64>)> {
    let mut best: Option<(usize, f64, f64, Option<f64>)> = None;
    for (i, t) in catalog.iter().enumerate() {
        if t.speed_gbps != speed {
            continue;
        }
        let Some(price) = t.price_usd else { continue };
        let (reach, bound) = t.reach_at(nrb);
        if reach < length {
            continue;
        }
        let cost = 2.0 * price + length * costs.fiber_usd_per_m(t.fiber);
        let margin = reach - length;
        if best.is_none_or(|b| cost < b.1 || (cost == b.1 && margin > b.2)) {
            best = Some((i, cost, margin, bound));
        }
    }
    best.map(|(i, cost, _, bound)| (i, cost, bound))
}

/// Probability that a link of `length` on part `t` is good in a plan.
fn p_good(t: &Technology, length: f64, bound: Option<f64>, hops: u32) -> f64 {
    match bound {
        Some(b) if length > t.rated_reach_m => b.powf(1.0 / f64::from(hops)),
        _ => 1.0,
    }
}

fn validate(
    graph: &FabricGraph,
    lengths: &LinkLengths,
    config: &PlanConfig,
) -> Result<u32, RailError> {
    let mut problems = Vec::new();
    catalog_problems(&config.catalog, &mut problems);
    config.costs.problems(&mut problems);
    if let Some(nrb) = config.nrb
        && !(nrb > 0.0 && nrb <= 1.0)
    {
        problems.push(format!("nrb: {nrb} is not a fraction in (0, 1]"));
    }
    for (i, &nrb) in config.sweep_nrbs.iter().enumerate() {
        if !(nrb > 0.0 && nrb <= 1.0) {
            problems.push(format!(
                "sweep_nrbs[{i}]: {nrb} is not a fraction in (0, 1]"
            ));
        }
    }
    for (i, &l) in config.sweep_max_lengths_m.iter().enumerate() {
        if !(l.is_finite() && l >= 0.0) {
            problems.push(format!(
                "sweep_max_lengths_m[{i}]: {l} is not a non-negative length"
            ));
        }
    }
    for &q in &config.quantiles {
        if !(0.0..=1.0).contains(&q) {
            problems.push(format!("quantiles: {q} is not in [0, 1]"));
        }
    }
    let hops = config
        .max_hops
        .unwrap_or(2 * (graph.num_tiers().max(1) - 1))
        .max(1);
    if config.max_hops == Some(0) {
        problems.push("max_hops: expected at least 1".into());
    }
    let speeds: Vec<u32> = match lengths {
        LinkLengths::PerLink {
            length_m,
            speed_gbps,
        } => {
            let n = graph.num_links();
            if length_m.len() != n {
                problems.push(format!(
                    "length_m: expected one value per link ({n}), got {}",
                    length_m.len()
                ));
            }
            if speed_gbps.len() != n {
                problems.push(format!(
                    "speed_gbps: expected one value per link ({n}), got {}",
                    speed_gbps.len()
                ));
            }
            let bad: Vec<usize> = length_m
                .iter()
                .enumerate()
                .filter(|(_, l)| !(l.is_finite() && **l >= 0.0))
                .map(|(i, _)| i)
                .collect();
            for &i in bad.iter().take(10) {
                problems.push(format!(
                    "length_m[{i}]: {} is not a non-negative length",
                    length_m[i]
                ));
            }
            let mut s = speed_gbps.clone();
            s.sort_unstable();
            s.dedup();
            s
        }
        LinkLengths::Uniform {
            min_m,
            max_m,
            speed_gbps,
        } => {
            if !(min_m.is_finite() && *min_m >= 0.0 && max_m.is_finite() && max_m >= min_m) {
                problems.push(format!(
                    "lengths: [{min_m}, {max_m}] is not a range of lengths"
                ));
            }
            vec![*speed_gbps]
        }
    };
    for &speed in &speeds {
        let parts: Vec<&Technology> = config
            .catalog
            .iter()
            .filter(|t| t.speed_gbps == speed)
            .collect();
        if parts.is_empty() {
            problems.push(format!("speed {speed} Gb/s: no technology in the catalog"));
        }
        for t in parts {
            if t.price_usd.is_none() {
                problems.push(format!(
                    "{}: price unknown (the seed gives only 10G prices)",
                    t.name
                ));
            }
        }
    }
    RailError::check(problems)?;
    // Every length must have a part even without stretch.
    let mut problems = Vec::new();
    let longest = |speed: u32| {
        config
            .catalog
            .iter()
            .filter(|t| t.speed_gbps == speed)
            .map(|t| t.rated_reach_m)
            .fold(0.0, f64::max)
    };
    match lengths {
        LinkLengths::PerLink {
            length_m,
            speed_gbps,
        } => {
            let mut count = 0;
            for (i, (&l, &s)) in length_m.iter().zip(speed_gbps).enumerate() {
                if l > longest(s) {
                    count += 1;
                    if count <= 10 {
                        problems.push(format!(
                            "links[{i}]: {l} m is beyond the longest rated reach at {s} Gb/s ({} m)",
                            longest(s)
                        ));
                    }
                }
            }
            if count > 10 {
                problems.push(format!(
                    "{} more links beyond every rated reach",
                    count - 10
                ));
            }
        }
        LinkLengths::Uniform {
            max_m, speed_gbps, ..
        } => {
            if *max_m > longest(*speed_gbps) {
                problems.push(format!(
                    "lengths: {max_m} m is beyond the longest rated reach at {speed_gbps} Gb/s ({} m)",
                    longest(*speed_gbps)
                ));
            }
        }
    }
    RailError::check(problems)?;
    Ok(hops)
}

/// Accumulates quantities per cost line.
struct Tally {
    parts: Vec<f64>,
    fiber_m: [f64; 2],
}

impl Tally {
    fn new(catalog: &[Technology]) -> Self {
        Self {
            parts: vec![0.0; catalog.len()],
            fiber_m: [0.0; 2],
        }
    }

    fn add(&mut self, catalog: &[Technology], part: usize, links: f64, metres: f64) {
        self.parts[part] += 2.0 * links;
        self.fiber_m[fiber_index(catalog[part].fiber)] += metres;
    }

    fn breakdown(
        &self,
        catalog: &[Technology],
        costs: &CostParams,
        graph_links: f64,
        switches: f64,
    ) -> CostBreakdown {
        let mut lines = Vec::new();
        for (i, &count) in self.parts.iter().enumerate() {
            if count > 0.0 {
                let price = catalog[i].price_usd.unwrap_or(0.0);
                lines.push(CostLine {
                    category: CostCategory::Transceivers,
                    item: catalog[i].name.clone(),
                    unit_usd: price,
                    unit: "part",
                    quantity: count,
                    total_usd: price * count,
                });
            }
        }
        for fiber in [Fiber::Mmf, Fiber::Smf] {
            let metres = self.fiber_m[fiber_index(fiber)];
            let price = costs.fiber_usd_per_m(fiber);
            lines.push(CostLine {
                category: CostCategory::Fiber,
                item: fiber.as_str().into(),
                unit_usd: price,
                unit: "m",
                quantity: metres,
                total_usd: price * metres,
            });
        }
        let ports = 2.0 * graph_links;
        lines.push(CostLine {
            category: CostCategory::SwitchPorts,
            item: "ports".into(),
            unit_usd: costs.port_usd,
            unit: "port",
            quantity: ports,
            total_usd: costs.port_usd * ports,
        });
        let kwh = switches * costs.switch_watts / 1000.0 * costs.years * HOURS_PER_YEAR;
        lines.push(CostLine {
            category: CostCategory::Power,
            item: "energy".into(),
            unit_usd: costs.usd_per_kwh,
            unit: "kWh",
            quantity: kwh,
            total_usd: costs.usd_per_kwh * kwh,
        });
        let total: f64 = lines.iter().map(|l| l.total_usd).sum();
        let parts: f64 = lines
            .iter()
            .filter(|l| l.category == CostCategory::Transceivers)
            .map(|l| l.total_usd)
            .sum();
        CostBreakdown {
            lines,
            total_usd: total,
            transceiver_share: if total > 0.0 { parts / total } else { 0.0 },
        }
    }
}

fn fiber_index(fiber: Fiber) -> usize {
    match fiber {
        Fiber::Mmf => 0,
        Fiber::Smf => 1,
    }
}

/// Shares of `n` rounded to whole numbers that add up to `round(n)`
/// (largest remainder; ties to the earlier entry).
fn largest_remainder(expected: &[f64], n: f64) -> Vec<f64> {
    let mut whole: Vec<f64> = expected.iter().map(|e| e.floor()).collect();
    let missing = (n.round() - whole.iter().sum::<f64>()).max(0.0) as usize;
    let mut order: Vec<usize> = (0..expected.len()).collect();
    order.sort_by(|&a, &b| {
        (expected[b] - whole[b])
            .total_cmp(&(expected[a] - whole[a]))
            .then(a.cmp(&b))
    });
    for &i in order.iter().take(missing) {
        whole[i] += 1.0;
    }
    whole
}

/// Ranges of `[min, max]` on which the baseline and plan choices are
/// constant: cut at every reach and at every length where two parts' link
/// costs cross.
fn bands(
    catalog: &[Technology],
    costs: &CostParams,
    speed: u32,
    min: f64,
    max: f64,
    nrb: Option<f64>,
    hops: u32,
) -> Vec<LengthBand> {
    let choose = |l: f64| {
        let base = cheapest(catalog, costs, speed, l, None)
            .expect("validated: a part covers every length");
        let plan =
            cheapest(catalog, costs, speed, l, nrb).expect("the plan has the baseline's parts");
        (base.0, plan.0, plan.2)
    };
    let band = |from: f64, to: f64, share: f64, at: f64| {
        let (baseline, plan, bound) = choose(at);
        let stretched = at > catalog[plan].rated_reach_m;
        LengthBand {
            from_m: from,
            to_m: to,
            share,
            baseline,
            plan,
            stretched,
            p_good: p_good(&catalog[plan], at, bound, hops),
        }
    };
    if max <= min {
        return vec![band(min, max, 1.0, min)];
    }
    let parts: Vec<&Technology> = catalog.iter().filter(|t| t.speed_gbps == speed).collect();
    let mut cuts = vec![min, max];
    for t in &parts {
        cuts.push(t.rated_reach_m);
        cuts.push(t.reach_at(nrb).0);
        for u in &parts {
            let (fa, fb) = (
                costs.fiber_usd_per_m(t.fiber),
                costs.fiber_usd_per_m(u.fiber),
            );
            if fa != fb {
                let l = 2.0 * (u.price_usd.unwrap_or(0.0) - t.price_usd.unwrap_or(0.0)) / (fa - fb);
                cuts.push(l);
            }
        }
    }
    cuts.retain(|&c| c.is_finite() && c >= min && c <= max);
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let width = max - min;
    let mut out: Vec<LengthBand> = Vec::new();
    for w in cuts.windows(2) {
        let b = band(w[0], w[1], (w[1] - w[0]) / width, 0.5 * (w[0] + w[1]));
        match out.last_mut() {
            Some(last)
                if last.baseline == b.baseline
                    && last.plan == b.plan
                    && last.stretched == b.stretched
                    && last.p_good == b.p_good =>
            {
                last.to_m = b.to_m;
                last.share += b.share;
            }
            _ => out.push(b),
        }
    }
    out
}

/// Baseline and plan tallies of `n` links uniform on `[min, max]`.
fn uniform_tallies(catalog: &[Technology], bands: &[LengthBand], n: f64) -> (Tally, Tally) {
    let mut out = (Tally::new(catalog), Tally::new(catalog));
    for (tally, pick) in [(&mut out.0, 0), (&mut out.1, 1)] {
        let mut expected = vec![0.0; catalog.len()];
        for b in bands {
            let part = if pick == 0 { b.baseline } else { b.plan };
            expected[part] += b.share * n;
            tally.fiber_m[fiber_index(catalog[part].fiber)] +=
                b.share * n * 0.5 * (b.from_m + b.to_m);
        }
        for (part, links) in largest_remainder(&expected, n).into_iter().enumerate() {
            tally.parts[part] = 2.0 * links;
        }
    }
    out
}

/// Costs the fabric with and without stretch.
pub fn plan_stretch(
    graph: &FabricGraph,
    lengths: &LinkLengths,
    config: &PlanConfig,
) -> Result<StretchPlan, RailError> {
    let hops = validate(graph, lengths, config)?;
    let catalog = &config.catalog;
    let costs = &config.costs;
    let n_links = graph.num_links() as f64;
    let switches = graph.num_switches() as f64;
    let (mut links, mut band_list) = (Vec::new(), Vec::new());
    let (base_tally, plan_tally, p_values): (Tally, Tally, Vec<f64>);
    match lengths {
        LinkLengths::PerLink {
            length_m,
            speed_gbps,
        } => {
            let (mut base, mut plan) = (Tally::new(catalog), Tally::new(catalog));
            for (&l, &s) in length_m.iter().zip(speed_gbps) {
                let b = cheapest(catalog, costs, s, l, None).expect("validated");
                let p =
                    cheapest(catalog, costs, s, l, config.nrb).expect("superset of the baseline");
                base.add(catalog, b.0, 1.0, l);
                plan.add(catalog, p.0, 1.0, l);
                links.push(LinkChoice {
                    baseline: b.0,
                    plan: p.0,
                    stretched: l > catalog[p.0].rated_reach_m,
                    p_good: p_good(&catalog[p.0], l, p.2, hops),
                    baseline_usd: b.1,
                    plan_usd: p.1,
                });
            }
            p_values = links.iter().map(|c| c.p_good).collect();
            (base_tally, plan_tally) = (base, plan);
        }
        LinkLengths::Uniform {
            min_m,
            max_m,
            speed_gbps,
        } => {
            band_list = bands(
                catalog,
                costs,
                *speed_gbps,
                *min_m,
                *max_m,
                config.nrb,
                hops,
            );
            (base_tally, plan_tally) = uniform_tallies(catalog, &band_list, n_links);
            let mean_p: f64 = band_list.iter().map(|b| b.share * b.p_good).sum();
            p_values = vec![mean_p.min(1.0); graph.num_links()];
        }
    }
    let baseline = base_tally.breakdown(catalog, costs, n_links, switches);
    let plan = plan_tally.breakdown(catalog, costs, n_links, switches);
    let savings = if baseline.total_usd > 0.0 {
        1.0 - plan.total_usd / baseline.total_usd
    } else {
        0.0
    };
    let stretched_links = if links.is_empty() {
        // fold from +0.0: f64's sum() of nothing is -0.0, shown as "-0 links stretched".
        band_list
            .iter()
            .filter(|b| b.stretched)
            .fold(0.0, |total, b| total + b.share * n_links)
    } else {
        links.iter().filter(|c| c.stretched).count() as f64
    };
    let min_p_good = if links.is_empty() {
        band_list.iter().map(|b| b.p_good).fold(1.0, f64::min)
    } else {
        links.iter().map(|c| c.p_good).fold(1.0, f64::min)
    };
    let good_paths = config.pair_stats.then(|| {
        pair_compute(
            graph,
            &vec![true; graph.num_links()],
            &p_values,
            &p_values,
            &config.quantiles,
        )
    });
    let sweep_speed = match lengths {
        LinkLengths::Uniform { speed_gbps, .. } => *speed_gbps,
        LinkLengths::PerLink { speed_gbps, .. } => most_common(speed_gbps).unwrap_or(10),
    };
    let sweeps = std::iter::once(None)
        .chain(config.sweep_nrbs.iter().map(|&b| Some(b)))
        .map(|nrb| SweepCurve {
            nrb,
            points: config
                .sweep_max_lengths_m
                .iter()
                .map(|&max| SweepPoint {
                    max_length_m: max,
                    savings: sweep_savings(
                        catalog,
                        costs,
                        sweep_speed,
                        max,
                        nrb,
                        hops,
                        n_links,
                        switches,
                    ),
                })
                .collect(),
        })
        .collect();
    Ok(StretchPlan {
        max_hops: hops,
        link_bound: config.nrb.map(|b| b.powf(1.0 / f64::from(hops))),
        links,
        bands: band_list,
        stretched_links,
        min_p_good,
        baseline,
        plan,
        savings,
        good_paths,
        sweeps,
    })
}

#[allow(clippy::too_many_arguments)]
fn sweep_savings(
    catalog: &[Technology],
    costs: &CostParams,
    speed: u32,
    max: f64,
    nrb: Option<f64>,
    hops: u32,
    n_links: f64,
    switches: f64,
) -> Option<f64> {
    cheapest(catalog, costs, speed, max, None)?;
    let b = bands(catalog, costs, speed, 0.0, max, nrb, hops);
    let (base, plan) = uniform_tallies(catalog, &b, n_links);
    let base = base.breakdown(catalog, costs, n_links, switches).total_usd;
    let plan = plan.breakdown(catalog, costs, n_links, switches).total_usd;
    Some(if base > 0.0 { 1.0 - plan / base } else { 0.0 })
}

fn most_common(values: &[u32]) -> Option<u32> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted
        .chunk_by(|a, b| a == b)
        .max_by_key(|run| run.len())
        .map(|run| run[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::generators::fat_tree;

    fn line<'a>(b: &'a CostBreakdown, item: &str) -> &'a CostLine {
        b.lines.iter().find(|l| l.item == item).unwrap()
    }

    #[test]
    fn reproduces_table_4_1() {
        let g = fat_tree(32);
        let mut config = PlanConfig::seed(None);
        config.pair_stats = false;
        let lengths = LinkLengths::Uniform {
            min_m: 0.0,
            max_m: 500.0,
            speed_gbps: 10,
        };
        let plan = plan_stretch(&g, &lengths, &config).unwrap();
        let b = &plan.baseline;
        assert_eq!(line(b, "10GBASE-SR").quantity, 19_660.0);
        assert_eq!(line(b, "10GBASE-LR").quantity, 13_108.0);
        assert_eq!((line(b, "MMF").quantity / 1000.0).round(), 1_475.0);
        assert_eq!((line(b, "SMF").quantity / 1000.0).round(), 2_621.0);
        assert_eq!(line(b, "ports").quantity, 32_768.0);
        assert_eq!((line(b, "energy").quantity / 1e6).round(), 5.0);
        assert!((b.total_usd - 8_573_467.6).abs() < 0.01, "{}", b.total_usd);
        assert!((b.transceiver_share - 0.4749).abs() < 1e-4);
        assert_eq!(plan.savings, 0.0);
        // No band is stretched: a positive zero, which the CLI prints as "0 links stretched", not "-0".
        assert!(plan.stretched_links == 0.0 && plan.stretched_links.is_sign_positive());
    }

    #[test]
    fn high_stretch_reference_r2_and_sweep_peaks() {
        let g = fat_tree(32);
        let mut config = PlanConfig::seed(Some(0.95));
        config.pair_stats = false;
        let lengths = LinkLengths::Uniform {
            min_m: 0.0,
            max_m: 500.0,
            speed_gbps: 10,
        };
        let plan = plan_stretch(&g, &lengths, &config).unwrap();
        assert_eq!(line(&plan.plan, "10GBASE-SR").quantity, 32_768.0);
        assert!(
            (plan.plan.total_usd - 7_801e3).abs() < 1e3,
            "{}",
            plan.plan.total_usd
        );
        assert!((plan.savings - 0.090).abs() < 5e-4, "{}", plan.savings);
        let peak = |curve: &SweepCurve| {
            curve
                .points
                .iter()
                .max_by(|a, b| a.savings.unwrap().total_cmp(&b.savings.unwrap()))
                .unwrap()
                .max_length_m
        };
        assert_eq!(
            plan.sweeps[0]
                .points
                .iter()
                .map(|p| p.savings.unwrap())
                .fold(0.0, f64::max),
            0.0
        );
        assert_eq!(peak(&plan.sweeps[1]), 480.0);
        assert_eq!(peak(&plan.sweeps[2]), 580.0);
        let at = |curve: &SweepCurve, l: f64| {
            curve
                .points
                .iter()
                .find(|p| p.max_length_m == l)
                .unwrap()
                .savings
                .unwrap()
        };
        assert!((at(&plan.sweeps[1], 480.0) - 0.0871).abs() < 5e-4);
        assert!((at(&plan.sweeps[2], 580.0) - 0.0960).abs() < 5e-4);
        assert!((at(&plan.sweeps[2], 1000.0) - 0.0484).abs() < 5e-4);
        // Per-link bound and p_good of the stretched band.
        assert!((plan.link_bound.unwrap() - 0.98726).abs() < 1e-5);
        assert!((plan.min_p_good - 0.95f64.powf(0.25)).abs() < 1e-12);
    }

    #[test]
    fn per_link_choices_and_errors() {
        let g = fat_tree(2); // 2 ToR links and 2 aggregation-core links
        let config = PlanConfig::seed(Some(0.99));
        let lengths = LinkLengths::PerLink {
            length_m: vec![100.0, 400.0, 550.0, 20_000.0],
            speed_gbps: vec![10; 4],
        };
        let err = plan_stretch(&g, &lengths, &config).unwrap_err();
        assert_eq!(
            err.problems,
            vec!["links[3]: 20000 m is beyond the longest rated reach at 10 Gb/s (10000 m)"]
        );
        let lengths = LinkLengths::PerLink {
            length_m: vec![100.0, 400.0, 550.0, 40.0],
            speed_gbps: vec![10, 10, 10, 40],
        };
        let err = plan_stretch(&g, &lengths, &config).unwrap_err();
        assert_eq!(
            err.problems,
            vec![
                "40GBASE-SR4: price unknown (the seed gives only 10G prices)",
                "40GBASE-LR4: price unknown (the seed gives only 10G prices)"
            ]
        );
        let lengths = LinkLengths::PerLink {
            length_m: vec![100.0, 400.0, 550.0, 40.0],
            speed_gbps: vec![10; 4],
        };
        let plan = plan_stretch(&g, &lengths, &config).unwrap();
        let names: Vec<(usize, usize, bool)> = plan
            .links
            .iter()
            .map(|c| (c.baseline, c.plan, c.stretched))
            .collect();
        assert_eq!(
            names,
            vec![(0, 0, false), (1, 0, true), (1, 1, false), (0, 0, false)]
        );
        assert!((plan.links[1].p_good - 0.99f64.powf(0.25)).abs() < 1e-15);
        assert_eq!(plan.stretched_links, 1.0);
    }
}
