//! One reconfiguration slot: choose circuits from per-circuit weights under
//! per-rack port limits. Every algorithm returns circuits sorted by (a, b).

use super::blossom::max_weight_matching;
use super::rng::SplitMix;

/// Candidate circuit: the `rank`-th circuit (1-based) between racks `a < b`
/// earns `weight`. Ranks of a pair must have non-increasing weights (the
/// second circuit of a pair carries what the first one left), so taking
/// rank r implies ranks 1..r are worth taking too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// Lower rack index.
    pub a: u32,
    /// Higher rack index.
    pub b: u32,
    /// 1 for the first circuit of the pair, 2 for a second one, ...
    pub rank: u32,
    /// Bytes the circuit would carry (or its decision weight).
    pub weight: i64,
}

/// `count` parallel circuits between racks `a < b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Circuit {
    /// Lower rack index.
    pub a: u32,
    /// Higher rack index.
    pub b: u32,
    /// Parallel circuits (1 when every rack has one optical port).
    pub count: u32,
}

/// Above this many vertices in the split graph, b-matching (some rack with
/// more than one port) uses the iterated heuristic instead of the exact
/// reduction.
pub const EXACT_B_MATCHING_MAX_VERTICES: usize = 6000;

/// Exact maximum-weight matching for one port per rack; for more ports an
/// exact b-matching by reduction to matching while the reduced graph stays
/// under [`EXACT_B_MATCHING_MAX_VERTICES`], else [`iterated`]. Returns the
/// circuits and whether the answer is exact.
pub fn exact(ports: &[u32], candidates: &[Candidate]) -> (Vec<Circuit>, bool) {
    if ports.iter().all(|&k| k <= 1) {
        let edges: Vec<(u32, u32, i64)> = candidates
            .iter()
            .filter(|c| c.rank == 1 && ports[c.a as usize] >= 1 && ports[c.b as usize] >= 1)
            .map(|c| (c.a, c.b, c.weight))
            .collect();
        let mate = max_weight_matching(ports.len(), &edges);
        let circuits = mate
            .iter()
            .enumerate()
            .filter_map(|(v, m)| m.filter(|&u| (v as u32) < u).map(|u| (v as u32, u)))
            .map(|(a, b)| Circuit { a, b, count: 1 })
            .collect();
        return (circuits, true);
    }
    let usable: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| {
            c.weight > 0 && c.rank <= ports[c.a as usize].min(ports[c.b as usize]) && c.a != c.b
        })
        .collect();
    let port_vertices: usize = ports.iter().map(|&k| k as usize).sum();
    if port_vertices + 2 * usable.len() > EXACT_B_MATCHING_MAX_VERTICES {
        return (iterated(ports, candidates), false);
    }
    // Each rack becomes k_v port vertices; each candidate becomes a gadget of
    // two vertices x-y joined by an edge of its weight, x joined to every port
    // of a and y to every port of b with the same weight. A maximum matching
    // either takes x-y (circuit unused, earns w) or a port-x and y-port
    // (circuit used, earns 2w), so it is a maximum b-matching plus the
    // constant sum of weights.
    let mut first_port = vec![0u32; ports.len() + 1];
    for (v, &k) in ports.iter().enumerate() {
        first_port[v + 1] = first_port[v] + k;
    }
    let gadget_base = port_vertices as u32;
    let mut edges = Vec::new();
    for (i, c) in usable.iter().enumerate() {
        let x = gadget_base + 2 * i as u32;
        let y = x + 1;
        edges.push((x, y, c.weight));
        for p in first_port[c.a as usize]..first_port[c.a as usize + 1] {
            edges.push((p, x, c.weight));
        }
        for p in first_port[c.b as usize]..first_port[c.b as usize + 1] {
            edges.push((y, p, c.weight));
        }
    }
    let mate = max_weight_matching(port_vertices + 2 * usable.len(), &edges);
    let chosen: Vec<(u32, u32)> = usable
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let x = gadget_base as usize + 2 * i;
            mate[x] != Some(x as u32 + 1)
                && mate[x].is_some_and(|p| p < gadget_base)
                && mate[x + 1].is_some_and(|p| p < gadget_base)
        })
        .map(|(_, c)| (c.a, c.b))
        .collect();
    (merge(chosen), true)
}

/// k rounds of exact matching on the ports still free, each round taking the
/// next-rank candidates of the pairs chosen so far: a heuristic for
/// b-matching on instances too large for the exact reduction.
pub fn iterated(ports: &[u32], candidates: &[Candidate]) -> Vec<Circuit> {
    let mut free: Vec<u32> = ports.to_vec();
    let mut taken: std::collections::HashMap<(u32, u32), u32> = Default::default();
    let rounds = ports.iter().copied().max().unwrap_or(0);
    for _ in 0..rounds {
        let edges: Vec<(u32, u32, i64)> = candidates
            .iter()
            .filter(|c| {
                free[c.a as usize] > 0
                    && free[c.b as usize] > 0
                    && c.rank == taken.get(&(c.a, c.b)).copied().unwrap_or(0) + 1
            })
            .map(|c| (c.a, c.b, c.weight))
            .collect();
        let mate = max_weight_matching(ports.len(), &edges);
        let mut any = false;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m
                && (v as u32) < u
            {
                *taken.entry((v as u32, u)).or_default() += 1;
                free[v] -= 1;
                free[u as usize] -= 1;
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    let mut circuits: Vec<Circuit> = taken
        .into_iter()
        .map(|((a, b), count)| Circuit { a, b, count })
        .collect();
    circuits.sort();
    circuits
}

/// Greedy: candidates by weight (ties by rack ids), taken while both racks
/// have a free port. At least half the optimum.
pub fn greedy(ports: &[u32], candidates: &[Candidate]) -> Vec<Circuit> {
    let mut order: Vec<&Candidate> = candidates.iter().filter(|c| c.weight > 0).collect();
    order.sort_by(|x, y| {
        y.weight
            .cmp(&x.weight)
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
            .then(x.rank.cmp(&y.rank))
    });
    take_in_order(ports, order)
}

/// A random maximal set of circuits among the positive-weight candidates.
pub fn random_maximal(ports: &[u32], candidates: &[Candidate], seed: u64) -> Vec<Circuit> {
    let mut rng = SplitMix::new(seed);
    let mut order: Vec<&Candidate> = candidates.iter().filter(|c| c.weight > 0).collect();
    // Fisher-Yates, then ranks of a pair back in order so rank r follows r-1.
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    take_in_order(ports, order)
}

fn take_in_order(ports: &[u32], order: Vec<&Candidate>) -> Vec<Circuit> {
    let mut free = ports.to_vec();
    let mut taken: std::collections::HashMap<(u32, u32), u32> = Default::default();
    let mut chosen = Vec::new();
    for c in order {
        let (a, b) = (c.a as usize, c.b as usize);
        if free[a] > 0 && free[b] > 0 {
            free[a] -= 1;
            free[b] -= 1;
            *taken.entry((c.a, c.b)).or_default() += 1;
            chosen.push((c.a, c.b));
        }
    }
    merge(chosen)
}

/// Round-robin by the circle method within each zone: over n-1 slots (n
/// even, a bye added when odd) every pair of available racks meets once.
/// A rack with k ports takes k consecutive rounds per slot.
pub fn round_robin(ports: &[u32], zones: &[u32], slot: usize) -> Vec<Circuit> {
    let mut by_zone: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
    for (v, (&k, &z)) in ports.iter().zip(zones).enumerate() {
        if k > 0 {
            by_zone.entry(z).or_default().push(v as u32);
        }
    }
    let mut free = ports.to_vec();
    let mut chosen = Vec::new();
    let per_slot = ports.iter().copied().max().unwrap_or(0) as usize;
    for racks in by_zone.values() {
        let mut players: Vec<Option<u32>> = racks.iter().map(|&r| Some(r)).collect();
        if players.len() % 2 == 1 {
            players.push(None);
        }
        let m = players.len();
        if m < 2 {
            continue;
        }
        for port in 0..per_slot {
            let round = (slot * per_slot + port) % (m - 1);
            for (x, y) in circle_round(m, round) {
                if let (Some(a), Some(b)) = (players[x], players[y])
                    && free[a as usize] > 0
                    && free[b as usize] > 0
                {
                    free[a as usize] -= 1;
                    free[b as usize] -= 1;
                    chosen.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    merge(chosen)
}

/// Pairs of positions in round `round` of the circle method on `m` (even)
/// players: position m-1 stays, the others rotate.
fn circle_round(m: usize, round: usize) -> Vec<(usize, usize)> {
    let rotating = m - 1;
    let mut pairs = vec![(m - 1, round % rotating)];
    for i in 1..m / 2 {
        let x = (round + i) % rotating;
        let y = (round + rotating - i) % rotating;
        pairs.push((x, y));
    }
    pairs
}

/// Sum of the best `k_v` candidate weights at each rack, halved: no set of
/// circuits within the port limits weighs more.
pub fn upper_bound(ports: &[u32], candidates: &[Candidate]) -> i64 {
    let mut incident: Vec<Vec<i64>> = vec![Vec::new(); ports.len()];
    for c in candidates.iter().filter(|c| c.weight > 0) {
        incident[c.a as usize].push(c.weight);
        incident[c.b as usize].push(c.weight);
    }
    let doubled: i64 = incident
        .iter_mut()
        .zip(ports)
        .map(|(weights, &k)| {
            weights.sort_unstable_by(|x, y| y.cmp(x));
            weights.iter().take(k as usize).sum::<i64>()
        })
        .sum();
    doubled / 2
}

/// Whether no positive candidate could still be added: for every pair, its
/// next rank is worthless or one of its racks has no free port.
pub fn is_maximal(ports: &[u32], circuits: &[Circuit], candidates: &[Candidate]) -> bool {
    let mut free = ports.to_vec();
    let mut counts: std::collections::HashMap<(u32, u32), u32> = Default::default();
    for c in circuits {
        free[c.a as usize] = free[c.a as usize].saturating_sub(c.count);
        free[c.b as usize] = free[c.b as usize].saturating_sub(c.count);
        counts.insert((c.a, c.b), c.count);
    }
    !candidates.iter().any(|c| {
        c.weight > 0
            && counts.get(&(c.a, c.b)).copied().unwrap_or(0) < c.rank
            && free[c.a as usize] > 0
            && free[c.b as usize] > 0
    })
}

fn merge(mut pairs: Vec<(u32, u32)>) -> Vec<Circuit> {
    pairs.sort_unstable();
    let mut circuits: Vec<Circuit> = Vec::new();
    for (a, b) in pairs {
        match circuits.last_mut() {
            Some(last) if last.a == a && last.b == b => last.count += 1,
            _ => circuits.push(Circuit { a, b, count: 1 }),
        }
    }
    circuits
}

/// Weight of `circuits` under `candidates` (rank r of a pair counted when
/// the pair has at least r circuits).
pub fn weight_of(circuits: &[Circuit], candidates: &[Candidate]) -> i64 {
    let counts: std::collections::HashMap<(u32, u32), u32> =
        circuits.iter().map(|c| ((c.a, c.b), c.count)).collect();
    candidates
        .iter()
        .filter(|c| counts.get(&(c.a, c.b)).is_some_and(|&n| n >= c.rank))
        .map(|c| c.weight)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(a: u32, b: u32, rank: u32, weight: i64) -> Candidate {
        Candidate { a, b, rank, weight }
    }

    #[test]
    fn round_robin_meets_every_pair_once_in_n_minus_1_slots() {
        for n in [4usize, 7, 8] {
            let ports = vec![1; n];
            let zones = vec![0; n];
            let mut seen = std::collections::HashSet::new();
            let slots = if n % 2 == 0 { n - 1 } else { n };
            for s in 0..slots {
                for c in round_robin(&ports, &zones, s) {
                    assert!(seen.insert((c.a, c.b)), "pair {c:?} twice for n={n}");
                }
            }
            assert_eq!(seen.len(), n * (n - 1) / 2);
        }
    }

    #[test]
    fn exact_b_matching_uses_parallel_circuits_when_they_pay() {
        // Two ports each; pair 0-1 worth 10 then 9, pair 0-2 worth 3.
        let ports = [2, 2, 1];
        let cands = [cand(0, 1, 1, 10), cand(0, 1, 2, 9), cand(0, 2, 1, 3)];
        let (circuits, exact_answer) = exact(&ports, &cands);
        assert!(exact_answer);
        assert_eq!(
            circuits,
            vec![Circuit {
                a: 0,
                b: 1,
                count: 2
            }]
        );
        assert_eq!(weight_of(&circuits, &cands), 19);
    }

    #[test]
    fn greedy_takes_heaviest_first() {
        let ports = [1, 1, 1, 1];
        let cands = [cand(0, 1, 1, 5), cand(1, 2, 1, 6), cand(2, 3, 1, 5)];
        assert_eq!(
            greedy(&ports, &cands),
            vec![Circuit {
                a: 1,
                b: 2,
                count: 1
            }]
        );
        assert_eq!(upper_bound(&ports, &cands), (5 + 6 + 6 + 5) / 2);
    }
}
