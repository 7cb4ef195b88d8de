//! What the thread-operation tests build threads from.

use std::collections::BTreeSet;

use crate::ids::MessageId;
use crate::message::ToolRefs;

/// A thread of `n` new messages.
pub(super) fn ids(n: usize) -> Vec<MessageId> {
    (0..n).map(|_| MessageId::new()).collect()
}

/// The messages of `thread` at the positions `picks` names that it has.
pub(super) fn picked(thread: &[MessageId], picks: &BTreeSet<usize>) -> Vec<MessageId> {
    picks
        .iter()
        .filter(|p| **p < thread.len())
        .map(|p| thread[*p])
        .collect()
}

pub(super) fn refs(calls: &[&str], results: &[&str]) -> ToolRefs {
    ToolRefs {
        calls: calls.iter().map(|s| s.to_string()).collect(),
        results: results.iter().map(|s| s.to_string()).collect(),
    }
}
