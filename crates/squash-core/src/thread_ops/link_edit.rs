//! A new thread as a change of its base, a [`LinkEdit`]: the links it leaves out and the one it
//! points to the operation's new message; and the planners that compute it for each operation
//! from the positions of the few messages it names.

use crate::error::DomainError;
use crate::ids::MessageId;
use crate::positions::Positions;

/// A new thread described as a change of its base: positions are 0-based positions in the base
/// thread at the revision the plan was made on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkEdit {
    /// Base positions whose links the new thread leaves out; strictly ascending.
    pub dropped: Vec<u64>,
    /// A base position whose link points to the operation's new message instead (an edit, or
    /// a squash result at its first source's place); not one of `dropped`.
    pub replaced: Option<u64>,
}

impl LinkEdit {
    /// Checks the edit against a base of `base_count` links and returns the new count.
    pub fn new_count(&self, base_count: u64) -> Result<u64, DomainError> {
        if self.dropped.windows(2).any(|w| w[0] >= w[1]) {
            return Err(DomainError::DropsNotAscending);
        }
        let past_end = self
            .dropped
            .last()
            .copied()
            .into_iter()
            .chain(self.replaced)
            .find(|p| *p >= base_count);
        if let Some(position) = past_end {
            return Err(DomainError::PositionPastEnd {
                position,
                count: base_count,
            });
        }
        if let Some(p) = self.replaced {
            if self.dropped.binary_search(&p).is_ok() {
                return Err(DomainError::ReplacedAndDropped(p));
            }
        }
        Ok(base_count - self.dropped.len() as u64)
    }

    /// Checks the edit together with the message the operation introduces: a replaced
    /// position needs one. Returns the new count.
    pub fn check(&self, base_count: u64, has_message: bool) -> Result<u64, DomainError> {
        if self.replaced.is_some() && !has_message {
            return Err(DomainError::ReplacementMissing);
        }
        self.new_count(base_count)
    }

    /// The new thread's links: `base` without the dropped positions, the replaced position
    /// pointing to `replacement`.
    pub fn apply(
        &self,
        base: &[MessageId],
        replacement: Option<MessageId>,
    ) -> Result<Vec<MessageId>, DomainError> {
        let count = self.check(base.len() as u64, replacement.is_some())?;
        let mut out = Vec::with_capacity(count as usize);
        let mut dropped = self.dropped.iter().peekable();
        for (position, id) in base.iter().enumerate() {
            let position = position as u64;
            if dropped.peek() == Some(&&position) {
                dropped.next();
                continue;
            }
            match (self.replaced, replacement) {
                (Some(p), Some(r)) if p == position => out.push(r),
                _ => out.push(*id),
            }
        }
        Ok(out)
    }
}

/// An append needs no copy: the message lands at the end of the thread, at this position.
pub fn plan_append(links: &[MessageId]) -> u64 {
    links.len() as u64
}

/// An edit: the edited copy takes the original's place.
pub fn plan_edit<P: Positions + ?Sized>(
    links: &P,
    target: MessageId,
) -> Result<LinkEdit, DomainError> {
    let position = positions(links, &[target])?[0];
    Ok(LinkEdit {
        dropped: Vec::new(),
        replaced: Some(position),
    })
}

/// A delete of `ordered` (in thread order, see [`select_with_partners`](super::select_with_partners)): those links leave.
pub fn plan_delete<P: Positions + ?Sized>(
    links: &P,
    ordered: &[MessageId],
) -> Result<LinkEdit, DomainError> {
    if ordered.is_empty() {
        return Err(DomainError::EmptySelection);
    }
    Ok(LinkEdit {
        dropped: positions(links, ordered)?,
        replaced: None,
    })
}

/// A squash of `ordered` (in thread order, at least two): the result takes the first source's
/// place, the other sources leave.
pub fn plan_squash<P: Positions + ?Sized>(
    links: &P,
    ordered: &[MessageId],
) -> Result<LinkEdit, DomainError> {
    if ordered.len() < 2 {
        return Err(DomainError::TooFewMessages(ordered.len()));
    }
    let mut dropped = positions(links, ordered)?;
    let first = dropped.remove(0);
    Ok(LinkEdit {
        dropped,
        replaced: Some(first),
    })
}

/// The 0-based positions in `links` of `ordered`, ids already in thread order: one forward
/// scan, no hashing of the thread's 10,000 ids.
fn positions<P: Positions + ?Sized>(
    links: &P,
    ordered: &[MessageId],
) -> Result<Vec<u64>, DomainError> {
    let found = links.positions_of(&ordered.iter().copied().collect());
    let mut out: Vec<u64> = Vec::with_capacity(ordered.len());
    for id in ordered {
        // In thread order, each after the one before.
        match found.get(id) {
            Some(p) if out.last().is_none_or(|last| p > last) => out.push(*p),
            _ => return Err(DomainError::NotInThread(*id)),
        }
    }
    Ok(out)
}

#[cfg(test)]
#[path = "link_edit_tests.rs"]
mod tests;
