//! A commit described as an edit of its base thread (`NewLinks::Edit`), the form the service
//! uses: the store copies the links itself. Same checks on both backends.

use squash_core::{DomainError, Message, MessageId};
use squash_store::{Commit, ConversationStore, LinkEdit, StoreError};
use squash_testkit::fixtures::{edit_commit, user_text as text};

fn commit(base: &squash_store::ThreadSnapshot, edit: LinkEdit, message: Option<Message>) -> Commit {
    edit_commit(&base.thread, edit, message)
}

async fn check(store: &dyn ConversationStore) {
    let project = store.ensure_project("/edit").await.unwrap();
    let conv = store.create_conversation(project.id, "edit").await.unwrap();
    let mut ids: Vec<MessageId> = Vec::new();
    for i in 0..8 {
        let m = text(conv.id, &format!("message {i}"));
        store.append(&m).await.unwrap();
        ids.push(m.id);
    }
    let base = store.current_thread(conv.id).await.unwrap();

    // Bad edits are refused and write nothing.
    for bad in [
        LinkEdit {
            dropped: vec![3, 3],
            replaced: None,
        },
        LinkEdit {
            dropped: vec![5, 2],
            replaced: None,
        },
        LinkEdit {
            dropped: vec![8],
            replaced: None,
        },
        LinkEdit {
            dropped: vec![2],
            replaced: Some(2),
        },
    ] {
        let c = commit(&base, bad.clone(), Some(text(conv.id, "x")));
        assert!(
            matches!(store.commit(&c).await, Err(StoreError::Domain(_))),
            "{bad:?}"
        );
    }
    let replace_without_message = LinkEdit {
        dropped: Vec::new(),
        replaced: Some(0),
    };
    assert!(matches!(
        store
            .commit(&commit(&base, replace_without_message, None))
            .await,
        Err(StoreError::Domain(DomainError::ReplacementMissing))
    ));
    assert_eq!(store.threads(conv.id).await.unwrap().len(), 1);

    // A squash-like edit: position 1 becomes the new message, 2 and 5 leave.
    let new = text(conv.id, "new");
    let edit = LinkEdit {
        dropped: vec![2, 5],
        replaced: Some(1),
    };
    let thread = store
        .commit(&commit(&base, edit, Some(new.clone())))
        .await
        .unwrap();
    assert_eq!(thread.message_count, 6);
    let now = store.current_thread(conv.id).await.unwrap();
    assert_eq!(
        now.links,
        vec![ids[0], new.id, ids[3], ids[4], ids[6], ids[7]]
    );
    let messages = store.thread_messages(thread.id).await.unwrap();
    assert_eq!(messages.iter().map(|m| m.id).collect::<Vec<_>>(), now.links);

    // Dropping every link but the last, and then the last.
    let edit = LinkEdit {
        dropped: (0..5).collect(),
        replaced: None,
    };
    store.commit(&commit(&now, edit, None)).await.unwrap();
    let last = store.current_thread(conv.id).await.unwrap();
    assert_eq!(last.links, vec![ids[7]]);
    let edit = LinkEdit {
        dropped: vec![0],
        replaced: None,
    };
    let empty = store.commit(&commit(&last, edit, None)).await.unwrap();
    assert_eq!(empty.message_count, 0);

    // The original thread is untouched (copy-on-write), and headers agree with snapshots.
    assert_eq!(store.thread(base.thread.id).await.unwrap().links, ids);
    let header = store.current_thread_header(conv.id).await.unwrap();
    assert_eq!(header, empty);
    assert_eq!(
        store.thread_header(base.thread.id).await.unwrap(),
        base.thread
    );
    let child = store.latest_derived_thread(base.thread.id).await.unwrap();
    assert_eq!(child.map(|t| t.id), Some(thread.id));
    assert_eq!(store.latest_derived_thread(empty.id).await.unwrap(), None);
}

squash_testkit::on_both_stores!(check: link_edits_on_sqlite, link_edits_on_postgres);
