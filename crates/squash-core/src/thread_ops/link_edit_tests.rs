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
