//! The PostgreSQL backend against a live server. Each test works in its own fresh schema, so
//! the tests run in parallel on one database; the schema is dropped at the end.
//!
//! The server is `SQUASH_TEST_POSTGRES_URL` (default: the local `test` database). When it
//! cannot be reached the tests skip with a note, unless `SQUASH_REQUIRE_POSTGRES=1`.

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::json;
use squash_core::{
    thread_ops, AiRecord, ContentItem, ConversationId, Instruction, InstructionSource, Message,
    MessageId, OperationKind, ProviderKind, Role, SquashOperation, SquashOperationId,
    StructuredText, ThreadId, ThreadOrigin, TokenUsage,
};
use squash_store::postgres::PostgresStore;
use squash_store::{Commit, ConversationStore, Entity, NewLinks, StoreError};

async fn store() -> Option<PostgresStore> {
    squash_testkit::postgres_store().await
}

/// PostgreSQL keeps microseconds; messages built with them compare equal after a round trip.
fn micros_now() -> DateTime<Utc> {
    let now = Utc::now();
    DateTime::from_timestamp_micros(now.timestamp_micros()).unwrap_or(now)
}

fn message(conversation: ConversationId, role: Role, content: Vec<ContentItem>) -> Message {
    let mut m = Message::new(conversation, role, content).expect("valid message");
    m.created_at = micros_now();
    m
}

fn text(conversation: ConversationId, role: Role, s: &str) -> Message {
    message(conversation, role, vec![ContentItem::text_for(role, s)])
}

fn call(id: &str) -> ContentItem {
    ContentItem::tool_call(
        id,
        "Bash",
        json!({"command": "ls", "z": 1, "a": [1.5, null]}),
    )
}

fn result(id: &str) -> ContentItem {
    ContentItem::tool_result(id, "Bash", "Cargo.toml", false)
}

/// A squash of `sources` (in thread order) on the conversation's current thread.
async fn squash_commit(
    store: &PostgresStore,
    conversation: ConversationId,
    sources: &[MessageId],
) -> Commit {
    let current = store.current_thread(conversation).await.expect("current");
    let operation_id = SquashOperationId::new();
    let thread_id = ThreadId::new();
    let mut squashed = text(conversation, Role::Assistant, "squashed");
    squashed.squash_operation_id = Some(operation_id);
    let links = thread_ops::squash(&current.links, sources, squashed.id).expect("squash");
    Commit {
        conversation_id: conversation,
        base_thread_id: current.thread.id,
        base_revision: current.thread.revision,
        thread_id,
        origin: ThreadOrigin::Squash { operation_id },
        links: links.into(),
        operations: vec![SquashOperation {
            base_thread_id: Some(current.thread.id),
            result_thread_id: Some(thread_id),
            created_at: micros_now(),
            ..SquashOperation::new(
                operation_id,
                conversation,
                sources.to_vec(),
                squashed.id,
                OperationKind::Ai(AiRecord {
                    provider: ProviderKind::Fake,
                    model: "test-model".into(),
                    prompt: "<task>squash</task>".into(),
                    custom_instructions: None,
                    usage: Some(TokenUsage {
                        input_tokens: 120,
                        output_tokens: 12,
                    }),
                    duration_ms: 1500,
                    style: squash_core::prompt::SquashStyle::Prose,
                    prompt_style: squash_core::prompt::PromptStyle::Spec,
                }),
                Some("tester".into()),
            )
        }],
        messages: vec![squashed],
    }
}

#[tokio::test]
async fn story_append_commit_switch() {
    let Some(store) = store().await else { return };
    let project = store.ensure_project("/tmp/work").await.unwrap();
    assert_eq!(store.ensure_project("/tmp/work").await.unwrap(), project);
    let conv = store
        .create_conversation(project.id, "first")
        .await
        .unwrap();
    let initial = store.current_thread(conv.id).await.unwrap();
    assert_eq!(initial.thread.origin, ThreadOrigin::Initial);
    assert!(initial.links.is_empty());

    let mut hello = text(conv.id, Role::User, "hello");
    hello.instructions = vec![
        Instruction::ResponseExpected,
        Instruction::Source {
            source: InstructionSource::User,
        },
    ];
    hello.metadata = Some(json!({"zeta": 1, "alpha": {"n": 1e3}, "big": 12345678901234567_u64}));
    let asks = message(
        conv.id,
        Role::Assistant,
        vec![
            ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: "let me look".into(),
                    ..StructuredText::default()
                },
            },
            call("t1"),
        ],
    );
    let answers = message(conv.id, Role::User, vec![result("t1")]);
    let done = text(conv.id, Role::Assistant, "there is a Cargo.toml");
    let mut unknown = message(
        conv.id,
        Role::System,
        vec![ContentItem::UnknownJson {
            json: json!({"b": 2, "a": "\u{0}nul", "f": 0.1}),
        }],
    );
    unknown.reply_to = Some(done.id);

    let all = [&hello, &asks, &answers, &done, &unknown];
    for (i, m) in all.iter().enumerate() {
        let appended = store.append(m).await.unwrap();
        assert_eq!(appended.thread_id, initial.thread.id);
        assert_eq!(appended.position, i as u64);
        assert_eq!(appended.revision, i as u64 + 1);
    }
    for m in all {
        assert_eq!(&store.message(m.id).await.unwrap(), m, "exact round trip");
    }
    let ids: Vec<MessageId> = all.iter().map(|m| m.id).collect();
    let reversed: Vec<MessageId> = ids.iter().rev().copied().collect();
    let fetched = store.messages(&reversed).await.unwrap();
    assert_eq!(
        fetched.iter().map(|m| m.id).collect::<Vec<_>>(),
        reversed,
        "in the order asked"
    );
    assert_eq!(
        store
            .thread_messages(initial.thread.id)
            .await
            .unwrap()
            .len(),
        5
    );
    assert!(matches!(
        store.append(&hello).await,
        Err(StoreError::AlreadyExists(Entity::Message, _))
    ));

    // Squash the tool pair into one message: a new thread, current, with provenance.
    let commit = squash_commit(&store, conv.id, &[asks.id, answers.id]).await;
    let thread = store.commit(&commit).await.unwrap();
    assert_eq!(thread.original_thread_id, Some(initial.thread.id));
    assert_eq!(thread.message_count, 4);
    let current = store.current_thread(conv.id).await.unwrap();
    assert_eq!(current.thread, thread);
    assert_eq!(NewLinks::List(current.links.clone()), commit.links);
    let in_thread = store.thread_messages(thread.id).await.unwrap();
    assert_eq!(
        NewLinks::List(in_thread.iter().map(|m| m.id).collect()),
        commit.links
    );
    let op = commit.operations[0].clone();
    assert_eq!(store.operation(op.id).await.unwrap(), op);
    assert_eq!(store.operations(conv.id).await.unwrap(), vec![op.clone()]);
    let old = store.thread(initial.thread.id).await.unwrap();
    assert_eq!(old.links, ids, "the base thread is untouched");
    assert_eq!(
        store
            .threads(conv.id)
            .await
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect::<Vec<_>>(),
        vec![initial.thread.id, thread.id]
    );
    assert_eq!(store.all_messages(conv.id).await.unwrap().len(), 6);

    // Undo, then a stale redo, then redo.
    let undone = store
        .switch_thread(conv.id, initial.thread.id, thread.id)
        .await
        .unwrap();
    assert_eq!(undone.current_thread_id, initial.thread.id);
    match store.switch_thread(conv.id, thread.id, thread.id).await {
        Err(StoreError::Conflict { current, revision }) => {
            assert_eq!(current, initial.thread.id);
            assert_eq!(revision, 5);
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert!(matches!(
        store
            .switch_thread(conv.id, ThreadId::new(), initial.thread.id)
            .await,
        Err(StoreError::NotFound(Entity::Thread, _))
    ));
    let redone = store
        .switch_thread(conv.id, thread.id, initial.thread.id)
        .await
        .unwrap();
    assert_eq!(redone.current_thread_id, thread.id);

    let renamed = store.rename_conversation(conv.id, "renamed").await.unwrap();
    assert_eq!(renamed.display_name, "renamed");
    assert_eq!(
        store.conversations(Some(project.id)).await.unwrap(),
        vec![renamed]
    );
    let stats = store.stats().await.unwrap();
    assert_eq!(
        (
            stats.conversations,
            stats.threads,
            stats.messages,
            stats.thread_links,
            stats.operations
        ),
        (1, 2, 6, 9, 1)
    );
    assert!(stats.bytes > 0);
    store.drop_schema().await.unwrap();
}

#[tokio::test]
async fn stale_commit_conflicts_and_writes_nothing() {
    let Some(store) = store().await else { return };
    let project = store.ensure_project("/p").await.unwrap();
    let conv = store.create_conversation(project.id, "c").await.unwrap();
    let a = text(conv.id, Role::User, "a");
    let b = text(conv.id, Role::Assistant, "b");
    store.append(&a).await.unwrap();
    store.append(&b).await.unwrap();
    let commit = squash_commit(&store, conv.id, &[a.id, b.id]).await;
    // The user appends while the model works.
    store.append(&text(conv.id, Role::User, "c")).await.unwrap();
    let before = store.stats().await.unwrap();
    match store.commit(&commit).await {
        Err(StoreError::Conflict { current, revision }) => {
            assert_eq!(current, commit.base_thread_id);
            assert_eq!(revision, 3);
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let after = store.stats().await.unwrap();
    assert_eq!(
        (
            after.threads,
            after.messages,
            after.thread_links,
            after.operations
        ),
        (
            before.threads,
            before.messages,
            before.thread_links,
            before.operations
        )
    );
    let result = commit.messages[0].id;
    assert!(matches!(
        store.message(result).await,
        Err(StoreError::NotFound(Entity::Message, _))
    ));

    // A link to a message of another conversation is refused, atomically as well.
    let other = store
        .create_conversation(project.id, "other")
        .await
        .unwrap();
    let stranger = text(other.id, Role::User, "elsewhere");
    store.append(&stranger).await.unwrap();
    let mut bad = squash_commit(&store, conv.id, &[a.id, b.id]).await;
    if let NewLinks::List(links) = &mut bad.links {
        links.push(stranger.id);
    }
    assert!(matches!(
        store.commit(&bad).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(store.message(bad.messages[0].id).await.is_err());
    assert_eq!(store.threads(conv.id).await.unwrap().len(), 1);
    store.drop_schema().await.unwrap();
}

#[tokio::test]
async fn prefix_lookups() {
    let Some(store) = store().await else { return };
    let project = store.ensure_project("/p").await.unwrap();
    let conv = store.create_conversation(project.id, "c").await.unwrap();
    let a = text(conv.id, Role::User, "a");
    let b = text(conv.id, Role::Assistant, "b");
    store.append(&a).await.unwrap();
    store.append(&b).await.unwrap();
    let commit = squash_commit(&store, conv.id, &[a.id, b.id]).await;
    store.commit(&commit).await.unwrap();
    let op = commit.operations[0].id;

    let full = a.id.to_string();
    let simple: String = full.chars().filter(|c| *c != '-').collect();
    for prefix in [
        full.as_str(),
        &simple,
        &full[..13],
        &full[..13].to_uppercase(),
    ] {
        let found = store.message_ids_with_prefix(None, prefix).await.unwrap();
        assert!(found.contains(&a.id), "{prefix} finds {}", a.id);
    }
    assert_eq!(
        store
            .message_ids_with_prefix(Some(conv.id), &full)
            .await
            .unwrap(),
        vec![a.id]
    );
    let other = store.create_conversation(project.id, "o").await.unwrap();
    assert!(store
        .message_ids_with_prefix(Some(other.id), &full)
        .await
        .unwrap()
        .is_empty());
    assert!(store
        .message_ids_with_prefix(None, "not-hex")
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store
            .conversation_ids_with_prefix(&conv.id.to_string()[..18])
            .await
            .unwrap(),
        vec![conv.id]
    );
    assert_eq!(
        store
            .operation_ids_with_prefix(&op.to_string()[..24])
            .await
            .unwrap(),
        vec![op]
    );
    store.drop_schema().await.unwrap();
}

#[tokio::test]
async fn tool_refs_closure_follows_chains() {
    let Some(store) = store().await else { return };
    let project = store.ensure_project("/p").await.unwrap();
    let conv = store.create_conversation(project.id, "c").await.unwrap();
    let opens = message(conv.id, Role::Assistant, vec![call("t1")]);
    let chains = message(conv.id, Role::User, vec![result("t1"), call("t2")]);
    let closes = message(conv.id, Role::User, vec![result("t2")]);
    let plain = text(conv.id, Role::User, "plain");
    for m in [&opens, &chains, &closes, &plain] {
        store.append(m).await.unwrap();
    }

    let refs = store
        .tool_refs_closure(conv.id, &[closes.id])
        .await
        .unwrap();
    assert_eq!(
        refs.keys().copied().collect::<HashSet<_>>(),
        HashSet::from([opens.id, chains.id, closes.id])
    );
    for m in [&opens, &chains, &closes] {
        assert_eq!(refs[&m.id], m.tool_refs(), "content order");
    }
    let alone = store.tool_refs_closure(conv.id, &[plain.id]).await.unwrap();
    assert_eq!(alone.len(), 1);
    assert!(alone[&plain.id].is_empty());
    assert!(matches!(
        store.tool_refs_closure(conv.id, &[MessageId::new()]).await,
        Err(StoreError::NotFound(Entity::Message, _))
    ));
    store.drop_schema().await.unwrap();
}

#[tokio::test]
async fn delete_conversation_removes_everything() {
    let Some(store) = store().await else { return };
    let project = store.ensure_project("/p").await.unwrap();
    let keep = store.create_conversation(project.id, "keep").await.unwrap();
    store
        .append(&text(keep.id, Role::User, "stays"))
        .await
        .unwrap();
    let conv = store.create_conversation(project.id, "gone").await.unwrap();
    let a = message(conv.id, Role::Assistant, vec![call("x")]);
    let b = message(conv.id, Role::User, vec![result("x")]);
    store.append(&a).await.unwrap();
    store.append(&b).await.unwrap();
    let commit = squash_commit(&store, conv.id, &[a.id, b.id]).await;
    store.commit(&commit).await.unwrap();

    store.delete_conversation(conv.id).await.unwrap();
    assert!(matches!(
        store.conversation(conv.id).await,
        Err(StoreError::NotFound(Entity::Conversation, _))
    ));
    assert!(store.message(a.id).await.is_err());
    assert!(store.thread(commit.thread_id).await.is_err());
    let stats = store.stats().await.unwrap();
    assert_eq!(
        (
            stats.conversations,
            stats.threads,
            stats.messages,
            stats.thread_links,
            stats.operations
        ),
        (1, 1, 1, 1, 0)
    );
    assert!(matches!(
        store.delete_conversation(conv.id).await,
        Err(StoreError::NotFound(Entity::Conversation, _))
    ));
    store.drop_schema().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_appends_stay_dense() {
    let Some(store) = store().await else { return };
    let store = Arc::new(store);
    let project = store.ensure_project("/p").await.unwrap();
    let conv = store.create_conversation(project.id, "busy").await.unwrap();
    let mut tasks = Vec::new();
    for writer in 0..8 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let mut positions = Vec::new();
            for i in 0..50 {
                let m = text(conv.id, Role::User, &format!("writer {writer} message {i}"));
                positions.push(store.append(&m).await.expect("append").position);
            }
            positions
        }));
    }
    let mut positions = Vec::new();
    for task in tasks {
        positions.extend(task.await.expect("task"));
    }
    positions.sort_unstable();
    assert_eq!(positions, (0..400).collect::<Vec<u64>>());
    let current = store.current_thread(conv.id).await.unwrap();
    assert_eq!(current.links.len(), 400);
    assert_eq!(current.thread.message_count, 400);
    assert_eq!(current.thread.revision, 400);
    assert_eq!(
        current.links.iter().collect::<HashSet<_>>().len(),
        400,
        "each message linked once"
    );
    store.drop_schema().await.unwrap();
}

/// Timing, not correctness: `cargo test … -- --ignored --nocapture` prints how long a
/// copy-on-write of a 10,000-message thread takes (one INSERT … SELECT for the links).
#[tokio::test]
#[ignore = "slow: appends 10,000 messages"]
async fn copy_on_write_of_a_long_thread() {
    let Some(store) = store().await else { return };
    let project = store.ensure_project("/p").await.unwrap();
    let conv = store.create_conversation(project.id, "long").await.unwrap();
    for i in 0..10_000 {
        store
            .append(&text(conv.id, Role::User, &format!("message {i}")))
            .await
            .unwrap();
    }
    let current = store.current_thread(conv.id).await.unwrap();
    let links = thread_ops::delete(&current.links, &current.links[..1]).unwrap();
    let commit = Commit {
        conversation_id: conv.id,
        base_thread_id: current.thread.id,
        base_revision: current.thread.revision,
        thread_id: ThreadId::new(),
        origin: ThreadOrigin::Delete {
            message_ids: current.links[..1].to_vec(),
        },
        links: links.into(),
        messages: Vec::new(),
        operations: Vec::new(),
    };
    let started = std::time::Instant::now();
    let thread = store.commit(&commit).await.unwrap();
    eprintln!("copy-on-write of 9,999 links: {:?}", started.elapsed());
    assert_eq!(thread.message_count, 9_999);
    let started = std::time::Instant::now();
    assert_eq!(
        store.current_thread(conv.id).await.unwrap().links.len(),
        9_999
    );
    eprintln!("snapshot read: {:?}", started.elapsed());
    store.drop_schema().await.unwrap();
}

#[tokio::test]
async fn connect_errors_do_not_leak_the_password() {
    // Port 1 refuses at once; no server is needed.
    let url = "postgres://squash:s3cr3t-pw@127.0.0.1:1/nowhere";
    match PostgresStore::connect_in_schema(url, "unused").await {
        Err(StoreError::Backend(message)) => {
            assert!(!message.contains("s3cr3t-pw"), "{message}");
            assert!(message.contains("127.0.0.1:1"), "{message}");
        }
        Err(other) => panic!("expected a backend error, got {other:?}"),
        Ok(_) => panic!("connected to port 1"),
    }
    assert!(matches!(
        PostgresStore::connect_in_schema(url, "bad\"name").await,
        Err(StoreError::Invalid(_))
    ));
}

/// Inserts bind a message's terms as a binary `tsvector`; the fill of rows stored before the
/// terms existed writes them as a text literal, which the server parses. Both must store the
/// same value: the terms of messages imported and appended, emptied and filled again when the
/// store opens, are the ones the inserts wrote (pairs of common words, a word past its 256
/// positions, the last of 16,383 positions, accents, quotes).
#[tokio::test]
async fn binary_terms_are_the_literal_s() {
    let schema = format!("squash_test_{}", squash_testkit::backend::uuid_simple());
    let Some(store) = squash_testkit::backend::postgres_store_in(&schema).await else {
        return;
    };
    let many = (0..17_000)
        .map(|i| format!("w{}", i % 5_000))
        .collect::<Vec<_>>()
        .join(" ");
    let texts = [
        "it should be the end".to_owned(),
        "a cat, a hat; the cat sat on the mat".to_owned(),
        "O'Brien said \\'quoted\\' it's a back\\slash".to_owned(),
        "Café cafe\u{301} CAFÉ zebra apple Zebra 42 7 42 ünïcödé".to_owned(),
        "the ".repeat(300) + "end",
        many,
        "--- ; ---".to_owned(),
    ];
    let conversation = ConversationId::new();
    let messages: Vec<Message> = texts
        .iter()
        .map(|t| text(conversation, Role::User, t))
        .collect();
    store
        .import_conversation(squash_testkit::fixtures::single_thread_batch(
            conversation,
            messages,
            "terms",
            "/tmp/terms",
        ))
        .await
        .unwrap();
    let appended = text(conversation, Role::Assistant, &texts[1]);
    store.append(&appended).await.unwrap();

    let mut db = squash_testkit::backend::pg_connection()
        .await
        .expect("the server");
    let read = "SELECT id, search_terms::text FROM messages ORDER BY key";
    sqlx::query(&format!("SET search_path TO \"{schema}\""))
        .execute(&mut db)
        .await
        .unwrap();
    let inserted: Vec<(uuid::Uuid, String)> =
        sqlx::query_as(read).fetch_all(&mut db).await.unwrap();
    assert_eq!(inserted.len(), texts.len() + 1);
    assert!(inserted[0].1.contains("'should be'"), "{}", inserted[0].1);
    sqlx::query("UPDATE messages SET search_terms = NULL")
        .execute(&mut db)
        .await
        .unwrap();
    drop(store);
    let store = squash_testkit::backend::postgres_store_in(&schema)
        .await
        .expect("the server again");
    let filled: Vec<(uuid::Uuid, String)> = sqlx::query_as(read).fetch_all(&mut db).await.unwrap();
    assert_eq!(filled, inserted);
    store.drop_schema().await.unwrap();
}
