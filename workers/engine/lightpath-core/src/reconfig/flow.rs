//! Integral maximum flow (Dinic) with the minimum cut read off the residual
//! graph. Small and exact: the graphs here have a few dozen nodes (a rack set
//! or a pod), so clarity beats clever data structures.

use std::collections::VecDeque;

/// A directed edge of a flow network; `flow` is filled in by [`FlowNetwork::max_flow`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowEdge {
    /// Tail node.
    pub from: usize,
    /// Head node.
    pub to: usize,
    /// Capacity (integral).
    pub capacity: u64,
    /// Flow after solving.
    pub flow: u64,
}

/// A flow network on nodes `0..num_nodes`.
#[derive(Debug, Clone)]
pub struct FlowNetwork {
    num_nodes: usize,
    edges: Vec<FlowEdge>,
    /// Per node, indices into the arc arrays (2 arcs per edge: forward, reverse).
    adjacency: Vec<Vec<usize>>,
}

/// The value of a maximum flow and the source side of a minimum cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaxFlow {
    /// Value of the flow.
    pub value: u64,
    /// `source_side[v]` is true when v is reachable from the source in the
    /// residual graph; the saturated edges leaving this set form a minimum cut.
    pub source_side: Vec<bool>,
}

impl FlowNetwork {
    /// An empty network on `num_nodes` nodes.
    pub fn new(num_nodes: usize) -> Self {
        Self {
            num_nodes,
            edges: Vec::new(),
            adjacency: vec![Vec::new(); num_nodes],
        }
    }

    /// Adds edge `from → to` and returns its index.
    ///
    /// # Panics
    /// When a node is out of range (a caller bug, not an input error).
    pub fn add_edge(&mut self, from: usize, to: usize, capacity: u64) -> usize {
        assert!(
            from < self.num_nodes && to < self.num_nodes,
            "node out of range"
        );
        let index = self.edges.len();
        self.edges.push(FlowEdge {
            from,
            to,
            capacity,
            flow: 0,
        });
        self.adjacency[from].push(2 * index);
        self.adjacency[to].push(2 * index + 1);
        index
    }

    /// The edges, with their flow after [`Self::max_flow`].
    pub fn edges(&self) -> &[FlowEdge] {
        &self.edges
    }

    fn residual(&self, arc: usize) -> u64 {
        let edge = &self.edges[arc / 2];
        if arc.is_multiple_of(2) {
            edge.capacity - edge.flow
        } else {
            edge.flow
        }
    }

    fn head(&self, arc: usize) -> usize {
        let edge = &self.edges[arc / 2];
        if arc.is_multiple_of(2) {
            edge.to
        } else {
            edge.from
        }
    }

    fn push(&mut self, arc: usize, amount: u64) {
        let edge = &mut self.edges[arc / 2];
        if arc.is_multiple_of(2) {
            edge.flow += amount;
        } else {
            edge.flow -= amount;
        }
    }

    fn levels(&self, source: usize) -> Vec<Option<usize>> {
        let mut level = vec![None; self.num_nodes];
        level[source] = Some(0);
        let mut queue = VecDeque::from([source]);
        while let Some(v) = queue.pop_front() {
            let next = level[v].map(|l| l + 1);
            for &arc in &self.adjacency[v] {
                let w = self.head(arc);
                if level[w].is_none() && self.residual(arc) > 0 {
                    level[w] = next;
                    queue.push_back(w);
                }
            }
        }
        level
    }

    fn augment(
        &mut self,
        v: usize,
        sink: usize,
        limit: u64,
        level: &[Option<usize>],
        next_arc: &mut [usize],
    ) -> u64 {
        if v == sink {
            return limit;
        }
        while next_arc[v] < self.adjacency[v].len() {
            let arc = self.adjacency[v][next_arc[v]];
            let w = self.head(arc);
            let residual = self.residual(arc);
            if residual > 0 && level[w].is_some() && level[w] == level[v].map(|l| l + 1) {
                let pushed = self.augment(w, sink, limit.min(residual), level, next_arc);
                if pushed > 0 {
                    self.push(arc, pushed);
                    return pushed;
                }
            }
            next_arc[v] += 1;
        }
        0
    }

    /// Maximum flow from `source` to `sink` (Dinic: BFS levels, blocking flows
    /// by DFS). Flows already on the edges are kept and augmented.
    pub fn max_flow(&mut self, source: usize, sink: usize) -> MaxFlow {
        let mut value = 0;
        if source != sink {
            loop {
                let level = self.levels(source);
                if level[sink].is_none() {
                    break;
                }
                let mut next_arc = vec![0; self.num_nodes];
                loop {
                    let pushed = self.augment(source, sink, u64::MAX, &level, &mut next_arc);
                    if pushed == 0 {
                        break;
                    }
                    value += pushed;
                }
            }
        }
        let source_side = self.levels(source).iter().map(Option::is_some).collect();
        MaxFlow { value, source_side }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_network_has_flow_23_and_a_cut_of_the_same_capacity() {
        // CLRS figure 26.1.
        let mut net = FlowNetwork::new(6);
        for (u, v, c) in [
            (0, 1, 16),
            (0, 2, 13),
            (2, 1, 4),
            (1, 3, 12),
            (3, 2, 9),
            (2, 4, 14),
            (4, 3, 7),
            (3, 5, 20),
            (4, 5, 4),
        ] {
            net.add_edge(u, v, c);
        }
        let result = net.max_flow(0, 5);
        assert_eq!(result.value, 23);
        let cut: u64 = net
            .edges()
            .iter()
            .filter(|e| result.source_side[e.from] && !result.source_side[e.to])
            .map(|e| e.capacity)
            .sum();
        assert_eq!(cut, 23);
        assert!(result.source_side[0] && !result.source_side[5]);
    }

    #[test]
    fn disconnected_sink_gets_no_flow() {
        let mut net = FlowNetwork::new(3);
        net.add_edge(0, 1, 5);
        let result = net.max_flow(0, 2);
        assert_eq!(result.value, 0);
        assert_eq!(result.source_side, vec![true, true, false]);
    }
}
