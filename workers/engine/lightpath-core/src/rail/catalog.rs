//! Transceiver technologies with their rated and stretched reach, and the
//! cost parameters of a plan (seed §4.2, §4.6.1, Table 4.2, Appendix D).

use std::fmt;

/// Fiber type a technology runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fiber {
    /// Multi-mode fiber.
    Mmf,
    /// Single-mode fiber.
    Smf,
}

impl Fiber {
    /// "MMF" or "SMF".
    pub fn as_str(self) -> &'static str {
        match self {
            Fiber::Mmf => "MMF",
            Fiber::Smf => "SMF",
        }
    }

    /// Parses "MMF"/"SMF" (any case).
    pub fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_uppercase().as_str() {
            "MMF" => Some(Fiber::Mmf),
            "SMF" => Some(Fiber::Smf),
            _ => None,
        }
    }
}

impl fmt::Display for Fiber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The longest reach at which a technology keeps a network reliability
/// bound: with every link at most this long, the expected fraction of good
/// paths is at least `nrb`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StretchReach {
    /// The network reliability bound, e.g. 0.99 (low stretch) or 0.95 (high).
    pub nrb: f64,
    /// Reach in metres at that bound.
    pub reach_m: f64,
}

/// A transceiver technology.
#[derive(Debug, Clone, PartialEq)]
pub struct Technology {
    /// Name, e.g. "10GBASE-SR".
    pub name: String,
    /// Line rate in Gb/s.
    pub speed_gbps: u32,
    /// Fiber it needs.
    pub fiber: Fiber,
    /// Rated reach in metres.
    pub rated_reach_m: f64,
    /// Price of one transceiver (a link has two); `None` if unknown.
    pub price_usd: Option<f64>,
    /// Stretched reaches by NRB (any order).
    pub stretch: Vec<StretchReach>,
}

impl Technology {
    /// The reach usable at network reliability bound `nrb` (`None`: no
    /// stretch), with the bound of the stretch entry it comes from.
    ///
    /// The entry used is the one with the smallest NRB at or above `nrb`:
    /// it keeps at least the asked-for reliability, and lowering `nrb` can
    /// only make more entries eligible, so the reach never shrinks. With no
    /// such entry the reach is the rated one.
    pub fn reach_at(&self, nrb: Option<f64>) -> (f64, Option<f64>) {
        let mut best: Option<StretchReach> = None;
        if let Some(nrb) = nrb {
            for &entry in &self.stretch {
                if entry.nrb >= nrb
                    && entry.reach_m > self.rated_reach_m
                    && best.is_none_or(|b| {
                        entry.nrb < b.nrb || (entry.nrb == b.nrb && entry.reach_m > b.reach_m)
                    })
                {
                    best = Some(entry);
                }
            }
        }
        match best {
            Some(entry) => (entry.reach_m, Some(entry.nrb)),
            None => (self.rated_reach_m, None),
        }
    }
}

fn technology(
    name: &str,
    speed_gbps: u32,
    fiber: Fiber,
    rated_reach_m: f64,
    price_usd: Option<f64>,
    stretch: &[(f64, f64)],
) -> Technology {
    Technology {
        name: name.into(),
        speed_gbps,
        fiber,
        rated_reach_m,
        price_usd,
        stretch: stretch
            .iter()
            .map(|&(nrb, reach_m)| StretchReach { nrb, reach_m })
            .collect(),
    }
}

/// The seed's standard technologies. Stretch: Table 4.2 (10GBASE-SR 480 m at
/// NRB 0.99 and 580 m at 0.95; 40GBASE-SR4 280 m and 400 m) and Appendix D
/// (100G-SR4 110 m and 130 m with link FEC off; 100G-PSM4 to 2 km, which the
/// seed gives without a bound, so only at 0.95 here). LR parts are not
/// stretched: their reach already covers a building. Prices: only the 10G
/// parts are in the seed (Table 4.1); the others are inputs.
pub fn standard_catalog() -> Vec<Technology> {
    use Fiber::{Mmf, Smf};
    vec![
        technology(
            "10GBASE-SR",
            10,
            Mmf,
            300.0,
            Some(82.3),
            &[(0.99, 480.0), (0.95, 580.0)],
        ),
        technology("10GBASE-LR", 10, Smf, 10_000.0, Some(187.2), &[]),
        technology(
            "40GBASE-SR4",
            40,
            Mmf,
            100.0,
            None,
            &[(0.99, 280.0), (0.95, 400.0)],
        ),
        technology("40GBASE-LR4", 40, Smf, 10_000.0, None, &[]),
        technology(
            "100G-SR4",
            100,
            Mmf,
            70.0,
            None,
            &[(0.99, 110.0), (0.95, 130.0)],
        ),
        technology("100G-PSM4", 100, Smf, 500.0, None, &[(0.95, 2_000.0)]),
        technology("100G-LR4", 100, Smf, 10_000.0, None, &[]),
    ]
}

/// What a plan costs besides transceivers (seed §4.6.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostParams {
    /// Multi-mode fiber, USD per metre.
    pub mmf_usd_per_m: f64,
    /// Single-mode fiber, USD per metre.
    pub smf_usd_per_m: f64,
    /// One switch port, USD.
    pub port_usd: f64,
    /// Power draw of one switch (transceivers included), watts.
    pub switch_watts: f64,
    /// Energy price, USD per kWh.
    pub usd_per_kwh: f64,
    /// Period the energy is paid for, years of 365 days.
    pub years: f64,
}

impl Default for CostParams {
    /// The seed's 10G values: MMF $0.44/m, SMF $0.21/m, $90/port, 150 W per
    /// switch, $0.07/kWh over 3 years.
    fn default() -> Self {
        Self {
            mmf_usd_per_m: 0.44,
            smf_usd_per_m: 0.21,
            port_usd: 90.0,
            switch_watts: 150.0,
            usd_per_kwh: 0.07,
            years: 3.0,
        }
    }
}

impl CostParams {
    /// Fiber price per metre for `fiber`.
    pub fn fiber_usd_per_m(&self, fiber: Fiber) -> f64 {
        match fiber {
            Fiber::Mmf => self.mmf_usd_per_m,
            Fiber::Smf => self.smf_usd_per_m,
        }
    }

    pub(crate) fn problems(&self, problems: &mut Vec<String>) {
        for (name, value) in [
            ("mmf_usd_per_m", self.mmf_usd_per_m),
            ("smf_usd_per_m", self.smf_usd_per_m),
            ("port_usd", self.port_usd),
            ("switch_watts", self.switch_watts),
            ("usd_per_kwh", self.usd_per_kwh),
            ("years", self.years),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                problems.push(format!(
                    "costs.{name}: {value} is not a non-negative number"
                ));
            }
        }
    }
}

pub(crate) fn catalog_problems(catalog: &[Technology], problems: &mut Vec<String>) {
    if catalog.is_empty() {
        problems.push("catalog: expected at least one technology".into());
    }
    for (i, t) in catalog.iter().enumerate() {
        let at = format!("catalog[{i}]");
        if t.name.is_empty() {
            problems.push(format!("{at}.name: expected a non-empty string"));
        } else if catalog[..i].iter().any(|o| o.name == t.name) {
            problems.push(format!("{at}.name: duplicate technology '{}'", t.name));
        }
        if t.speed_gbps == 0 {
            problems.push(format!("{at}.speed_gbps: expected a positive speed"));
        }
        if !(t.rated_reach_m.is_finite() && t.rated_reach_m > 0.0) {
            problems.push(format!(
                "{at}.rated_reach_m: {} is not a positive length",
                t.rated_reach_m
            ));
        }
        if let Some(p) = t.price_usd
            && !(p.is_finite() && p >= 0.0)
        {
            problems.push(format!("{at}.price_usd: {p} is not a non-negative price"));
        }
        for (j, s) in t.stretch.iter().enumerate() {
            if !(s.nrb > 0.0 && s.nrb <= 1.0) {
                problems.push(format!(
                    "{at}.stretch[{j}].nrb: {} is not a fraction in (0, 1]",
                    s.nrb
                ));
            }
            if !(s.reach_m.is_finite() && s.reach_m >= t.rated_reach_m) {
                problems.push(format!(
                    "{at}.stretch[{j}].reach_m: {} is below the rated reach {}",
                    s.reach_m, t.rated_reach_m
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_at_takes_the_closest_bound_at_or_above() {
        let sr = &standard_catalog()[0];
        assert_eq!(sr.reach_at(None), (300.0, None));
        assert_eq!(sr.reach_at(Some(0.999)), (300.0, None));
        assert_eq!(sr.reach_at(Some(0.99)), (480.0, Some(0.99)));
        assert_eq!(sr.reach_at(Some(0.97)), (480.0, Some(0.99)));
        assert_eq!(sr.reach_at(Some(0.95)), (580.0, Some(0.95)));
        assert_eq!(sr.reach_at(Some(0.5)), (580.0, Some(0.95)));
    }
}
