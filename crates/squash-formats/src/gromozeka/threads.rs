//! The thread tree of a conversation: stored threads in parent-first order, which thread
//! introduced a message, and what created each thread.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use squash_core::{ImportThread, MessageId, SquashOperation, ThreadId, ThreadOrigin};

/// A stored thread, before its origin is known.
pub(super) struct RawThread {
    pub gid: String,
    pub original: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub links: Vec<MessageId>,
}

/// The threads of a conversation with their new ids and parents, parents first.
pub(super) struct ThreadTree {
    raw: Vec<RawThread>,
    ids: Vec<ThreadId>,
    parent_of: Vec<Option<usize>>,
    index: HashMap<String, usize>,
}

impl ThreadTree {
    /// `raw` must be parents first and not empty.
    pub(super) fn new(raw: Vec<RawThread>) -> ThreadTree {
        let ids = raw.iter().map(|_| ThreadId::new()).collect();
        let index: HashMap<String, usize> = raw
            .iter()
            .enumerate()
            .map(|(i, t)| (t.gid.clone(), i))
            .collect();
        let parent_of = raw
            .iter()
            .map(|t| t.original.as_deref().and_then(|o| index.get(o).copied()))
            .collect();
        ThreadTree {
            raw,
            ids,
            parent_of,
            index,
        }
    }

    /// The thread that introduced a message: it links it and its parent does not.
    pub(super) fn introduced_in(&self, message: MessageId) -> Option<usize> {
        self.raw.iter().enumerate().find_map(|(i, t)| {
            let here = t.links.contains(&message);
            let in_parent = self.parent_of[i].is_some_and(|p| self.raw[p].links.contains(&message));
            (here && !in_parent && self.parent_of[i].is_some()).then_some(i)
        })
    }

    /// The operation's base and result threads, for an operation whose result `thread`
    /// introduced.
    pub(super) fn base_and_result(
        &self,
        thread: Option<usize>,
    ) -> (Option<ThreadId>, Option<ThreadId>) {
        let base = thread.and_then(|t| self.parent_of[t]);
        (base.map(|p| self.ids[p]), thread.map(|t| self.ids[t]))
    }

    /// `sources` in the order `base` links them (then in creation order).
    pub(super) fn order_in(
        &self,
        base: Option<usize>,
        mut sources: Vec<MessageId>,
        index_of: &HashMap<MessageId, usize>,
    ) -> Vec<MessageId> {
        sources.sort_by_key(|s| {
            let pos = base.and_then(|t| self.raw[t].links.iter().position(|l| l == s));
            (
                pos.unwrap_or(usize::MAX),
                index_of.get(s).copied().unwrap_or(usize::MAX),
            )
        });
        sources
    }

    /// The parent of thread `i`.
    pub(super) fn parent(&self, i: Option<usize>) -> Option<usize> {
        i.and_then(|t| self.parent_of[t])
    }

    /// The new id of the thread stored as `gid`.
    pub(super) fn id_of(&self, gid: &str) -> Option<ThreadId> {
        self.index.get(gid).map(|&i| self.ids[i])
    }

    /// The newest thread.
    pub(super) fn newest(&self) -> ThreadId {
        self.ids[self.ids.len() - 1]
    }

    /// Stored thread id → new id, for the export's metadata.
    pub(super) fn gids(&self) -> impl Iterator<Item = (&str, ThreadId)> {
        self.raw
            .iter()
            .zip(&self.ids)
            .filter(|(t, _)| !t.gid.is_empty())
            .map(|(t, id)| (t.gid.as_str(), *id))
    }

    /// The threads to import. Each derived thread's origin: the operation that produced it,
    /// else what it removed.
    pub(super) fn into_import(self, operations: &[SquashOperation]) -> Vec<ImportThread> {
        let mut threads = Vec::with_capacity(self.raw.len());
        for (i, t) in self.raw.iter().enumerate() {
            let origin = match self.parent_of[i] {
                None => ThreadOrigin::Initial,
                Some(p) => self.origin(i, p, operations),
            };
            threads.push(ImportThread {
                id: self.ids[i],
                original_thread_id: self.parent_of[i].map(|p| self.ids[p]),
                origin,
                revision: 0,
                links: t.links.clone(),
                created_at: t.created_at,
                updated_at: t.updated_at.max(t.created_at),
            });
        }
        threads
    }

    fn origin(&self, i: usize, parent: usize, operations: &[SquashOperation]) -> ThreadOrigin {
        match operations
            .iter()
            .find(|o| o.result_thread_id == Some(self.ids[i]))
        {
            Some(op) if op.is_edit() => ThreadOrigin::Edit {
                operation_id: op.id,
            },
            Some(op) => ThreadOrigin::Squash {
                operation_id: op.id,
            },
            None => {
                let kept: HashSet<&MessageId> = self.raw[i].links.iter().collect();
                let removed: Vec<MessageId> = self.raw[parent]
                    .links
                    .iter()
                    .filter(|l| !kept.contains(l))
                    .copied()
                    .collect();
                ThreadOrigin::Delete {
                    message_ids: removed,
                }
            }
        }
    }
}

/// Orders threads so that each comes after the thread it derives from; a parent that is not
/// stored (or a cycle) makes a thread a root.
pub(super) fn parents_first(mut threads: Vec<RawThread>) -> Vec<RawThread> {
    let known: HashSet<String> = threads.iter().map(|t| t.gid.clone()).collect();
    for t in &mut threads {
        if t.original
            .as_ref()
            .is_some_and(|o| !known.contains(o) || *o == t.gid)
        {
            t.original = None;
        }
    }
    let mut placed: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(threads.len());
    while !threads.is_empty() {
        let before = threads.len();
        let mut rest = Vec::new();
        for t in threads {
            if t.original.as_ref().is_none_or(|o| placed.contains(o)) {
                placed.insert(t.gid.clone());
                out.push(t);
            } else {
                rest.push(t);
            }
        }
        if rest.len() == before {
            // A cycle: break it at the first thread.
            let mut rest = rest.into_iter();
            if let Some(mut t) = rest.next() {
                t.original = None;
                placed.insert(t.gid.clone());
                out.push(t);
            }
            threads = rest.collect();
        } else {
            threads = rest;
        }
    }
    out
}
