//! Exact maximum-weight matching on general graphs: Edmonds' blossom
//! algorithm with the primal-dual bookkeeping of Galil (1986), O(n^3), after
//! Joris van Rantwijk's reference implementation (the one networkx and
//! rustworkx port). Integer weights keep every dual exact: with integer
//! weights the slack of an edge between two S-vertices is even, so the
//! halving in the third dual update never rounds.
//!
//! Two departures from the reference, both for speed on sparse graphs:
//! a greedy jump start (per-vertex duals and a matching of tight edges, see
//! `greedy_start`), and roots whose duals differ, so a stage also ends when
//! one S-vertex's dual reaches zero (Galil's general rule; the reference
//! keeps all free duals equal and stops at the first zero). Every stage
//! rescans the edges of every free vertex, so starting with most vertices
//! matched cuts the cost several times over (BENCHMARKS.md, circuit schedules).
//!
//! Arrays are flat and indices are `usize`; `NONE` stands for "no vertex,
//! edge, endpoint or blossom".

const NONE: usize = usize::MAX;

/// One undirected edge (`a`, `b`, weight). Weights must be non-negative.
pub type WeightedEdge = (u32, u32, i64);

/// Maximum-weight matching of a graph with `num_vertices` vertices: `mate[v]`
/// is v's partner or `None`. Edges of weight 0 and self-loops are ignored;
/// duplicate edges keep their largest weight. Among optimal matchings the
/// result is deterministic for a given edge order.
pub fn max_weight_matching(num_vertices: usize, edges: &[WeightedEdge]) -> Vec<Option<u32>> {
    let usable: Vec<WeightedEdge> = edges
        .iter()
        .copied()
        .filter(|&(a, b, w)| w > 0 && a != b)
        .collect();
    if usable.is_empty() {
        return vec![None; num_vertices];
    }
    let solver = if usable.len() > SPARSE_PARTNERS * num_vertices {
        solve_sparsified(num_vertices, &usable)
    } else {
        let mut solver = Blossom::new(num_vertices, usable);
        solver.solve();
        solver
    };
    solver
        .mate
        .iter()
        .map(|&p| {
            if p == NONE {
                None
            } else {
                Some(solver.endpoint[p] as u32)
            }
        })
        .collect()
}

/// Dense graphs are first solved on each vertex's heaviest partners only.
const SPARSE_PARTNERS: usize = 8;

/// Exact on dense graphs at sparse cost: solve on the union of every
/// vertex's [`SPARSE_PARTNERS`] heaviest edges, then check the optimal duals
/// of that solution against every other edge. An edge with negative reduced
/// cost joins the sparse graph and the solve repeats; when none is left the
/// duals certify the matching optimal on the whole graph (LP duality: the
/// duals are feasible for every edge and complementary slackness holds).
fn solve_sparsified(n: usize, edges: &[WeightedEdge]) -> Blossom {
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, &(a, b, _)) in edges.iter().enumerate() {
        incident[a as usize].push(k);
        incident[b as usize].push(k);
    }
    let mut chosen = vec![false; edges.len()];
    for list in &mut incident {
        let keep = SPARSE_PARTNERS.min(list.len());
        if keep < list.len() {
            list.select_nth_unstable_by(keep, |&x, &y| edges[y].2.cmp(&edges[x].2).then(x.cmp(&y)));
        }
        for &k in &list[..keep] {
            chosen[k] = true;
        }
    }
    loop {
        let subset: Vec<WeightedEdge> = edges
            .iter()
            .zip(&chosen)
            .filter(|(_, c)| **c)
            .map(|(e, _)| *e)
            .collect();
        let mut solver = Blossom::new(n, subset);
        solver.solve();
        let chains: Vec<Vec<usize>> = (0..n).map(|v| solver.blossom_chain(v)).collect();
        let mut added = false;
        for (k, &(a, b, w)) in edges.iter().enumerate() {
            if chosen[k] {
                continue;
            }
            if solver.reduced_cost(&chains, (a, b, w)) < 0 {
                chosen[k] = true;
                added = true;
            }
        }
        if !added {
            return solver;
        }
    }
}

struct Blossom {
    n: usize,
    edges: Vec<WeightedEdge>,
    /// endpoint[2k] and endpoint[2k+1] are the two ends of edge k.
    endpoint: Vec<usize>,
    /// CSR of the remote endpoints of each vertex's edges.
    neighbend_start: Vec<usize>,
    neighbend: Vec<usize>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<i64>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    /// Vertices and blossoms whose `bestedge` was set this stage: the dual
    /// update looks only at these instead of scanning all 2n entries.
    touched: Vec<usize>,
    /// Vertices labelled this stage (each once): the only ones whose dual
    /// changes.
    labelled: Vec<usize>,
    is_labelled: Vec<bool>,
}

impl Blossom {
    fn new(n: usize, edges: Vec<WeightedEdge>) -> Self {
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut degree = vec![0usize; n + 1];
        for &(a, b, _) in &edges {
            endpoint.push(a as usize);
            endpoint.push(b as usize);
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let mut neighbend_start = vec![0usize; n + 1];
        for v in 0..n {
            neighbend_start[v + 1] = neighbend_start[v] + degree[v];
        }
        let mut fill = neighbend_start.clone();
        let mut neighbend = vec![0usize; 2 * edges.len()];
        for (k, &(a, b, _)) in edges.iter().enumerate() {
            neighbend[fill[a as usize]] = 2 * k + 1;
            fill[a as usize] += 1;
            neighbend[fill[b as usize]] = 2 * k;
            fill[b as usize] += 1;
        }
        Self {
            n,
            endpoint,
            neighbend_start,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar: vec![0; 2 * n],
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
            touched: Vec::new(),
            labelled: Vec::new(),
            is_labelled: vec![false; n],
            edges,
        }
    }

    /// The blossoms containing vertex v, outermost first.
    fn blossom_chain(&self, v: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut b = self.blossomparent[v];
        while b != NONE {
            chain.push(b);
            b = self.blossomparent[b];
        }
        chain.reverse();
        chain
    }

    /// Reduced cost of edge (a, b, w) under the current duals, counting the
    /// blossoms that hold both ends (`chains` from [`Self::blossom_chain`]
    /// per vertex): non-negative for every edge when the duals are feasible.
    fn reduced_cost(&self, chains: &[Vec<usize>], (a, b, w): WeightedEdge) -> i64 {
        let (a, b) = (a as usize, b as usize);
        let mut reduced = self.dualvar[a] + self.dualvar[b] - 2 * w;
        for (&x, &y) in chains[a].iter().zip(&chains[b]) {
            if x != y {
                break;
            }
            reduced += 2 * self.dualvar[x];
        }
        reduced
    }

    fn set_bestedge(&mut self, b: usize, k: usize) {
        if self.bestedge[b] == NONE {
            self.touched.push(b);
        }
        self.bestedge[b] = k;
    }

    #[inline]
    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i as usize] + self.dualvar[j as usize] - 2 * w
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &child in &self.blossomchilds[b] {
                self.leaves(child, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        let mut leaves = Vec::new();
        self.leaves(b, &mut leaves);
        for &leaf in &leaves {
            if !self.is_labelled[leaf] {
                self.is_labelled[leaf] = true;
                self.labelled.push(leaf);
            }
        }
        if t == 1 {
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    /// Trace back from v and w to find a new blossom's base, or NONE for an
    /// augmenting path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (v, w, _) = self.edges[k];
        let (mut v, mut w) = (v as usize, w as usize);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("at most n blossoms");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<usize> = match self.blossombestedges[sub].take() {
                Some(list) => list,
                None => {
                    let mut ks = Vec::new();
                    for leaf in self.leaves_of(sub) {
                        for &p in &self.neighbend
                            [self.neighbend_start[leaf]..self.neighbend_start[leaf + 1]]
                        {
                            ks.push(p / 2);
                        }
                    }
                    ks
                }
            };
            for kk in lists {
                let (i, j, _) = self.edges[kk];
                let (i, j) = (i as usize, j as usize);
                let j = if self.inblossom[j] == b { i } else { j };
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (bestedgeto[bj] == NONE || self.slack(kk) < self.slack(bestedgeto[bj]))
                {
                    bestedgeto[bj] = kk;
                }
            }
            self.bestedge[sub] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&kk| kk != NONE).collect();
        let mut bestk = NONE;
        for &kk in &best {
            if bestk == NONE || self.slack(kk) < self.slack(bestk) {
                bestk = kk;
            }
        }
        if bestk != NONE {
            self.set_bestedge(b, bestk);
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - endptrick as isize)] ^ endptrick ^ 1;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[endps[at(j - endptrick as isize)] / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            let ep = self.endpoint[p ^ 1];
            self.label[ep] = 2;
            self.label[bv] = 2;
            self.labelend[ep] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for leaf in self.leaves_of(bv) {
                    if self.label[leaf] != 0 {
                        found = leaf;
                        break;
                    }
                }
                if found != NONE {
                    self.label[found] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mb]] = 0;
                    self.assign_label(found, 2, self.labelend[found]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        self.augment_path(v as usize, 2 * k + 1);
        self.augment_path(w as usize, 2 * k);
    }

    /// Give S-vertex s the partner endpoint p (NONE leaves s free) and flip
    /// the alternating path from s up to its tree's root, which ends matched.
    fn augment_path(&mut self, mut s: usize, mut p: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint[self.labelend[bs]];
            let bt = self.inblossom[t];
            s = self.endpoint[self.labelend[bt]];
            let j = self.endpoint[self.labelend[bt] ^ 1];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    /// Jump start: per-vertex duals and a greedy matching of tight edges, so
    /// the stages only place the vertices this pass leaves free (each stage
    /// rescans every free vertex's edges, so fewer free vertices is what
    /// makes sparse graphs fast).
    ///
    /// Duals are twice y_v. Each starts at the vertex's heaviest edge weight,
    /// which makes every edge feasible. Then, vertex by vertex, a free
    /// vertex's dual drops to the least value keeping its edges feasible,
    /// max(0, max_u 2w - d_u); the edge attaining it is tight and joins the
    /// matching if its other end is free too. Matched duals never move again,
    /// so matched edges stay tight. Free duals are then rounded up to even:
    /// every stage's roots share a parity, which keeps the halving in the
    /// third dual update exact.
    fn greedy_start(&mut self) {
        for v in 0..self.n {
            let incident = &self.neighbend[self.neighbend_start[v]..self.neighbend_start[v + 1]];
            self.dualvar[v] = incident
                .iter()
                .map(|&p| self.edges[p / 2].2)
                .max()
                .unwrap_or(0);
        }
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            let mut need = 0;
            let mut partner = NONE;
            for idx in self.neighbend_start[v]..self.neighbend_start[v + 1] {
                let p = self.neighbend[idx];
                let u = self.endpoint[p];
                let here = 2 * self.edges[p / 2].2 - self.dualvar[u];
                let free = self.mate[u] == NONE;
                if here > need || (here == need && free && partner == NONE) {
                    need = here;
                    partner = if free { p } else { NONE };
                }
            }
            self.dualvar[v] = need;
            if partner != NONE {
                self.mate[v] = partner;
                self.mate[self.endpoint[partner]] = partner ^ 1;
            }
        }
        for v in 0..self.n {
            if self.mate[v] == NONE {
                self.dualvar[v] += self.dualvar[v] & 1;
            }
        }
    }

    /// Stages until every free vertex has a zero dual. A stage grows
    /// alternating trees from the free vertices whose dual is still positive
    /// and ends when one of them stops being such a root: two trees meet (an
    /// augmentation), a tree reaches a free vertex whose dual is zero (an
    /// augmentation too), or an S-vertex's dual reaches zero (the path from
    /// its root flips and leaves that vertex free at zero; when it is the
    /// root itself, it just stays free).
    fn solve(&mut self) {
        let n = self.n;
        self.greedy_start();
        loop {
            self.label.fill(0);
            self.bestedge.fill(NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            self.touched.clear();
            for &v in &self.labelled {
                self.is_labelled[v] = false;
            }
            self.labelled.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.dualvar[v] > 0 && self.label[self.inblossom[v]] == 0
                {
                    self.assign_label(v, 1, NONE);
                }
            }
            if self.queue.is_empty() {
                break;
            }
            let mut stage_over = false;
            loop {
                while let Some(v) = (!stage_over).then(|| self.queue.pop()).flatten() {
                    for idx in self.neighbend_start[v]..self.neighbend_start[v + 1] {
                        let p = self.neighbend[idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowedge[k] = true;
                            }
                        }
                        let bw = self.inblossom[w];
                        if self.allowedge[k] {
                            if self.label[bw] == 0 && self.mate[self.blossombase[bw]] == NONE {
                                // Unlabelled and free: its dual is zero, so
                                // matching it costs nothing.
                                self.labelend[bw] = NONE;
                                self.augment_matching(k);
                                stage_over = true;
                                break;
                            } else if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    stage_over = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[bw] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.set_bestedge(b, k);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.set_bestedge(w, k);
                        }
                    }
                }
                if stage_over {
                    break;
                }
                // Dual update: the smallest of the four deltas. The first is
                // the least S-vertex dual (only S-vertices' duals go down).
                let mut deltatype = 1u8;
                let mut delta = i64::MAX;
                let mut deltavertex = NONE;
                for &v in &self.labelled {
                    if self.label[self.inblossom[v]] == 1 && self.dualvar[v] < delta {
                        delta = self.dualvar[v];
                        deltavertex = v;
                    }
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                // Ties go to the lowest index, as a scan in index order would.
                let mut deltafrom = NONE;
                for &x in &self.touched {
                    if x < n && self.label[self.inblossom[x]] == 0 && self.bestedge[x] != NONE {
                        let d = self.slack(self.bestedge[x]);
                        if d < delta || (d == delta && deltatype == 2 && x < deltafrom) {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[x];
                            deltafrom = x;
                        }
                    }
                }
                for &x in &self.touched {
                    if self.blossomparent[x] == NONE
                        && self.label[x] == 1
                        && self.bestedge[x] != NONE
                    {
                        let d = self.slack(self.bestedge[x]) / 2;
                        if d < delta || (d == delta && deltatype == 3 && x < deltafrom) {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[x];
                            deltafrom = x;
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for &v in &self.labelled {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => {
                        if self.mate[deltavertex] != NONE {
                            self.augment_path(deltavertex, NONE);
                        }
                        break;
                    }
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (i, j, _) = self.edges[deltaedge];
                        let (i, j) = (i as usize, j as usize);
                        let i = if self.label[self.inblossom[i]] == 0 {
                            j
                        } else {
                            i
                        };
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let i = self.edges[deltaedge].0 as usize;
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(edges: &[WeightedEdge], mate: &[Option<u32>]) -> i64 {
        edges
            .iter()
            .filter(|&&(a, b, _)| mate[a as usize] == Some(b))
            .map(|e| e.2)
            .sum()
    }

    #[test]
    fn prefers_two_light_edges_over_one_heavy() {
        let edges = [(0, 1, 5), (1, 2, 8), (2, 3, 5)];
        let mate = max_weight_matching(4, &edges);
        assert_eq!(weight(&edges, &mate), 10);
    }

    #[test]
    fn handles_an_odd_cycle_blossom() {
        // Triangle 0-1-2 with pendants 3 on 0 and 4 on 2: the triangle
        // becomes a blossom, then the best answer takes one pendant and the
        // triangle edge opposite it.
        let edges = [(0, 1, 6), (1, 2, 6), (0, 2, 6), (0, 3, 5), (2, 4, 5)];
        let mate = max_weight_matching(5, &edges);
        assert_eq!(weight(&edges, &mate), 11);
    }

    #[test]
    fn sparsified_solve_equals_the_direct_solve_on_dense_graphs() {
        let mut rng = crate::matching::rng::SplitMix::new(3);
        for n in [20usize, 31, 60] {
            for max_weight in [3u64, 1000, 1_000_000] {
                let mut edges = Vec::new();
                for a in 0..n as u32 {
                    for b in a + 1..n as u32 {
                        edges.push((a, b, rng.below(max_weight) as i64 + 1));
                    }
                }
                assert!(edges.len() > SPARSE_PARTNERS * n);
                let mut direct = Blossom::new(n, edges.clone());
                direct.solve();
                let direct_mate: Vec<Option<u32>> = direct
                    .mate
                    .iter()
                    .map(|&p| (p != NONE).then(|| direct.endpoint[p] as u32))
                    .collect();
                let sparse = max_weight_matching(n, &edges);
                assert_eq!(
                    weight(&edges, &sparse),
                    weight(&edges, &direct_mate),
                    "n={n}"
                );
            }
        }
    }

    /// LP certificate of optimality: duals feasible for every edge (counting
    /// the blossoms holding both ends), matched edges tight, free vertices
    /// at zero, every blossom with a positive dual full, and the dual
    /// objective equal to twice the matching's weight.
    fn assert_certified(solver: &Blossom) {
        let n = solver.n;
        let chains: Vec<Vec<usize>> = (0..n).map(|v| solver.blossom_chain(v)).collect();
        let mut weight2 = 0;
        for (k, &(a, b, w)) in solver.edges.iter().enumerate() {
            let reduced = solver.reduced_cost(&chains, (a, b, w));
            assert!(reduced >= 0, "edge {k} infeasible by {reduced}");
            if solver.mate[a as usize] == 2 * k + 1 {
                assert_eq!(reduced, 0, "matched edge {k} not tight");
                weight2 += 2 * w;
            }
        }
        let mut objective: i64 = solver.dualvar[..n].iter().sum();
        for v in 0..n {
            assert!(solver.dualvar[v] >= 0);
            if solver.mate[v] == NONE {
                assert_eq!(solver.dualvar[v], 0, "free vertex {v} keeps a dual");
            }
        }
        for b in n..2 * n {
            if solver.blossombase[b] == NONE {
                continue;
            }
            assert!(solver.dualvar[b] >= 0);
            let leaves = solver.leaves_of(b);
            let inside = leaves
                .iter()
                .filter(|&&v| {
                    solver.mate[v] != NONE && leaves.contains(&solver.endpoint[solver.mate[v]])
                })
                .count();
            if solver.dualvar[b] > 0 {
                assert_eq!(inside, leaves.len() - 1, "blossom {b} not full");
            }
            objective += solver.dualvar[b] * (leaves.len() as i64 - 1);
        }
        assert_eq!(objective, weight2, "duality gap");
    }

    #[test]
    fn every_solve_carries_an_optimality_certificate() {
        let mut rng = crate::matching::rng::SplitMix::new(17);
        for n in [2usize, 3, 5, 8, 13, 40, 150, 600] {
            for degree in [2usize, 3, 6, 12] {
                // Few distinct weights make ties (degenerate duals); many
                // make every blossom case reachable.
                for max_weight in [1u64, 4, 1000, 1_000_000] {
                    let target = (n * degree / 2).min(n * (n - 1) / 2);
                    let mut seen = std::collections::HashSet::new();
                    let mut edges = Vec::new();
                    while edges.len() < target {
                        let a = rng.below(n as u64) as u32;
                        let b = rng.below(n as u64) as u32;
                        if a != b && seen.insert((a.min(b), a.max(b))) {
                            edges.push((a, b, rng.below(max_weight) as i64 + 1));
                        }
                    }
                    let mut solver = Blossom::new(n, edges);
                    solver.solve();
                    assert_certified(&solver);
                }
            }
        }
    }

    #[test]
    fn empty_graph_matches_nothing() {
        assert_eq!(max_weight_matching(3, &[]), vec![None, None, None]);
    }
}
