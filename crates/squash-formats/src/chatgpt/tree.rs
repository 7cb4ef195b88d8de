//! The node tree of one conversation: its branches, from the root to each leaf.

use std::collections::{HashMap, HashSet};

/// Parent links of the nodes of a `mapping`, by node id.
pub(crate) struct Tree<'a> {
    parent: HashMap<&'a str, &'a str>,
    /// Nodes in mapping order.
    order: Vec<&'a str>,
}

impl<'a> Tree<'a> {
    /// `nodes`: (id, parent id) in mapping order. A parent that is not a node (or the node
    /// itself) makes a root.
    pub(crate) fn new(nodes: &[(&'a str, Option<&'a str>)]) -> Tree<'a> {
        let known: HashSet<&str> = nodes.iter().map(|(id, _)| *id).collect();
        let parent = nodes
            .iter()
            .filter_map(|(id, p)| p.filter(|p| known.contains(p) && p != id).map(|p| (*id, p)))
            .collect();
        Tree {
            parent,
            order: nodes.iter().map(|(id, _)| *id).collect(),
        }
    }

    /// The branch from the root down to `node` (a cycle is cut where it closes).
    pub(crate) fn path_to(&self, node: &'a str) -> Vec<&'a str> {
        let mut path = vec![node];
        let mut seen: HashSet<&str> = HashSet::from([node]);
        let mut at = node;
        while let Some(&p) = self.parent.get(at) {
            if !seen.insert(p) {
                break;
            }
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// The nodes no other node names as its parent, in mapping order.
    pub(crate) fn leaves(&self) -> Vec<&'a str> {
        let parents: HashSet<&str> = self.parent.values().copied().collect();
        self.order
            .iter()
            .copied()
            .filter(|id| !parents.contains(id))
            .collect()
    }

    /// How far `node` is from its root.
    pub(crate) fn depth(&self, node: &'a str) -> usize {
        self.path_to(node).len() - 1
    }
}
