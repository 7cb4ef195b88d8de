//! The parent links between the lines of a session: as written, as Claude Code relinks them
//! behind a compaction's summary, and (for lines whose parent is missing) in file order.

use std::collections::{HashMap, HashSet};

use super::keys::{Key, Keys};
use super::lines::{small, LineRecord, Preserved};

pub(super) struct Tree {
    keys: Keys,
    /// Per key, the line whose uuid it is (the first line of a repeated uuid).
    line_of: Vec<Option<u32>>,
    /// `parentUuid`, when that line is in the file.
    written: Vec<Option<u32>>,
    /// The parent a compaction's preserved messages give a line: `(boundary line, parent)`.
    /// (Sparse: few lines have one, and a session has a line per message.)
    relinked: HashMap<usize, (usize, Option<usize>)>,
    /// The previous line in file order, for a line whose parent is missing.
    fallback: HashMap<usize, usize>,
    /// The message a line continues from in place of what it hangs under as written (see
    /// [`super::chain::continue_past_late_hooks`]).
    continued: HashMap<usize, usize>,
    /// Lines with a uuid (the first of a repeated uuid).
    pub in_tree: Vec<bool>,
}

impl Tree {
    /// The tree of `lines`, whose uuids are `keys`.
    pub fn build(lines: &[LineRecord], keys: Keys) -> Tree {
        let mut line_of: Vec<Option<u32>> = vec![None; keys.len()];
        let mut in_tree = vec![false; lines.len()];
        for (i, line) in lines.iter().enumerate() {
            if let Some(uuid) = line.uuid {
                // A repeated uuid keeps its first line; the repeat stays an extra.
                if line_of[uuid.index()].is_none() {
                    line_of[uuid.index()] = Some(small(i));
                    in_tree[i] = true;
                }
            }
        }
        let written = lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let p = line_of[line.parent?.index()]?;
                (in_tree[i] && p as usize != i).then_some(p)
            })
            .collect();
        let mut tree = Tree {
            keys,
            line_of,
            written,
            relinked: HashMap::new(),
            fallback: HashMap::new(),
            continued: HashMap::new(),
            in_tree,
        };
        for (b, line) in lines.iter().enumerate() {
            if let Some(preserved) = line.boundary.as_ref().and_then(|x| x.preserved.as_ref()) {
                tree.relink(lines, b, preserved);
            }
        }
        tree
    }

    /// Claude Code's own relinking on load: the preserved messages follow the anchor (the
    /// summary) and what followed the anchor now follows the last preserved message.
    fn relink(&mut self, lines: &[LineRecord], boundary: usize, preserved: &Preserved) {
        let (anchor, chain): (&str, Vec<usize>) = match preserved {
            Preserved::Segment { head, anchor, tail } => {
                let (Some(h), Some(t)) = (self.index(head), self.index(tail)) else {
                    return;
                };
                // Only the head moves; the rest of the segment keeps its links.
                self.relinked.insert(h, (boundary, self.index(anchor)));
                self.follow(lines, boundary, anchor, h, t);
                return;
            }
            Preserved::List { anchor, uuids } => {
                let Some(chain) = uuids.iter().map(|u| self.index(u)).collect() else {
                    return; // Claude Code skips a list naming lines that are not there.
                };
                (anchor, chain)
            }
        };
        let mut previous = self.index(anchor);
        for &i in &chain {
            self.relinked.insert(i, (boundary, previous));
            previous = Some(i);
        }
        if let (Some(&first), Some(&last)) = (chain.first(), chain.last()) {
            self.follow(lines, boundary, anchor, first, last);
        }
    }

    /// Lines (other than `first`) that followed `anchor` now follow `last`.
    fn follow(&mut self, lines: &[LineRecord], b: usize, anchor: &str, first: usize, last: usize) {
        let anchor_at = self.index(anchor);
        let anchor_key = self.keys.get(anchor);
        for (y, line) in lines.iter().enumerate() {
            if y == first || y == last || !self.in_tree[y] {
                continue;
            }
            let follows = match self.relinked.get(&y).copied() {
                Some((_, p)) => p.is_some() && p == anchor_at,
                None => line.parent.is_some() && line.parent == anchor_key,
            };
            if follows {
                self.relinked.insert(y, (b, Some(last)));
            }
        }
    }

    pub fn index(&self, uuid: &str) -> Option<usize> {
        self.line(self.keys.get(uuid)?)
    }

    /// The line whose uuid `key` is.
    pub fn line(&self, key: Key) -> Option<usize> {
        self.line_of[key.index()].map(|i| i as usize)
    }

    /// The uuid `key` stands for, as written.
    pub fn text(&self, key: Key) -> String {
        self.keys.text(key)
    }

    /// The parent of line `i`; `before` names a compaction whose relinking is ignored (to
    /// read the history as it was before it).
    pub fn parent(&self, i: usize, before: Option<usize>) -> Option<usize> {
        let fallback = || self.fallback.get(&i).copied();
        match self.relinked.get(&i) {
            Some(&(b, p)) if Some(b) != before => p.or_else(fallback),
            _ => match self.continued.get(&i) {
                Some(&p) => Some(p),
                None => self.written[i].map(|p| p as usize).or_else(fallback),
            },
        }
    }

    /// Whether line `i` has no parent in the file as it stands.
    pub fn is_root(&self, i: usize) -> bool {
        self.parent(i, None).is_none()
    }

    pub fn set_fallback(&mut self, i: usize, parent: usize) {
        self.fallback.insert(i, parent);
    }

    pub fn set_continued(&mut self, i: usize, parent: usize) {
        self.continued.insert(i, parent);
    }

    /// `from`, then its parent, and so on up to its root — or, in malformed input whose links
    /// make a cycle, as many lines as the file has.
    pub fn ancestors(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(from), |&at| self.parent(at, None)).take(self.written.len() + 1)
    }

    /// From `from` back to its root, returned root first.
    pub fn walk(&self, from: usize, before: Option<usize>) -> Vec<usize> {
        let mut chain = vec![from];
        let mut seen: HashSet<usize> = HashSet::from([from]);
        let mut at = from;
        while let Some(p) = self.parent(at, before) {
            if !seen.insert(p) {
                break; // a cycle in malformed input
            }
            chain.push(p);
            at = p;
        }
        chain.reverse();
        chain
    }

    /// The topmost ancestor of `i`.
    pub fn root(&self, i: usize) -> usize {
        self.walk(i, None)[0]
    }
}
