//! Standard three-tier Clos topologies, for tests, benchmarks and demos.

use super::FabricGraph;

/// A k-ary fat tree (Al-Fares et al.): `k` pods of `k/2` ToRs and `k/2`
/// aggregation switches, and `(k/2)^2` core switches.
///
/// Switch order: ToRs pod by pod, then aggregation switches pod by pod, then
/// cores. Every ToR links to every aggregation switch of its pod; aggregation
/// switch `j` of each pod links to cores `j*k/2 .. (j+1)*k/2`. Each ToR has
/// `(k/2)^2` up-paths.
///
/// # Panics
/// If `k` is zero or odd.
pub fn fat_tree(k: u32) -> FabricGraph {
    assert!(
        k > 0 && k.is_multiple_of(2),
        "fat tree arity must be even and positive, got {k}"
    );
    let half = k / 2;
    let tors = k * half;
    let aggs = k * half;
    let cores = half * half;
    let mut switch_tiers = vec![0; tors as usize];
    switch_tiers.resize((tors + aggs) as usize, 1);
    switch_tiers.resize((tors + aggs + cores) as usize, 2);

    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for pod in 0..k {
        for i in 0..half {
            for j in 0..half {
                lower.push(pod * half + i);
                upper.push(tors + pod * half + j);
            }
        }
    }
    for pod in 0..k {
        for j in 0..half {
            for c in 0..half {
                lower.push(tors + pod * half + j);
                upper.push(tors + aggs + j * half + c);
            }
        }
    }
    FabricGraph::new(3, switch_tiers, lower, upper).expect("a fat tree is a valid fabric")
}

/// A Facebook-style data center fabric: `pods` pods, each of
/// `tors_per_pod` ToRs and `planes` fabric switches, and `planes` spine planes
/// of `spines_per_plane` spines.
///
/// Switch order: ToRs pod by pod, then fabric switches pod by pod, then spines
/// plane by plane. Every ToR links to every fabric switch of its pod; fabric
/// switch `j` of each pod links to every spine of plane `j`. Each ToR has
/// `planes * spines_per_plane` up-paths.
pub fn facebook_fabric(
    pods: u32,
    tors_per_pod: u32,
    planes: u32,
    spines_per_plane: u32,
) -> FabricGraph {
    let tors = pods * tors_per_pod;
    let fabric_switches = pods * planes;
    let spines = planes * spines_per_plane;
    let mut switch_tiers = vec![0; tors as usize];
    switch_tiers.resize((tors + fabric_switches) as usize, 1);
    switch_tiers.resize((tors + fabric_switches + spines) as usize, 2);

    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for pod in 0..pods {
        for t in 0..tors_per_pod {
            for j in 0..planes {
                lower.push(pod * tors_per_pod + t);
                upper.push(tors + pod * planes + j);
            }
        }
    }
    for pod in 0..pods {
        for j in 0..planes {
            for s in 0..spines_per_plane {
                lower.push(tors + pod * planes + j);
                upper.push(tors + fabric_switches + j * spines_per_plane + s);
            }
        }
    }
    FabricGraph::new(3, switch_tiers, lower, upper).expect("a Facebook fabric is a valid fabric")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fat_tree_sizes_and_paths() {
        let g = fat_tree(4);
        assert_eq!(g.num_switches(), 8 + 8 + 4);
        assert_eq!(g.num_links(), 16 + 16);
        let counts = g.total_up_paths().unwrap();
        assert!(g.tors().iter().all(|&t| counts[t as usize] == 4));
    }

    #[test]
    fn facebook_fabric_sizes_and_paths() {
        let g = facebook_fabric(3, 5, 4, 6);
        assert_eq!(g.num_switches(), 15 + 12 + 24);
        assert_eq!(g.num_links(), 15 * 4 + 12 * 6);
        let counts = g.total_up_paths().unwrap();
        assert!(g.tors().iter().all(|&t| counts[t as usize] == 24));
    }
}
