//! Which conversation each line belongs to (the main one, or one per sub-agent run), the
//! file-order fallback for lines whose parent is missing (trimmed or hand-made sessions), and
//! file order again for a prompt that late hook lines hung under an old turn.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use squash_core::Role;

use super::lines::LineRecord;
use super::tree::Tree;

/// The conversation a line belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum GroupKey {
    Main,
    /// A sub-agent run named by its `agentId`: its pieces are one conversation.
    Agent(String),
    /// A sub-agent run without `agentId` whose lines fall in the time a `Task` call was running
    /// (from the call to its result): named by the call's tool-use id.
    Task(String),
    /// A sub-agent run without `agentId`, named by its first line.
    Root(usize),
}

/// The lines of one conversation, in file order.
pub(super) struct Group {
    pub key: GroupKey,
    /// Lines in the tree (with a uuid).
    pub members: Vec<usize>,
    /// Lines outside the tree (no uuid, or a repeated one): kept for the export.
    pub loose: Vec<usize>,
}

impl Group {
    fn new(key: GroupKey) -> Group {
        Group {
            key,
            members: Vec::new(),
            loose: Vec::new(),
        }
    }
}

/// The time each `Task` call of the main chain ran: (tool-use id, from, to); a call without a
/// result runs to the end.
fn task_windows(lines: &[LineRecord]) -> Vec<(String, DateTime<Utc>, DateTime<Utc>)> {
    let mut windows: Vec<(String, DateTime<Utc>, DateTime<Utc>)> = Vec::new();
    for line in lines.iter().filter(|l| !l.sidechain) {
        let (Some(m), Some(at)) = (line.message(), line.timestamp) else {
            continue;
        };
        for (id, _, _) in m.facts.tasks() {
            windows.push((id.clone(), at, DateTime::<Utc>::MAX_UTC));
        }
        for id in m.facts.result_ids() {
            if let Some(w) = windows.iter_mut().find(|w| *w.0 == **id) {
                w.2 = at;
            }
        }
    }
    windows
}

/// Splits the lines into conversations, main first, then sub-agent runs in file order. A
/// sub-agent line that names no `agentId` (nor does its root) joins the run of the `Task`
/// call that was running when it was written, when exactly one was.
pub(super) fn groups(lines: &[LineRecord], tree: &Tree) -> Vec<Group> {
    let windows = task_windows(lines);
    let running = |at: Option<DateTime<Utc>>| -> Option<String> {
        let at = at?;
        let mut open = windows
            .iter()
            .filter(|(_, from, to)| *from <= at && at <= *to);
        match (open.next(), open.next()) {
            (Some((id, _, _)), None) => Some(id.clone()),
            _ => None,
        }
    };
    let mut root_of: Vec<usize> = (0..lines.len()).collect();
    for i in 0..lines.len() {
        if !tree.in_tree[i] {
            continue;
        }
        // Parents usually come first in the file: reuse their root.
        root_of[i] = match tree.parent(i, None) {
            Some(p) if p < i => root_of[p],
            Some(_) => tree.root(i),
            None => i,
        };
    }
    let mut order: Vec<Group> = vec![Group::new(GroupKey::Main)];
    let mut at: HashMap<GroupKey, usize> = HashMap::from([(GroupKey::Main, 0)]);
    for (i, line) in lines.iter().enumerate() {
        let key = if !line.sidechain {
            GroupKey::Main
        } else if let Some(agent) = line.agent_id.or(lines[root_of[i]].agent_id) {
            GroupKey::Agent(tree.text(agent))
        } else if let Some(task) = running(lines[root_of[i]].timestamp.or(line.timestamp)) {
            GroupKey::Task(task)
        } else if tree.in_tree[i] {
            GroupKey::Root(root_of[i])
        } else {
            GroupKey::Main
        };
        let g = *at.entry(key.clone()).or_insert_with(|| {
            order.push(Group::new(key));
            order.len() - 1
        });
        if tree.in_tree[i] {
            order[g].members.push(i);
        } else {
            order[g].loose.push(i);
        }
    }
    order
}

/// What [`join_orphans`] did, for the warning.
#[derive(Default)]
pub(super) struct Orphans {
    /// Lines without `parentUuid` that are not the first line, joined to the line before.
    pub null: usize,
    /// Lines whose parent is not in the file, joined to the line before: (line number, parent).
    pub dangling: Vec<(usize, String)>,
    /// The first line names a parent that is not in the file: (line number, parent).
    pub trimmed_start: Option<(usize, String)>,
}

/// Every line of a group that has no parent (other than its first line and compaction
/// boundaries, which start a chain by design) follows the message line before it in the file.
pub(super) fn join_orphans(lines: &[LineRecord], tree: &mut Tree, members: &[usize]) -> Orphans {
    let mut orphans = Orphans::default();
    let mut previous: Option<usize> = None;
    for &i in members {
        let line = &lines[i];
        if tree.is_root(i) && line.boundary.is_none() {
            let dangling = line
                .parent
                .filter(|&p| tree.line(p).is_none())
                .map(|p| tree.text(p));
            match (previous, dangling) {
                (Some(p), Some(parent)) => {
                    tree.set_fallback(i, p);
                    orphans.dangling.push((line.no, parent));
                }
                (Some(p), None) => {
                    tree.set_fallback(i, p);
                    orphans.null += 1;
                }
                (None, Some(parent)) => orphans.trimmed_start = Some((line.no, parent)),
                (None, None) => {}
            }
        }
        if line.is_message() {
            previous = Some(i);
        }
    }
    orphans
}

/// Claude Code (seen at 2.1.72, with hooks) writes some hooks' progress lines late — a
/// background call's `PreToolUse`, a resumed session's `SessionStart` — under the message they
/// are about, long after the conversation went past it, and the next prompt hangs under the
/// end of that chain. Read by its links, each such prompt would be a rewind into the middle of
/// an old turn, and the thread where the person is would skip the turns in between. So a
/// prompt (a user line that answers no call) under non-message lines whose nearest message is
/// mid-turn (a user line, or a call) that later messages went past continues from the newest
/// message written before it. A rewind goes back to where a turn ended (an answer), which
/// this leaves alone.
pub(super) fn continue_past_late_hooks(lines: &[LineRecord], tree: &mut Tree, members: &[usize]) {
    let mut newest: Option<usize> = None;
    for &i in members {
        let Some(message) = lines[i].message().filter(|m| m.role != Role::System) else {
            continue;
        };
        let prompt = message.role == Role::User && !lines[i].is_tool_result();
        if let (true, Some(n)) = (prompt, newest) {
            if let Some((top, m)) = hung_under(lines, tree, i) {
                if m != n && mid_turn(&lines[m]) && went_past(lines, tree, m, n) {
                    tree.set_continued(top, n);
                }
            }
        }
        newest = Some(i);
    }
}

/// When line `i` hangs under lines that are no turn of the conversation (progress, a hook's
/// system line): the topmost of them, and the message of the conversation it hangs under.
fn hung_under(lines: &[LineRecord], tree: &Tree, i: usize) -> Option<(usize, usize)> {
    let is_turn = |at: usize| lines[at].message().is_some_and(|m| m.role != Role::System);
    let mut top = None;
    for at in tree.ancestors(i).skip(1) {
        if is_turn(at) {
            return top.map(|t| (t, at));
        }
        top = Some(at);
    }
    None
}

/// Whether the conversation went on from `m` to `n`: `m` is on the way to `n`, or hangs
/// beside it by calls and results only (parallel calls chain one under the other, each
/// result under its call, and the turn goes on from one of them).
fn went_past(lines: &[LineRecord], tree: &Tree, m: usize, n: usize) -> bool {
    let path: HashSet<usize> = tree.walk(n, None).into_iter().collect();
    for at in tree.ancestors(m) {
        if path.contains(&at) {
            return true;
        }
        if !(lines[at].is_tool_result() || lines[at].is_call()) {
            return false;
        }
    }
    false
}

/// A message after which the turn goes on: a user line (a prompt, a result) or a call.
fn mid_turn(line: &LineRecord) -> bool {
    line.message().is_some_and(|m| m.role == Role::User) || line.is_call()
}

/// The warnings for what [`join_orphans`] did in the conversation `what`.
pub(super) fn orphan_warnings(source: &str, what: &str, orphans: &Orphans) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some((no, parent)) = &orphans.trimmed_start {
        warnings.push(format!(
            "{source}: {what} starts at line {no}, whose parent {parent} is not in this file \
             (a trimmed session?)"
        ));
    }
    if let Some((no, parent)) = orphans.dangling.first() {
        warnings.push(format!(
            "{source}: {what}: {} line(s) name a parent that is not in this file (first: line \
             {no}, parent {parent}); they are read in file order",
            orphans.dangling.len()
        ));
    }
    if orphans.null > 0 {
        warnings.push(format!(
            "{source}: {what}: {} line(s) have no parentUuid; they are read in file order",
            orphans.null
        ));
    }
    warnings
}
