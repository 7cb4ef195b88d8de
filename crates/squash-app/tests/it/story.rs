//! The story: one user's session through every operation, run unchanged on every backend.

use squash_app::{AppError, EditRequest, ManualSquashRequest, PartnerPolicy, ServiceError};
use squash_core::{
    ContentItem, ConversationId, LinkEdit, Message, MessageId, Role, SquashOperation,
    SquashOperationId, ThreadId, ThreadOrigin,
};
use squash_store::{
    Commit, Entity, ImportBatch, ImportOutcome, NewLinks, StoreError, ThreadSnapshot,
};
use squash_testkit::fixtures::{new_conversation, single_thread_batch};
use squash_testkit::on_every_backend;
use squash_testkit::{mixed_content, Backend};

async fn links(b: &Backend, conv: ConversationId) -> Vec<MessageId> {
    b.service.current_links(conv).await.unwrap().links
}

async fn story(b: &Backend) {
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/story-project", "Story").await;
    assert_eq!(
        s.list_conversations(Some("/tmp/story-project"))
            .await
            .unwrap()
            .len(),
        1
    );
    let renamed = s
        .rename_conversation(conv.id, "Story, renamed")
        .await
        .unwrap();
    assert_eq!(renamed.display_name, "Story, renamed");

    // 20 mixed-content messages on the fast path: one thread, mutated in place.
    let mut ids = Vec::new();
    for n in 0..20 {
        let (role, content) = mixed_content(n);
        let (m, appended) = s.append(conv.id, role, content).await.unwrap();
        assert_eq!(appended.position, n as u64);
        assert_eq!(appended.thread_id, conv.current_thread_id);
        ids.push(m.id);
    }
    let view = s.current_thread(conv.id).await.unwrap();
    assert_eq!(view.messages.iter().map(|m| m.id).collect::<Vec<_>>(), ids);
    assert_eq!(
        s.history(conv.id).await.unwrap().len(),
        1,
        "appends never copy the thread"
    );
    let (_, content) = mixed_content(7);
    assert_eq!(
        view.messages[7].content, content,
        "content round-trips exactly"
    );

    // Edit @2: copy-on-write, recorded as a one-source operation.
    let before_edit = links(b, conv.id).await;
    let edit = s
        .edit(
            conv.id,
            EditRequest {
                message: ids[1],
                content: vec![ContentItem::text_for(Role::Assistant, "Edited answer")],
            },
        )
        .await
        .unwrap();
    let edited = edit.message.clone().unwrap();
    let edit_op = edit.operation.clone().unwrap();
    assert_eq!(edit_op.source_message_ids, vec![ids[1]]);
    assert!(!edit_op.kind.performed_by_agent() && edit_op.kind.prompt().is_none());
    assert_eq!(edited.squash_operation_id, Some(edit_op.id));
    let after_edit = links(b, conv.id).await;
    assert_eq!(after_edit[1], edited.id);
    assert_eq!(after_edit.len(), 20);

    // Delete @5 (a system warning).
    let del = s
        .delete(conv.id, &[ids[4]], PartnerPolicy::Include)
        .await
        .unwrap();
    assert!(del.added_partners.is_empty());
    let after_delete = links(b, conv.id).await;
    assert_eq!(after_delete.len(), 19);
    assert!(!after_delete.contains(&ids[4]));

    // Squash three non-contiguous messages, selected out of order: the result takes the first
    // one's position, the others leave, the rest keeps its order.
    let squash = s
        .squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![ids[11], edited.id, ids[9]],
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let result = squash.message.clone().unwrap();
    let op = squash.operation.clone().unwrap();
    assert_eq!(
        op.source_message_ids,
        vec![edited.id, ids[9], ids[11]],
        "sources in thread order"
    );
    assert_eq!(result.role, Role::User);
    let text = squash_core::render::message_text(&result);
    assert!(
        text.contains("Edited answer") && text.contains("Thanks, message 9"),
        "{text}"
    );
    let after_squash = links(b, conv.id).await;
    let expected: Vec<MessageId> = after_delete
        .iter()
        .filter(|id| **id != ids[9] && **id != ids[11])
        .map(|id| if *id == edited.id { result.id } else { *id })
        .collect();
    assert_eq!(after_squash, expected);

    // A tool call selected without its result brings the result in; strict mode refuses.
    let strict = s
        .squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![ids[0], ids[2]],
                policy: PartnerPolicy::Refuse,
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(
        strict.to_string().contains(&ids[3].to_string()),
        "names the partner: {strict}"
    );
    assert_eq!(
        links(b, conv.id).await,
        after_squash,
        "a refused request changes nothing"
    );
    let with_partner = s
        .squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![ids[2], ids[0]],
                text: Some("Searched src/ for tests".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(with_partner.added_partners.len(), 1);
    assert_eq!(with_partner.added_partners[0].message, ids[3]);
    let after_pair = links(b, conv.id).await;
    assert_eq!(after_pair.len(), after_squash.len() - 2);

    // Undo walks back exactly, redo walks forward.
    s.undo(conv.id).await.unwrap();
    assert_eq!(links(b, conv.id).await, after_squash);
    s.undo(conv.id).await.unwrap();
    assert_eq!(links(b, conv.id).await, after_delete);
    s.redo(conv.id).await.unwrap();
    assert_eq!(links(b, conv.id).await, after_squash);
    s.redo(conv.id).await.unwrap();
    assert_eq!(links(b, conv.id).await, after_pair);
    assert!(matches!(
        s.redo(conv.id).await,
        Err(ServiceError::Invalid(_))
    ));

    // Switch to any thread: the initial one still holds all 20 originals.
    let history = s.history(conv.id).await.unwrap();
    assert_eq!(history.len(), 5);
    assert_eq!(history[0].thread.origin, ThreadOrigin::Initial);
    assert_eq!(
        history.iter().map(|h| h.depth).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4]
    );
    assert!(history[4].is_current);
    assert_eq!(history[3].operation.as_ref().map(|o| o.id), Some(op.id));
    s.switch_thread(conv.id, history[0].thread.id)
        .await
        .unwrap();
    assert_eq!(links(b, conv.id).await, ids);
    assert_eq!(before_edit, ids);
    assert!(matches!(
        s.undo(conv.id).await,
        Err(ServiceError::Invalid(_))
    ));
    s.switch_thread(conv.id, history[4].thread.id)
        .await
        .unwrap();

    // Provenance, recursively: the squash result ← (edit result ← original), 10, 12.
    let prov = s.provenance(result.id).await.unwrap();
    assert_eq!(prov.operation.as_ref().map(|o| o.id), Some(op.id));
    assert_eq!(prov.sources.len(), 3);
    assert_eq!(prov.sources[0].message.id, edited.id);
    assert_eq!(
        prov.sources[0].operation.as_ref().map(|o| o.id),
        Some(edit_op.id)
    );
    assert_eq!(prov.sources[0].sources[0].message.id, ids[1]);
    assert!(prov.sources[1].operation.is_none());

    // References people type.
    assert_eq!(
        s.resolve_message(Some(conv.id), "@1").await.unwrap(),
        after_pair[0]
    );
    let full = ids[5].to_string();
    assert_eq!(
        s.resolve_message(Some(conv.id), &full[..]).await.unwrap(),
        ids[5]
    );
    let simple = ids[5].as_uuid().simple().to_string();
    assert_eq!(
        s.resolve_message(Some(conv.id), &simple[..30])
            .await
            .unwrap(),
        ids[5]
    );
    let last = format!("@{}", after_pair.len());
    assert_eq!(
        s.resolve_message(Some(conv.id), &last).await.unwrap(),
        after_pair[after_pair.len() - 1]
    );
    assert!(s.resolve_message(Some(conv.id), "@999").await.is_err());
    assert!(s.resolve_message(Some(conv.id), "@0").await.is_err());
    assert_eq!(
        s.resolve_conversation(&conv.id.to_string()[..18])
            .await
            .unwrap(),
        conv.id
    );

    // Bad input: a clear error and nothing changed.
    let state = (
        links(b, conv.id).await,
        s.history(conv.id).await.unwrap().len(),
        b.store.stats().await.unwrap(),
    );
    let stranger = MessageId::new();
    let errors = vec![
        s.squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![after_pair[0]],
                ..Default::default()
            },
        )
        .await
        .unwrap_err(),
        s.squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![after_pair[0], after_pair[0]],
                ..Default::default()
            },
        )
        .await
        .unwrap_err(),
        s.squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![after_pair[0], ids[9]],
                ..Default::default()
            },
        )
        .await
        .unwrap_err(),
        s.squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![after_pair[0], stranger],
                ..Default::default()
            },
        )
        .await
        .unwrap_err(),
        s.squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![after_pair[0], after_pair[1]],
                text: Some("  ".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err(),
        s.delete(conv.id, &[ids[9]], PartnerPolicy::Include)
            .await
            .unwrap_err(),
        s.edit(
            conv.id,
            EditRequest {
                message: after_pair[0],
                content: vec![ContentItem::UserMessage { text: "".into() }],
            },
        )
        .await
        .unwrap_err(),
        s.append(
            conv.id,
            Role::User,
            vec![ContentItem::UserMessage { text: " ".into() }],
        )
        .await
        .unwrap_err(),
        s.append(
            ConversationId::new(),
            Role::User,
            vec![ContentItem::UserMessage { text: "x".into() }],
        )
        .await
        .unwrap_err(),
        s.undo(ConversationId::new()).await.unwrap_err(),
        s.rename_conversation(conv.id, " ").await.unwrap_err(),
    ];
    let codes: Vec<&str> = errors.iter().map(|e| e.code().as_str()).collect();
    assert_eq!(
        codes,
        vec![
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "not_found",
            "not_found",
            "invalid_input"
        ],
        "{errors:#?}"
    );
    for e in &errors {
        assert!(!e.to_string().is_empty());
    }
    let after = (
        links(b, conv.id).await,
        s.history(conv.id).await.unwrap().len(),
        b.store.stats().await.unwrap(),
    );
    assert_eq!((after.0, after.1), (state.0, state.1));
    assert_eq!(after.2.messages, state.2.messages);
    assert_eq!(after.2.threads, state.2.threads);

    // Nothing is ever lost: every message ever stored is still there.
    let all = b.store.all_messages(conv.id).await.unwrap();
    assert_eq!(
        all.len(),
        20 + 1 + 2,
        "20 appended + 1 edit + 2 squash results"
    );
    for id in &ids {
        assert!(all.iter().any(|m| m.id == *id));
    }
    assert_eq!(s.operations(conv.id).await.unwrap().len(), 3);

    // Deleting the conversation removes it entirely.
    s.delete_conversation(conv.id).await.unwrap();
    assert!(matches!(
        s.conversation(conv.id).await,
        Err(ServiceError::NotFound(..))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn story_on_every_backend() {
    on_every_backend!(story);
}

/// A commit of one edit of `base` whose operation and message the caller shapes.
fn edit_commit(
    base: &ThreadSnapshot,
    message: Message,
    operation: SquashOperation,
    thread_id: ThreadId,
) -> Commit {
    Commit {
        conversation_id: base.thread.conversation_id,
        base_thread_id: base.thread.id,
        base_revision: base.thread.revision,
        thread_id,
        origin: ThreadOrigin::Edit {
            operation_id: operation.id,
        },
        links: NewLinks::Edit(LinkEdit {
            dropped: Vec::new(),
            replaced: Some(0),
        }),
        messages: vec![message],
        operations: vec![operation],
    }
}

fn operation(
    conversation: ConversationId,
    source: MessageId,
    result: MessageId,
) -> SquashOperation {
    SquashOperation::new(
        SquashOperationId::new(),
        conversation,
        vec![source],
        result,
        squash_core::OperationKind::Edit,
        None,
    )
}

fn text(conversation: ConversationId, s: &str) -> Message {
    Message::new(
        conversation,
        Role::User,
        vec![ContentItem::text_for(Role::User, s)],
    )
    .unwrap()
}

fn batch(conversation: ConversationId, messages: Vec<Message>, key: &str) -> ImportBatch {
    single_thread_batch(conversation, messages, key, "/tmp/drift")
}

/// The inputs on which the two backends used to answer differently: each is refused the same
/// way (variant and text) on both, and nothing is written.
async fn bad_input_gets_one_answer(b: &Backend) {
    let store = &b.store;
    let project = store.ensure_project("/tmp/drift").await.unwrap();
    let conv = store
        .create_conversation(project.id, "drift")
        .await
        .unwrap();
    let other = store
        .create_conversation(project.id, "other")
        .await
        .unwrap();
    let first = text(conv.id, "first");
    store.append(&first).await.unwrap();
    let stranger = text(other.id, "elsewhere");
    store.append(&stranger).await.unwrap();
    let base = store.current_thread(conv.id).await.unwrap();
    let before = store.stats().await.unwrap();

    // An operation of another conversation: PostgreSQL refused it, SQLite filed it under the
    // commit's conversation.
    let edited = text(conv.id, "edited");
    let foreign = operation(other.id, first.id, edited.id);
    let err = store
        .commit(&edit_commit(
            &base,
            edited.clone(),
            foreign.clone(),
            ThreadId::new(),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "invalid input: operation {} belongs to conversation {}, not {}",
            foreign.id, other.id, conv.id
        ),
        "{}",
        b.name
    );

    // A message id that is taken: SQLite called any constraint violation "already exists",
    // PostgreSQL matched the constraint name in the error text.
    let err = store.append(&first).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::AlreadyExists(Entity::Message, id) if *id == first.id.to_string()),
        "{}: {err:?}",
        b.name
    );

    // A thread id that is taken: SQLite passed the raw constraint text on.
    let op = operation(conv.id, first.id, edited.id);
    let err = store
        .commit(&edit_commit(&base, edited.clone(), op, base.thread.id))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::AlreadyExists(Entity::Thread, id) if *id == base.thread.id.to_string()),
        "{}: {err:?}",
        b.name
    );

    // A link to another conversation's message: the same words on both.
    let err = store
        .commit(&Commit {
            conversation_id: conv.id,
            base_thread_id: base.thread.id,
            base_revision: base.thread.revision,
            thread_id: ThreadId::new(),
            origin: ThreadOrigin::Delete {
                message_ids: Vec::new(),
            },
            links: NewLinks::List(vec![first.id, stranger.id]),
            messages: Vec::new(),
            operations: Vec::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "invalid input: message {} is not in conversation {}",
            stranger.id, conv.id
        )
    );

    // An import whose operation results in a message it does not carry: PostgreSQL answered
    // "message not found", SQLite "not imported".
    let imported = ConversationId::new();
    let m = text(imported, "imported");
    let mut bad = batch(imported, vec![m.clone()], "drift:op");
    let dangling = operation(imported, m.id, MessageId::new());
    bad.operations.push(dangling.clone());
    let err = store.import_conversation(bad).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "invalid input: operation {} results in message {}, which is not imported",
            dangling.id, dangling.result_message_id
        )
    );

    // An import of a message that is already stored: PostgreSQL did not say which.
    let taken = batch(conv.id, vec![first.clone()], "drift:taken");
    let mut taken = taken;
    taken.conversation_id = ConversationId::new();
    taken.messages[0].conversation_id = taken.conversation_id;
    let err = store.import_conversation(taken).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::AlreadyExists(Entity::Message, id) if *id == first.id.to_string()),
        "{}: {err:?}",
        b.name
    );

    // A malformed batch is refused even when its source is already recorded with the same
    // hash: SQLite answered "already imported" before looking at the batch.
    let good = batch(imported, vec![m.clone()], "drift:again");
    assert!(matches!(
        store.import_conversation(good.clone()).await.unwrap(),
        ImportOutcome::Imported { .. }
    ));
    let mut malformed = good;
    malformed.current_thread_id = ThreadId::new();
    let err = store.import_conversation(malformed).await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{}: {err:?}", b.name);

    let after = store.stats().await.unwrap();
    assert_eq!(
        after.threads,
        before.threads + 1,
        "only the good import wrote"
    );
    assert_eq!(after.messages, before.messages + 1);
    assert_eq!(after.operations, before.operations);
    assert_eq!(store.current_thread(conv.id).await.unwrap(), base);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_one_answer_on_every_backend() {
    on_every_backend!(bad_input_gets_one_answer);
}
