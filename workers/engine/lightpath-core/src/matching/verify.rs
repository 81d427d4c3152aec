//! Checks a stored schedule against its inputs: port limits, zones,
//! unavailable ports, contiguous slots, maximality and optimality where
//! claimed, and every reported number recomputed.

use std::collections::HashMap;

use super::MatchingError;
use super::schedule::{ReconfigMode, ScheduleConfig, Slot, SlotInput, Stepper, Window};
use super::slot;

/// Every violation of `slots` as one line each (empty when the schedule
/// holds). Errors only when the inputs themselves are invalid.
pub fn verify(
    config: &ScheduleConfig,
    windows: &[Window],
    slots: &[Slot],
) -> Result<Vec<String>, MatchingError> {
    let mut stepper = Stepper::new(config, windows)?;
    let n = config.num_racks();
    let mut violations = Vec::new();
    for (i, claimed) in slots.iter().enumerate() {
        let Some(input) = stepper.prepare() else {
            violations.push(format!(
                "slot {i}: the demand has no window left for this slot"
            ));
            break;
        };
        let at = format!("slot {i}");
        if claimed.index != i {
            violations.push(format!(
                "{at}: index is {} (slots must be contiguous)",
                claimed.index
            ));
        }
        let t0 = i as f64 * config.period_s;
        let t1 = t0 + config.period_s;
        if (claimed.t0 - t0).abs() > 1e-9 || (claimed.t1 - t1).abs() > 1e-9 {
            violations.push(format!(
                "{at}: runs {}..{} s, expected {t0}..{t1} s (period {} s, contiguous)",
                claimed.t0, claimed.t1, config.period_s
            ));
        }
        let mut used = vec![0u32; n];
        let mut seen = HashMap::new();
        let mut valid = Vec::new();
        for c in &claimed.circuits {
            let (a, b) = (c.a as usize, c.b as usize);
            if a >= n || b >= n {
                violations.push(format!(
                    "{at}: circuit {}-{} names a rack out of range (0 to {})",
                    c.a,
                    c.b,
                    n - 1
                ));
                continue;
            }
            if a == b {
                violations.push(format!(
                    "{at}: circuit {}-{} joins a rack to itself",
                    c.a, c.b
                ));
                continue;
            }
            if c.count == 0 {
                violations.push(format!("{at}: circuit {}-{} has count 0", c.a, c.b));
                continue;
            }
            if config.zones[a] != config.zones[b] {
                violations.push(format!(
                    "{at}: circuit {}-{} crosses zones {} and {}",
                    c.a, c.b, config.zones[a], config.zones[b]
                ));
            }
            for v in [a, b] {
                if config.ports[v] == 0 {
                    violations.push(format!(
                        "{at}: circuit {}-{} uses rack {v}, whose port is unavailable",
                        c.a, c.b
                    ));
                }
                used[v] += c.count;
            }
            let key = (c.a.min(c.b), c.a.max(c.b));
            if seen.insert(key, ()).is_some() {
                violations.push(format!("{at}: pair {}-{} listed twice", key.0, key.1));
            }
            valid.push(slot::Circuit {
                a: key.0,
                b: key.1,
                count: c.count,
            });
        }
        for (v, &count) in used.iter().enumerate() {
            if count > config.ports[v] {
                violations.push(format!(
                    "{at}: rack {v} has {count} circuits but {} available ports",
                    config.ports[v]
                ));
            }
        }
        valid.sort();
        if claimed.maximal && !slot::is_maximal(&config.ports, &valid, &input.objective) {
            violations.push(format!(
                "{at}: claimed maximal but a pair with demand has a free port at both ends"
            ));
        }
        if claimed.exact {
            let (best_value, value) = optimum_and_value(config, &stepper, &input, &valid);
            if value < best_value {
                violations.push(format!(
                    "{at}: claimed exact but weighs {value} against an optimum of {best_value}"
                ));
            }
        }
        let recomputed = stepper.commit(valid, claimed.algorithm, claimed.exact, claimed.maximal);
        if recomputed.weight != claimed.weight {
            violations.push(format!(
                "{at}: weight is {} but the circuits carry {} of the demand they were chosen on",
                claimed.weight, recomputed.weight
            ));
        }
        if recomputed.offloaded_bytes != claimed.offloaded_bytes {
            violations.push(format!(
                "{at}: offloaded_bytes is {} but the circuits carry {}",
                claimed.offloaded_bytes, recomputed.offloaded_bytes
            ));
        }
        let mut changed = claimed.changed_ports.clone();
        changed.sort_unstable();
        if changed != recomputed.changed_ports {
            violations.push(format!(
                "{at}: changed_ports {:?} but the circuits change {:?}",
                changed, recomputed.changed_ports
            ));
        }
        if claimed.bound < claimed.weight {
            violations.push(format!(
                "{at}: bound {} below weight {}",
                claimed.bound, claimed.weight
            ));
        }
    }
    Ok(violations)
}

/// The best objective value of a slot and the value of `circuits`. In global
/// mode the options are keeping every circuit (full period) or the best new
/// configuration with every circuit dark.
fn optimum_and_value(
    config: &ScheduleConfig,
    stepper: &Stepper<'_>,
    input: &SlotInput,
    circuits: &[slot::Circuit],
) -> (i64, i64) {
    let (best, _) = slot::exact(
        &config.ports,
        match config.reconfig {
            ReconfigMode::PerPort => &input.objective,
            ReconfigMode::Global => &input.all_changed,
        },
    );
    match config.reconfig {
        ReconfigMode::PerPort => (
            slot::weight_of(&best, &input.objective),
            slot::weight_of(circuits, &input.objective),
        ),
        ReconfigMode::Global => {
            let previous = stepper.previous_circuits();
            let keep = if previous.is_empty() {
                0
            } else {
                slot::weight_of(&previous, &input.objective)
            };
            let value = if circuits == previous.as_slice() && !previous.is_empty() {
                slot::weight_of(circuits, &input.objective)
            } else {
                slot::weight_of(circuits, &input.all_changed)
            };
            (keep.max(slot::weight_of(&best, &input.all_changed)), value)
        }
    }
}
