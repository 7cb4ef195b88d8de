//! On every backend: `subscribe()` hears each committed write of a conversation once it
//! committed (and nothing for a write that was refused), and a reply is appended only to a
//! thread that still holds its question.

use squash_testkit::on_every_backend;
use std::time::Duration;

use squash_app::{PartnerPolicy, ServiceError};
use squash_core::{ContentItem, ConversationId, Message, Role};
use squash_testkit::Backend;
use tokio::sync::broadcast;

/// The next change to one of `ours`, within 10 s (PostgreSQL's notifications travel through
/// the server, and carry the writes of every schema of the database: other tests' too).
async fn next(
    changes: &mut broadcast::Receiver<ConversationId>,
    ours: &[ConversationId],
) -> ConversationId {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let id = tokio::time::timeout_at(deadline, changes.recv())
            .await
            .expect("a change within 10 s")
            .expect("the change stream is open");
        if ours.contains(&id) {
            return id;
        }
    }
}

/// Nothing more arrives for `ours` within a moment.
async fn quiet(changes: &mut broadcast::Receiver<ConversationId>, ours: &[ConversationId]) {
    let deadline = tokio::time::Instant::now() + Duration::from_millis(500);
    while let Ok(change) = tokio::time::timeout_at(deadline, changes.recv()).await {
        let id = change.expect("the change stream is open");
        assert!(!ours.contains(&id), "unexpected change of {id}");
    }
}

fn text(conversation: ConversationId, role: Role, text: &str) -> Message {
    Message::new(
        conversation,
        role,
        vec![ContentItem::text_for(role, text.to_owned())],
    )
    .expect("message")
}

async fn changes_and_replies(b: &Backend) {
    let s = &b.service;
    let conv = s
        .create_conversation("/tmp/changes", "Live")
        .await
        .expect("create")
        .id;
    let other = s
        .create_conversation("/tmp/changes", "Other")
        .await
        .expect("create")
        .id;
    let ours = [conv, other];
    let mut changes = s.subscribe().await.expect("subscribe");

    // Each write, once committed, names its conversation.
    let (x, _) = s
        .append(
            conv,
            Role::User,
            vec![ContentItem::text_for(Role::User, "x")],
        )
        .await
        .expect("append");
    assert_eq!(next(&mut changes, &ours).await, conv);
    s.append(
        other,
        Role::User,
        vec![ContentItem::text_for(Role::User, "o")],
    )
    .await
    .expect("append");
    assert_eq!(next(&mut changes, &ours).await, other);
    let (y, _) = s
        .append(
            conv,
            Role::Assistant,
            vec![ContentItem::text_for(Role::Assistant, "y")],
        )
        .await
        .expect("append");
    assert_eq!(next(&mut changes, &ours).await, conv);
    s.delete(conv, &[x.id], PartnerPolicy::Include)
        .await
        .expect("delete");
    assert_eq!(next(&mut changes, &ours).await, conv);
    let question = text(conv, Role::User, "does it build?");
    s.append_message(&question).await.expect("question");
    assert_eq!(next(&mut changes, &ours).await, conv);
    quiet(&mut changes, &ours).await;

    // Undo goes back to a thread without the question: its reply is refused, nothing is
    // written, nothing is announced.
    s.undo(conv).await.expect("undo");
    assert_eq!(next(&mut changes, &ours).await, conv);
    let before = s.current_thread(conv).await.expect("thread");
    let mut reply = text(conv, Role::Assistant, "it builds");
    reply.reply_to = Some(question.id);
    let refused = s.append_message(&reply).await;
    assert!(
        matches!(refused, Err(ServiceError::Conflict(_))),
        "{refused:?}"
    );
    let after = s.current_thread(conv).await.expect("thread");
    assert_eq!(after.thread, before.thread, "nothing written");
    assert!(
        s.message(reply.id).await.is_err(),
        "the reply was not stored"
    );
    quiet(&mut changes, &ours).await;

    // Back on the question's thread, the reply goes in after it.
    s.redo(conv).await.expect("redo");
    assert_eq!(next(&mut changes, &ours).await, conv);
    let stored = s.append_message(&reply).await.expect("reply");
    assert_eq!(next(&mut changes, &ours).await, conv);
    let thread = s.current_thread(conv).await.expect("thread");
    assert_eq!(thread.thread.id, stored.thread_id);
    let ids: Vec<_> = thread.messages.iter().map(|m| m.id).collect();
    assert_eq!(ids, vec![y.id, question.id, reply.id]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_are_announced_once_committed_and_replies_need_their_question() {
    on_every_backend!(changes_and_replies);
}
