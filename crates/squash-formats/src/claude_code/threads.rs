//! The threads of one conversation, as lists of lines: the one the agent continues from (to
//! the latest leaf, or the leaf a `last-prompt` line names), the history before each
//! compaction, and every branch a rewind left behind.

use squash_core::{BranchKind, Role};

use super::lines::{small, LineRecord};
use super::tree::Tree;

pub(super) struct PathThread {
    pub lines: Vec<usize>,
    /// Index of the thread this one derives from (earlier in the list); `None` for the first.
    pub original: Option<usize>,
    pub kind: BranchKind,
}

pub(super) struct Paths {
    pub threads: Vec<PathThread>,
    pub current: usize,
}

/// The threads of the group whose tree lines are `members` (file order); `explicit_leaf` is
/// the line a `last-prompt` names, if any.
pub(super) fn thread_paths(
    lines: &[LineRecord],
    tree: &Tree,
    members: &[usize],
    explicit_leaf: Option<usize>,
) -> Option<Paths> {
    let in_group = LineSet::of(lines.len(), members);
    let children = Children::build(tree, members);
    // A leaf that is no message (a progress or attachment line) stands for the message above.
    let mut leaves: Vec<usize> = Vec::new();
    for &i in members.iter().filter(|&&i| !children.has(i)) {
        if let Some(m) = nearest_message(lines, tree, i) {
            if !leaves.contains(&m) {
                leaves.push(m);
            }
        }
    }
    leaves.sort_unstable();
    // The line a `last-prompt` names is where the user left off, or (after a rewind) where
    // they went back to: the newest leaf below it is where they are now.
    let below_explicit = explicit_leaf
        .filter(|&i| in_group.contains(i))
        .and_then(|e| {
            leaves
                .iter()
                .rev()
                .find(|&&l| tree.walk(l, None).contains(&e))
                .copied()
        });
    // A line the agent injected (`isMeta`: a caveat, a stop hook's feedback) is not where the
    // person left off, but the message it follows is: a leaf counts by its newest ancestor
    // that is not injected, and its thread keeps it.
    let left_off = |leaf: usize| nearest(lines, tree, leaf, |l| !l.is_meta);
    let current_leaf =
        below_explicit.or_else(|| leaves.iter().copied().max_by_key(|&l| (left_off(l), l)))?;

    let mut found: Vec<Vec<usize>> = vec![absorb(lines, &children, tree.walk(current_leaf, None))];
    let mut covered = LineSet::of(lines.len(), &found[0]);
    // The history before each compaction, as it was before the summary replaced it.
    let ends = history_ends(lines, tree, members, &in_group);
    for &(b, last) in &ends {
        let path = absorb(lines, &children, tree.walk(last, Some(b)));
        if !found.contains(&path) {
            covered.extend(&path);
            found.push(path);
        }
    }
    // The whole history, when the agent compacted on its way to where it is.
    let whole = undone(lines, tree, &children, &ends, &found[0]).filter(|w| !found.contains(w));
    let whole_at = whole.map(|w| {
        found.push(w);
        found.len() - 1
    });
    // Every other leaf is a branch left behind, newest first: a branch is the path to its
    // newest leaf, which covers the older leaves on it (results of parallel calls, whose calls
    // the path absorbs). A message no leaf reached (a relinked head of malformed input) still
    // gets a thread of its own.
    let rest = leaves
        .iter()
        .rev()
        .copied()
        .chain(members.iter().copied().filter(|&i| lines[i].is_message()));
    for leaf in rest.collect::<Vec<_>>() {
        if covered.contains(leaf) {
            continue;
        }
        let path = absorb(lines, &children, tree.walk(leaf, None));
        covered.extend(&path);
        found.push(path);
    }
    Some(arrange(lines, &ends, found, whole_at))
}

fn nearest_message(lines: &[LineRecord], tree: &Tree, from: usize) -> Option<usize> {
    nearest(lines, tree, from, LineRecord::is_message)
}

/// `from` or its nearest ancestor that is `wanted`.
fn nearest(
    lines: &[LineRecord],
    tree: &Tree,
    from: usize,
    wanted: impl Fn(&LineRecord) -> bool,
) -> Option<usize> {
    tree.ancestors(from).find(|&at| wanted(&lines[at]))
}

/// Each compaction boundary of the group with the last line of the history it replaced: its
/// logical parent, or — where that names a line the file does not hold (Claude Code ≥ 2.1.20
/// writes such in about a third of sessions) — the last message written before the boundary.
/// Without that history every call of it, whose progress lines end in a leaf, would read as a
/// branch of its own.
fn history_ends(
    lines: &[LineRecord],
    tree: &Tree,
    members: &[usize],
    in_group: &LineSet,
) -> Vec<(usize, usize)> {
    let mut ends = Vec::new();
    for (at, &b) in members.iter().enumerate() {
        let Some(logical) = lines[b]
            .boundary
            .as_ref()
            .and_then(|x| x.logical_parent.as_deref())
        else {
            continue;
        };
        let last = tree
            .index(logical)
            .filter(|&i| in_group.contains(i))
            .or_else(|| {
                members[..at]
                    .iter()
                    .rev()
                    .find(|&&i| lines[i].is_message())
                    .copied()
            });
        if let Some(last) = last {
            ends.push((b, last));
        }
    }
    ends
}

/// The last line of the history the compaction at `boundary` replaced, if it is one of `ends`.
fn history_end(ends: &[(usize, usize)], boundary: usize) -> Option<usize> {
    ends.iter()
        .find(|&&(b, _)| b == boundary)
        .map(|&(_, last)| last)
}

/// `path` (a thread that reaches a compaction's boundary) with each compaction undone: the
/// history before the last boundary on it (itself undone), then what followed the boundary,
/// without the boundary, the summary after it, or the preserved messages the history holds.
/// `None` when no boundary on the path has a history.
fn undone(
    lines: &[LineRecord],
    tree: &Tree,
    children: &Children,
    ends: &[(usize, usize)],
    path: &[usize],
) -> Option<Vec<usize>> {
    let (at, last) = (path.iter().enumerate().rev())
        .find_map(|(at, &i)| history_end(ends, i).map(|last| (at, last)))?;
    let boundary = path[at];
    let history = absorb(lines, children, tree.walk(last, Some(boundary)));
    let mut whole = undone(lines, tree, children, ends, &history).unwrap_or(history);
    let held = LineSet::of(lines.len(), &whole);
    let summary = path.get(at + 1).copied().filter(|&i| {
        lines[i]
            .message()
            .is_some_and(|m| m.role == Role::User && m.facts.injected)
    });
    whole.extend(
        path.iter()
            .enumerate()
            .filter(|&(k, &i)| k != at && Some(i) != summary && !held.contains(i))
            .map(|(_, &i)| i),
    );
    Some(whole)
}

/// Orders the threads by when their last line was written (the first is the initial thread),
/// and names the thread each derives from: the earlier one it shares most lines with; the
/// whole history (`found[whole]`) derives from the thread the agent continues from.
fn arrange(
    lines: &[LineRecord],
    ends: &[(usize, usize)],
    found: Vec<Vec<usize>>,
    whole: Option<usize>,
) -> Paths {
    let last_line = |p: &Vec<usize>| p.iter().map(|&i| lines[i].no).max().unwrap_or(0);
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by_key(|&k| (last_line(&found[k]), k));
    let current = order.iter().position(|&k| k == 0).unwrap_or(0);
    let mut sorted: Vec<Vec<usize>> = Vec::with_capacity(found.len());
    let mut threads: Vec<PathThread> = Vec::with_capacity(found.len());
    let mut slots: Vec<Option<Vec<usize>>> = found.into_iter().map(Some).collect();
    for &k in &order {
        let path = slots[k].take().unwrap_or_default();
        if Some(k) == whole {
            // Its last line is the current thread's, so that thread comes before it.
            threads.push(PathThread {
                lines: path.clone(),
                original: Some(current).filter(|&c| c < sorted.len()),
                kind: BranchKind::WholeHistory,
            });
            sorted.push(path);
            continue;
        }
        let original = derived_from(lines, ends, &sorted, &path);
        let kind = match original {
            Some(o) if brings_a_compaction(lines, &sorted[o], &path) => BranchKind::Compaction,
            _ => BranchKind::Rewind,
        };
        threads.push(PathThread {
            lines: path.clone(),
            original,
            kind,
        });
        sorted.push(path);
    }
    Paths { threads, current }
}

fn derived_from(
    lines: &[LineRecord],
    ends: &[(usize, usize)],
    earlier: &[Vec<usize>],
    path: &[usize],
) -> Option<usize> {
    if earlier.is_empty() {
        return None;
    }
    let mine = LineSet::of(lines.len(), path);
    let shared = |p: &Vec<usize>| p.iter().filter(|&&i| mine.contains(i)).count();
    let best = (0..earlier.len()).max_by_key(|&k| (shared(&earlier[k]), k))?;
    if shared(&earlier[best]) > 0 {
        return Some(best);
    }
    // A compaction without preserved messages shares no line with the history it replaced:
    // the thread that holds that history's last line.
    let end = path.iter().find_map(|&i| history_end(ends, i));
    end.and_then(|last| {
        (0..earlier.len())
            .rev()
            .find(|&k| earlier[k].contains(&last))
    })
    .or(Some(earlier.len() - 1))
}

fn brings_a_compaction(lines: &[LineRecord], original: &[usize], path: &[usize]) -> bool {
    let before = LineSet::of(lines.len(), original);
    path.iter()
        .any(|&i| lines[i].boundary.is_some() && !before.contains(i))
}

/// Adds to a path the lines of parallel tool calls that hang beside it (Claude Code writes
/// each call of one response as its own line, and each result as a child of its call), in
/// the order the API needs: the response's calls, then their results.
fn absorb(lines: &[LineRecord], children: &Children, path: Vec<usize>) -> Vec<usize> {
    let on_path = LineSet::of(lines.len(), &path);
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i < path.len() {
        let Some(api) = lines[path[i]].assistant_api_id() else {
            out.push(path[i]);
            i += 1;
            continue;
        };
        let mut run: Vec<usize> = Vec::new();
        while i < path.len() && lines[path[i]].assistant_api_id() == Some(api) {
            run.push(path[i]);
            i += 1;
        }
        // Calls of the same response that are not on the path.
        let mut k = 0;
        while k < run.len() {
            for c in message_children(lines, children, run[k]) {
                if !on_path.contains(c)
                    && !run.contains(&c)
                    && lines[c].assistant_api_id() == Some(api)
                {
                    run.push(c);
                }
            }
            k += 1;
        }
        run.sort_unstable();
        let mut results: Vec<usize> = Vec::new();
        while i < path.len() && is_result_of(lines, children, path[i], &run) {
            results.push(path[i]);
            i += 1;
        }
        for &r in &run {
            for c in message_children(lines, children, r) {
                if !on_path.contains(c) && lines[c].is_tool_result() && !results.contains(&c) {
                    results.push(c);
                }
            }
        }
        results.sort_unstable();
        out.extend(run);
        out.extend(results);
    }
    out
}

/// The message lines below line `i`, looking through the lines between that are no message:
/// Claude Code ≥ 2.1 writes a response's next parallel call under the progress line of the call
/// before it, not under the call.
fn message_children(lines: &[LineRecord], children: &Children, i: usize) -> Vec<usize> {
    let mut found = Vec::new();
    let mut below: Vec<usize> = children.of(i).collect();
    // Each line has one parent, so each is reached once; the bound stops a cycle of
    // malformed input.
    let mut budget = lines.len();
    while let Some(c) = below.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        if lines[c].is_message() {
            found.push(c);
        } else {
            below.extend(children.of(c));
        }
    }
    found
}

fn is_result_of(lines: &[LineRecord], children: &Children, i: usize, run: &[usize]) -> bool {
    lines[i].is_tool_result() && children.parent_of(i).is_some_and(|p| run.contains(&p))
}

/// A set of lines, one bit per line of the file: the main conversation holds nearly every
/// line of a session, and a hash set cost 16 bytes a line, several times over.
struct LineSet {
    bits: Vec<u64>,
}

impl LineSet {
    fn of(lines: usize, members: &[usize]) -> LineSet {
        let mut set = LineSet {
            bits: vec![0; lines.div_ceil(64)],
        };
        set.extend(members);
        set
    }

    fn extend(&mut self, members: &[usize]) {
        for &i in members {
            if let Some(word) = self.bits.get_mut(i / 64) {
                *word |= 1 << (i % 64);
            }
        }
    }

    fn contains(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// The children of every line of a group, under the links as they stand. Sorted lists, not
/// maps: a session has a line per message, and this is built for every one of them.
struct Children {
    /// `(parent, child)`, by parent then child: `of` is a run of it.
    parents: Vec<u32>,
    children: Vec<u32>,
    /// `(child, parent)`, by child.
    parent: Vec<(u32, u32)>,
}

impl Children {
    fn build(tree: &Tree, members: &[usize]) -> Children {
        let mut edges: Vec<(u32, u32)> = members
            .iter()
            .filter_map(|&i| Some((small(tree.parent(i, None)?), small(i))))
            .collect();
        let mut parent: Vec<(u32, u32)> = edges.iter().map(|&(p, c)| (c, p)).collect();
        parent.sort_unstable();
        edges.sort_unstable();
        let (parents, children) = edges.into_iter().unzip();
        Children {
            parents,
            children,
            parent,
        }
    }

    fn of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let i = small(i);
        let from = self.parents.partition_point(|&p| p < i);
        let to = self.parents.partition_point(|&p| p <= i);
        self.children[from..to].iter().map(|&c| c as usize)
    }

    fn parent_of(&self, i: usize) -> Option<usize> {
        let at = self
            .parent
            .binary_search_by_key(&small(i), |&(c, _)| c)
            .ok()?;
        Some(self.parent[at].1 as usize)
    }

    fn has(&self, i: usize) -> bool {
        self.of(i).next().is_some()
    }
}
