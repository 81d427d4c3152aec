//! What-if cost comparison: static oversubscription, Larry and ShareBackup
//! with a price sheet. Larry's real cost model is confidential (seed 003
//! §5.2.3); this follows the digest's proposal: packet switches priced per
//! device (radix × port price), circuit-switch ports at ρ × a packet port,
//! plus active (AOC) and passive (DAC) cables. Costs are normalised to the
//! fully provisioned design (Larry/static) or the plain fat tree (ShareBackup).

use serde::{Deserialize, Serialize};

use super::sharebackup::FatTree;

/// Prices in units of one packet-switch port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PriceSheet {
    /// Circuit-switch port cost / packet-switch port cost, ρ (seed: 0.3).
    pub cs_port_ratio: f64,
    /// Active optical cable (ToR/CS to aggregation, switch to switch).
    pub active_cable: f64,
    /// Passive copper cable (ToR to CS within a rack set).
    pub passive_cable: f64,
}

impl Default for PriceSheet {
    fn default() -> Self {
        Self {
            cs_port_ratio: 0.3,
            active_cable: 0.5,
            passive_cable: 0.1,
        }
    }
}

/// Counts and cost of one design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignCost {
    /// Design label.
    pub design: String,
    /// Packet-switch ports (aggregation side for rack sets; all for fat trees).
    pub packet_ports: u64,
    /// Circuit-switch ports.
    pub circuit_ports: u64,
    /// Active cables.
    pub active_cables: u64,
    /// Passive cables.
    pub passive_cables: u64,
    /// Cost in packet-port units.
    pub cost: f64,
    /// Cost relative to the reference design.
    pub normalised_cost: f64,
}

fn priced(
    design: String,
    packet: u64,
    cs: u64,
    aoc: u64,
    dac: u64,
    prices: &PriceSheet,
) -> DesignCost {
    let cost = packet as f64
        + cs as f64 * prices.cs_port_ratio
        + aoc as f64 * prices.active_cable
        + dac as f64 * prices.passive_cable;
    DesignCost {
        design,
        packet_ports: packet,
        circuit_ports: cs,
        active_cables: aoc,
        passive_cables: dac,
        cost,
        normalised_cost: 0.0,
    }
}

/// Uplink side of m racks of `servers` downlinks each: fully provisioned
/// (u = servers), static u, and Larry (S, L, R) with the same average
/// uplinks S + R as static u = S + R. Counts ToR uplink ports plus the
/// aggregation ports and cables they need.
pub fn compare_rack_set(
    m: u64,
    servers: u64,
    static_uplinks: u64,
    larry: [u64; 3],
    prices: &PriceSheet,
) -> Vec<DesignCost> {
    let [s, l, r] = larry;
    let static_of = |u: u64| priced(format!("static u={u}"), 2 * m * u, 0, m * u, 0, prices);
    let mut rows = vec![static_of(servers), static_of(static_uplinks)];
    if s + r != static_uplinks {
        // The static design with Larry's average uplinks (same aggregation ports).
        rows.push(static_of(s + r));
    }
    // ToR: S static + L to CSs; aggregation: S + R per rack; m CSs of L + R ports.
    rows.push(priced(
        format!("larry S={s} L={l} R={r}"),
        m * (s + l) + m * (s + r),
        m * (l + r),
        m * (s + r),
        m * l,
        prices,
    ));
    let reference = rows[0].cost;
    for row in &mut rows {
        row.normalised_cost = row.cost / reference;
    }
    rows
}

/// Plain fat tree versus ShareBackup with n backups per group.
pub fn compare_sharebackup(tree: &FatTree, prices: &PriceSheet) -> Vec<DesignCost> {
    let c = tree.counts();
    let k = u64::from(tree.k);
    let links = c.hosts + 2 * c.hosts; // host-edge, edge-agg, agg-core: k/2 per switch per layer
    let plain = priced(
        format!("fat tree k={k} P={}", tree.pods),
        c.active_switches * k,
        0,
        links,
        0,
        prices,
    );
    // Every link passes a circuit switch: one cable each side of it.
    let sharebackup = priced(
        format!("sharebackup n={}", tree.backups),
        (c.active_switches + c.backup_switches) * k,
        c.circuit_ports,
        2 * links + c.backup_switches * k,
        0,
        prices,
    );
    let mut rows = vec![plain, sharebackup];
    let reference = rows[0].cost;
    for row in &mut rows {
        row.normalised_cost = row.cost / reference;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn larry_keeps_aggregation_ports_and_adds_circuit_ports() {
        let rows = compare_rack_set(4, 16, 4, [2, 4, 2], &PriceSheet::default());
        let (static_same, larry) = (&rows[1], &rows[2]);
        assert_eq!(larry.active_cables, static_same.active_cables);
        assert_eq!(larry.circuit_ports, 4 * 6);
        assert_eq!(larry.passive_cables, 16);
        assert!(larry.cost > static_same.cost && larry.cost < rows[0].cost);
        assert_eq!(rows[0].normalised_cost, 1.0);
    }

    #[test]
    fn sharebackup_adds_n_switches_per_group() {
        let tree = FatTree::new(16, 16, 1).unwrap();
        let rows = compare_sharebackup(&tree, &PriceSheet::default());
        assert_eq!(rows[1].packet_ports - rows[0].packet_ports, 40 * 16);
        assert!(rows[1].normalised_cost > 1.0);
    }
}
