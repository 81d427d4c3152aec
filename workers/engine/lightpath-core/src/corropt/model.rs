//! The CorrOpt model: link states, corrupting links, penalty functions and
//! per-ToR capacity thresholds.

use std::collections::HashMap;

use super::CorrOptError;
use crate::fabric::{FabricGraph, LinkId, SwitchId};

/// Operational state of a link. Only `Enabled` links carry traffic and count
/// towards capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkState {
    /// Up and in service.
    Enabled,
    /// Taken out of service on purpose (by CorrOpt or an operator).
    Disabled,
    /// Failed or administratively down for another reason. CorrOpt never
    /// enables such a link.
    Down,
}

/// A link observed corrupting packets, per direction. Loss rates are
/// fractions (1e-6 means one packet in a million).
///
/// A link has two directions, and each corrupts (or not) on its own: the
/// upward one, from the link's lower switch to its upper switch, and the
/// downward one. Its penalty is `I(loss_rate) + I(loss_rate_down)`, which is
/// what the deciders order and minimise. Summing the two rates first would be
/// right only for the linear `I`: under `Log` or `Step` two directions at
/// 1e-5 cost `2 I(1e-5)`, not `I(2e-5)`. Every penalty is 0 at rate 0, so a
/// link measured in one direction only ([`CorruptingLink::new`]) costs
/// `I(loss_rate)`; since the penalty is symmetric, which direction the single
/// rate belongs to does not change any decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorruptingLink {
    /// The link index.
    pub link: LinkId,
    /// Loss rate of the upward direction (lower switch to upper switch), or
    /// of the only direction measured; a fraction in `[0, 1]`.
    pub loss_rate: f64,
    /// Loss rate of the downward direction (upper switch to lower switch); 0
    /// when that direction is clean or not measured.
    pub loss_rate_down: f64,
}

impl CorruptingLink {
    /// A link corrupting in one direction at `loss_rate`.
    pub fn new(link: LinkId, loss_rate: f64) -> Self {
        Self {
            link,
            loss_rate,
            loss_rate_down: 0.0,
        }
    }

    /// A link corrupting at `loss_rate_up` upwards and `loss_rate_down`
    /// downwards (either may be 0).
    pub fn both_directions(link: LinkId, loss_rate_up: f64, loss_rate_down: f64) -> Self {
        Self {
            link,
            loss_rate: loss_rate_up,
            loss_rate_down,
        }
    }

    /// The link's penalty `I(loss_rate) + I(loss_rate_down)`.
    pub fn penalty(&self, penalty: Penalty) -> f64 {
        penalty.of(self.loss_rate) + penalty.of(self.loss_rate_down)
    }
}

/// Penalty `I(f)` of leaving a link with loss rate `f` enabled.
///
/// The source (CorrOpt, section 3.4.1) only asks for a monotonically
/// increasing function and evaluates with `I(f) = f`; `Log` and `Step` are
/// Lightpath's choices, defined so that a link at zero loss costs nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Penalty {
    /// `I(f) = f`: proportional to the packets lost (the source's choice).
    #[default]
    Linear,
    /// `I(f) = log10(1 + f / 1e-8)`: orders of magnitude above the IEEE 802.3
    /// limit of 1e-8, so a link at 1e-4 costs about 4 and one at 1e-3 about 5.
    /// Favours disabling many moderately bad links over one very bad link.
    Log,
    /// The loss bucket of the source's Table 3.1: 0 below 1e-8, 1 in
    /// [1e-8, 1e-5), 2 in [1e-5, 1e-4), 3 in [1e-4, 1e-3), 4 from 1e-3.
    Step,
}

/// Lower bounds of the Table 3.1 loss buckets, in increasing order.
const STEP_BUCKETS: [f64; 4] = [1e-8, 1e-5, 1e-4, 1e-3];

impl Penalty {
    /// `I(loss_rate)`.
    pub fn of(self, loss_rate: f64) -> f64 {
        match self {
            Penalty::Linear => loss_rate,
            Penalty::Log => (1.0 + loss_rate / 1e-8).log10(),
            Penalty::Step => STEP_BUCKETS.iter().filter(|&&b| loss_rate >= b).count() as f64,
        }
    }
}

/// Required capacity fraction of every ToR: a fabric-wide default and
/// per-ToR overrides.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    default: f64,
    overrides: HashMap<SwitchId, f64>,
}

impl Thresholds {
    /// Every ToR must keep `default` of its design up-paths (in `[0, 1]`).
    pub fn new(default: f64) -> Result<Self, CorrOptError> {
        check_fraction(None, default)?;
        Ok(Self {
            default,
            overrides: HashMap::new(),
        })
    }

    /// Sets ToR `tor`'s own threshold. Whether `tor` is a ToR of the fabric is
    /// checked when the thresholds are used with one.
    pub fn with_override(mut self, tor: SwitchId, fraction: f64) -> Result<Self, CorrOptError> {
        check_fraction(Some(tor), fraction)?;
        self.overrides.insert(tor, fraction);
        Ok(self)
    }

    /// The fabric-wide default.
    pub fn default_fraction(&self) -> f64 {
        self.default
    }

    /// Threshold of ToR `tor`.
    pub fn for_tor(&self, tor: SwitchId) -> f64 {
        self.overrides.get(&tor).copied().unwrap_or(self.default)
    }

    /// Checks that every override names a ToR of `fabric`.
    pub(crate) fn check_against(&self, fabric: &FabricGraph) -> Result<(), CorrOptError> {
        let mut switches: Vec<SwitchId> = self.overrides.keys().copied().collect();
        switches.sort_unstable();
        for switch in switches {
            if switch as usize >= fabric.num_switches() || fabric.tier(switch) != 0 {
                return Err(CorrOptError::NotATor { switch });
            }
        }
        Ok(())
    }
}

fn check_fraction(tor: Option<SwitchId>, value: f64) -> Result<(), CorrOptError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(CorrOptError::Threshold { tor, value })
    }
}

/// Up-paths a ToR with `design` up-paths must keep at threshold `fraction`:
/// the smallest whole number at least `fraction * design`.
///
/// A product within a relative 1e-9 of a whole number is taken as that
/// number, so that 0.7 of 10 paths means 7 even though `0.7 * 10.0` is
/// 7.000000000000001 in floating point. This is the one rounding every
/// CorrOpt decider uses.
pub fn required_paths(fraction: f64, design: u64) -> u64 {
    at_least(fraction * design as f64)
}

/// `ceil(x)` for `x >= 0`, snapping values within a relative 1e-9 of a whole
/// number to it.
pub(crate) fn at_least(x: f64) -> u64 {
    let nearest = x.round();
    if (x - nearest).abs() <= 1e-9 * nearest.max(1.0) {
        nearest as u64
    } else {
        x.ceil() as u64
    }
}

/// `floor(x)` for `x >= 0`, with the same snapping as [`at_least`].
pub(crate) fn at_most(x: f64) -> u64 {
    let nearest = x.round();
    if (x - nearest).abs() <= 1e-9 * nearest.max(1.0) {
        nearest as u64
    } else {
        x.floor() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_penalty_is_the_loss_rate() {
        assert_eq!(Penalty::default().of(3e-5), 3e-5);
    }

    #[test]
    fn link_penalty_adds_both_directions_not_their_rates() {
        let both = CorruptingLink::both_directions(0, 1e-5, 1e-5);
        assert_eq!(both.penalty(Penalty::Linear), 2e-5);
        // Log: two directions 3 orders of magnitude above 1e-8 cost about 6,
        // one direction at twice the rate about 3.3.
        assert!((both.penalty(Penalty::Log) - 2.0 * Penalty::Log.of(1e-5)).abs() < 1e-12);
        assert!(both.penalty(Penalty::Log) > 5.9);
        assert!(Penalty::Log.of(2e-5) < 3.4);
        assert_eq!(both.penalty(Penalty::Step), 4.0);
        assert_eq!(Penalty::Step.of(2e-5), 2.0);
        // One direction: the other costs nothing under every penalty.
        for p in [Penalty::Linear, Penalty::Log, Penalty::Step] {
            assert_eq!(CorruptingLink::new(3, 7e-4).penalty(p), p.of(7e-4));
        }
    }

    #[test]
    fn log_penalty_counts_orders_of_magnitude_above_1e_8() {
        assert_eq!(Penalty::Log.of(0.0), 0.0);
        assert!((Penalty::Log.of(1e-4) - 4.0).abs() < 1e-3);
        assert!(Penalty::Log.of(1e-3) > Penalty::Log.of(1e-4));
    }

    #[test]
    fn step_penalty_follows_table_3_1_buckets() {
        let steps: Vec<f64> = [1e-9, 1e-8, 5e-6, 1e-5, 5e-4, 1e-3, 0.5]
            .iter()
            .map(|&f| Penalty::Step.of(f))
            .collect();
        assert_eq!(steps, vec![0.0, 1.0, 1.0, 2.0, 3.0, 4.0, 4.0]);
    }

    #[test]
    fn thresholds_fall_back_to_the_default() {
        let t = Thresholds::new(0.75)
            .unwrap()
            .with_override(3, 0.5)
            .unwrap();
        assert_eq!(t.for_tor(3), 0.5);
        assert_eq!(t.for_tor(4), 0.75);
    }

    #[test]
    fn thresholds_outside_zero_one_are_rejected() {
        assert_eq!(
            Thresholds::new(1.5).unwrap_err().to_string(),
            "capacity threshold 1.5 is not a fraction in [0, 1]"
        );
        let err = Thresholds::new(0.5)
            .unwrap()
            .with_override(2, f64::NAN)
            .unwrap_err();
        assert!(err.to_string().starts_with("ToR 2: capacity threshold NaN"));
    }

    #[test]
    fn required_paths_snap_to_whole_numbers() {
        assert_eq!(required_paths(0.7, 10), 7);
        assert_eq!(required_paths(0.6, 25), 15);
        assert_eq!(required_paths(0.75, 192), 144);
        assert_eq!(required_paths(0.61, 25), 16);
        assert_eq!(required_paths(0.0, 25), 0);
        assert_eq!(at_most(5.0 * (1.0 - 0.6)), 2);
        assert_eq!(at_most(5.0 * (1.0 - 0.6f64.sqrt())), 1);
    }
}
