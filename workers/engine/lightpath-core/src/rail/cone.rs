//! Up-cones: everything a single ToR reaches by upward paths, tier by tier,
//! kept in dense per-switch arrays that are reset through a touched list, so
//! building the cone of one ToR costs its size, not the fabric's.
//!
//! A ToR's up-cone over the down-direction values is also its down-cone: the
//! paths from a switch down to the ToR are the upward paths reversed.

use crate::fabric::{FabricGraph, LinkId, SwitchId};

/// Path counts, summed weights and the worst (lowest) log-survival of the
/// upward paths from one ToR to every switch it reaches.
pub(crate) struct Cone {
    /// Upward paths from the ToR to each switch (0 = not reached).
    pub count: Vec<f64>,
    /// Sum over those paths of the product of the link values.
    pub weight: Vec<f64>,
    /// Lowest sum over one path of the links' log-survival `ln(1 - loss)`.
    pub worst: Vec<f64>,
    /// The last link of that worst path.
    pub worst_link: Vec<LinkId>,
    /// Reached switches, grouped by tier: tier `t` is
    /// `touched[tier_start[t]..tier_start[t + 1]]`.
    pub touched: Vec<SwitchId>,
    pub tier_start: Vec<usize>,
}

impl Cone {
    pub fn new(graph: &FabricGraph) -> Self {
        let n = graph.num_switches();
        Self {
            count: vec![0.0; n],
            weight: vec![0.0; n],
            worst: vec![0.0; n],
            worst_link: vec![LinkId::MAX; n],
            touched: Vec::new(),
            tier_start: Vec::new(),
        }
    }

    /// Fills the cone of `tor` over `usable` links. `value[l]` multiplies into
    /// `weight`, `log_survival[l]` adds into `worst` (either may be empty to
    /// skip that quantity).
    pub fn fill(
        &mut self,
        graph: &FabricGraph,
        usable: &[bool],
        tor: SwitchId,
        value: &[f64],
        log_survival: &[f64],
    ) {
        for &s in &self.touched {
            let s = s as usize;
            self.count[s] = 0.0;
            self.weight[s] = 0.0;
            self.worst[s] = 0.0;
            self.worst_link[s] = LinkId::MAX;
        }
        self.touched.clear();
        self.tier_start.clear();
        self.tier_start.push(0);
        self.touched.push(tor);
        self.count[tor as usize] = 1.0;
        self.weight[tor as usize] = 1.0;
        self.tier_start.push(1);
        let mut from = 0;
        for _ in 1..graph.num_tiers() {
            let to = self.touched.len();
            for i in from..to {
                let x = self.touched[i];
                let (cx, wx, lx) = (
                    self.count[x as usize],
                    self.weight[x as usize],
                    self.worst[x as usize],
                );
                for &l in graph.up_links(x) {
                    if !usable[l as usize] {
                        continue;
                    }
                    let y = graph.upper(l) as usize;
                    let ly = if log_survival.is_empty() {
                        0.0
                    } else {
                        lx + log_survival[l as usize]
                    };
                    if self.count[y] == 0.0 {
                        self.touched.push(y as SwitchId);
                        self.worst[y] = ly;
                        self.worst_link[y] = l;
                    } else if ly < self.worst[y] {
                        self.worst[y] = ly;
                        self.worst_link[y] = l;
                    }
                    self.count[y] += cx;
                    if !value.is_empty() {
                        self.weight[y] += wx * value[l as usize];
                    }
                }
            }
            from = to;
            self.tier_start.push(self.touched.len());
        }
    }

    /// Reached switches on tier `t`.
    pub fn tier(&self, t: u32) -> &[SwitchId] {
        let t = t as usize;
        if t + 1 >= self.tier_start.len() {
            return &[];
        }
        &self.touched[self.tier_start[t]..self.tier_start[t + 1]]
    }

    /// The links of the worst upward path from the ToR to `s`, ToR first.
    pub fn worst_links_to(&self, graph: &FabricGraph, mut s: SwitchId) -> Vec<LinkId> {
        let mut links = Vec::new();
        while self.worst_link[s as usize] != LinkId::MAX {
            let l = self.worst_link[s as usize];
            links.push(l);
            s = graph.lower(l);
        }
        links.reverse();
        links
    }
}
