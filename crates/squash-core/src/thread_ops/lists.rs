//! The list forms of the thread operations: the current list of message ids in, the new list
//! out, by the same planners and [`LinkEdit::apply`](super::LinkEdit::apply). What the store
//! must hold after an operation, for the property tests and the benchmarks.

use super::link_edit::{plan_delete, plan_edit, plan_squash};
use super::selection::order_by_thread;
use crate::error::DomainError;
use crate::ids::MessageId;

/// Appends `message` at the end: the fast path, no copy of the thread is needed by the caller.
pub fn append(links: &[MessageId], message: MessageId) -> Vec<MessageId> {
    let mut next = Vec::with_capacity(links.len() + 1);
    next.extend_from_slice(links);
    next.push(message);
    next
}

/// Squashes `sources` (any order, at least two) into `result`: the result takes the position
/// of the first source, the other sources leave, everything else keeps its order. The list form
/// of [`plan_squash`].
pub fn squash(
    links: &[MessageId],
    sources: &[MessageId],
    result: MessageId,
) -> Result<Vec<MessageId>, DomainError> {
    if sources.len() < 2 {
        return Err(DomainError::TooFewMessages(sources.len()));
    }
    let ordered = order_by_thread(links, sources)?;
    plan_squash(links, &ordered)?.apply(links, Some(result))
}

/// Replaces `target` by `replacement` at the same position.
pub fn edit(
    links: &[MessageId],
    target: MessageId,
    replacement: MessageId,
) -> Result<Vec<MessageId>, DomainError> {
    plan_edit(links, target)?.apply(links, Some(replacement))
}

/// Removes `targets` from the thread.
pub fn delete(links: &[MessageId], targets: &[MessageId]) -> Result<Vec<MessageId>, DomainError> {
    let ordered = order_by_thread(links, targets)?;
    plan_delete(links, &ordered)?.apply(links, None)
}

#[cfg(test)]
#[path = "lists_tests.rs"]
mod tests;
