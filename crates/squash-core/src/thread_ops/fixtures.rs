//! What the thread-operation tests build threads from.

use std::collections::BTreeSet;

use proptest::prelude::*;

use crate::ids::MessageId;
use crate::message::ToolRefs;

/// A thread of `n` new messages.
pub(super) fn ids(n: usize) -> Vec<MessageId> {
    (0..n).map(|_| MessageId::new()).collect()
}

/// The messages of `thread` at the positions `picks` names that it has.
fn picked(thread: &[MessageId], picks: &BTreeSet<usize>) -> Vec<MessageId> {
    picks
        .iter()
        .filter(|p| **p < thread.len())
        .map(|p| thread[*p])
        .collect()
}

/// A thread of 2 to 39 messages and a selection of at least two of them, in thread order.
pub(super) fn thread_and_selection() -> impl Strategy<Value = (Vec<MessageId>, Vec<MessageId>)> {
    (
        2usize..40,
        proptest::collection::btree_set(0usize..40, 2..8),
    )
        .prop_map(|(n, picks)| {
            let thread = ids(n);
            let chosen = picked(&thread, &picks);
            (thread, chosen)
        })
        .prop_filter("a squash takes two messages", |(_, chosen)| {
            chosen.len() >= 2
        })
}

pub(super) fn refs(calls: &[&str], results: &[&str]) -> ToolRefs {
    ToolRefs {
        calls: calls.iter().map(|s| s.to_string()).collect(),
        results: results.iter().map(|s| s.to_string()).collect(),
    }
}

/// The messages of `thread` that are not `chosen`, in order.
pub(super) fn others(thread: &[MessageId], chosen: &[MessageId]) -> Vec<MessageId> {
    thread
        .iter()
        .filter(|id| !chosen.contains(id))
        .copied()
        .collect()
}

/// `squashed` is `thread` with `chosen` squashed into `result`: the result at the first
/// source's place, every other message kept in order.
pub(super) fn check_squashed(
    thread: &[MessageId],
    chosen: &[MessageId],
    result: MessageId,
    squashed: &[MessageId],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(squashed.len(), thread.len() - chosen.len() + 1);
    let first_pos = thread.iter().position(|id| *id == chosen[0]).unwrap();
    prop_assert_eq!(squashed[first_pos], result);
    let rest: Vec<MessageId> = squashed
        .iter()
        .filter(|id| **id != result)
        .copied()
        .collect();
    prop_assert_eq!(rest, others(thread, chosen));
    Ok(())
}
