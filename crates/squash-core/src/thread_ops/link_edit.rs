//! A new thread as a change of its base: the links it leaves out and the one it points to the
//! operation's new message.

use crate::error::DomainError;
use crate::ids::MessageId;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_edits_are_domain_errors() {
        let cases = [
            (vec![3, 3], None, DomainError::DropsNotAscending),
            (vec![5, 2], None, DomainError::DropsNotAscending),
            (
                vec![8],
                None,
                DomainError::PositionPastEnd {
                    position: 8,
                    count: 8,
                },
            ),
            (
                vec![],
                Some(8),
                DomainError::PositionPastEnd {
                    position: 8,
                    count: 8,
                },
            ),
            (vec![2], Some(2), DomainError::ReplacedAndDropped(2)),
        ];
        for (dropped, replaced, expected) in cases {
            let edit = LinkEdit { dropped, replaced };
            assert_eq!(edit.check(8, true).unwrap_err(), expected, "{edit:?}");
        }
        let replace = LinkEdit {
            dropped: vec![],
            replaced: Some(0),
        };
        assert_eq!(
            replace.check(8, false).unwrap_err(),
            DomainError::ReplacementMissing
        );
        assert_eq!(replace.check(8, true).unwrap(), 8);
        let empty_all = LinkEdit {
            dropped: (0..8).collect(),
            replaced: None,
        };
        assert_eq!(empty_all.check(8, false).unwrap(), 0);
    }
}
