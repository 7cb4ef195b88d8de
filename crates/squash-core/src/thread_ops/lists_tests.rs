use super::*;
use crate::thread_ops::fixtures::{check_squashed, ids, thread_and_selection};

#[test]
fn squash_puts_result_at_first_source_and_keeps_order() {
    let l = ids(6);
    let r = MessageId::new();
    // selected out of order and non-contiguous
    let out = squash(&l, &order_by_thread(&l, &[l[4], l[1], l[2]]).unwrap(), r).unwrap();
    assert_eq!(out, vec![l[0], r, l[3], l[5]]);
}

#[test]
fn squash_refuses_bad_selections() {
    let l = ids(3);
    let r = MessageId::new();
    assert_eq!(
        squash(&l, &[l[0]], r).unwrap_err(),
        DomainError::TooFewMessages(1)
    );
    assert_eq!(
        squash(&l, &[l[0], l[0]], r).unwrap_err(),
        DomainError::DuplicateMessage(l[0])
    );
    let stranger = MessageId::new();
    assert_eq!(
        squash(&l, &[l[0], stranger], r).unwrap_err(),
        DomainError::NotInThread(stranger)
    );
    assert_eq!(
        order_by_thread(&l, &[]).unwrap_err(),
        DomainError::EmptySelection
    );
}

#[test]
fn edit_replaces_in_place() {
    let l = ids(3);
    let r = MessageId::new();
    assert_eq!(edit(&l, l[1], r).unwrap(), vec![l[0], r, l[2]]);
    assert!(edit(&l, MessageId::new(), r).is_err());
}

#[test]
fn delete_removes_only_targets() {
    let l = ids(4);
    assert_eq!(delete(&l, &[l[3], l[1]]).unwrap(), vec![l[0], l[2]]);
    assert!(delete(&l, &[]).is_err());
}

#[test]
fn append_adds_at_end() {
    let l = ids(2);
    let m = MessageId::new();
    assert_eq!(append(&l, m), vec![l[0], l[1], m]);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn squash_keeps_every_other_message_in_order((l, chosen) in thread_and_selection()) {
            let r = MessageId::new();
            let out = squash(&l, &chosen, r).unwrap();
            check_squashed(&l, &chosen, r, &out)?;
        }
    }
}
