//! The planners: what each thread operation changes, as a [`LinkEdit`] of positions in its
//! base thread, computed from the positions of the few messages it names.

use super::link_edit::LinkEdit;
use crate::error::DomainError;
use crate::ids::MessageId;
use crate::positions::Positions;

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
mod tests {
    use super::*;
    use crate::thread_ops::fixtures::{check_squashed, ids, others, thread_and_selection};

    #[test]
    fn squash_plan_replaces_the_first_source_and_drops_the_rest() {
        let l = ids(6);
        let edit = plan_squash(&l, &[l[1], l[2], l[4]]).unwrap();
        assert_eq!(
            edit,
            LinkEdit {
                dropped: vec![2, 4],
                replaced: Some(1)
            }
        );
        let r = MessageId::new();
        assert_eq!(edit.apply(&l, Some(r)).unwrap(), vec![l[0], r, l[3], l[5]]);
    }

    #[test]
    fn plans_refuse_what_is_not_in_thread_order() {
        let l = ids(4);
        // Out of thread order: the planners take a selection already ordered.
        assert_eq!(
            plan_squash(&l, &[l[2], l[1]]).unwrap_err(),
            DomainError::NotInThread(l[1])
        );
        let stranger = MessageId::new();
        assert_eq!(
            plan_edit(&l, stranger).unwrap_err(),
            DomainError::NotInThread(stranger)
        );
        assert_eq!(
            plan_squash(&l, &[l[0]]).unwrap_err(),
            DomainError::TooFewMessages(1)
        );
        assert_eq!(
            plan_delete(&l, &[]).unwrap_err(),
            DomainError::EmptySelection
        );
    }

    #[test]
    fn edit_and_delete_plans() {
        let l = ids(4);
        let r = MessageId::new();
        let edit = plan_edit(&l, l[3]).unwrap();
        assert_eq!(edit.apply(&l, Some(r)).unwrap(), vec![l[0], l[1], l[2], r]);
        let delete = plan_delete(&l, &[l[0], l[2]]).unwrap();
        assert_eq!(delete.apply(&l, None).unwrap(), vec![l[1], l[3]]);
        assert_eq!(plan_append(&l), 4);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn applied_plans_match_the_list_rules((l, chosen) in thread_and_selection()) {
                let r = MessageId::new();
                let squashed = plan_squash(&l, &chosen).unwrap().apply(&l, Some(r)).unwrap();
                check_squashed(&l, &chosen, r, &squashed)?;
                let deleted = plan_delete(&l, &chosen).unwrap().apply(&l, None).unwrap();
                prop_assert_eq!(deleted, others(&l, &chosen));
            }
        }
    }
}
