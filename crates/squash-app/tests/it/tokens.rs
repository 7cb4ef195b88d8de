//! Token accounting, on every backend: after each operation (append, edit, delete, squash,
//! undo, redo, import in one piece, import in chunks, the append of a grown session) the
//! thread's size the store sums, the view's and the listing's equal the sum of
//! `message_tokens` over the thread's messages, computed here. And a database from before the
//! `tokens` column gets every old row filled when it is opened.

use squash_testkit::fixtures::{
    new_conversation, single_thread_batch, write_claude_session, GeneratedSession,
};
use squash_testkit::on_every_backend;
use squash_testkit::schema::{PG_UNDO_SEARCH, SQLITE_UNDO_SEARCH};
use std::path::Path;

use squash_app::{EditRequest, ManualSquashRequest, PartnerPolicy};
use squash_core::tokens::message_tokens;
use squash_core::{ContentItem, ConversationId, Message, Role, ThreadId};
use squash_store::ImportBatch;
use squash_testkit::{mixed_content, Backend};

/// What the test expects: the rule applied to the messages the thread holds.
fn sum(messages: &[Message]) -> u64 {
    messages.iter().map(message_tokens).sum()
}

/// Checks every way a thread's size is read against the messages it holds; returns it.
async fn size_of_thread(b: &Backend, conv: ConversationId, thread: ThreadId) -> u64 {
    let view = b.service.thread_view(thread).await.unwrap();
    let expected = sum(&view.messages);
    assert_eq!(view.tokens, expected, "{}: the view's total", b.name);
    assert_eq!(
        b.store.thread_tokens(thread).await.unwrap(),
        expected,
        "{}: the store's sum",
        b.name
    );
    if view.conversation.current_thread_id == thread {
        let listed = b.service.conversation_summaries(None).await.unwrap();
        let entry = listed
            .iter()
            .find(|s| s.conversation.id == conv)
            .expect("listed");
        assert_eq!(entry.tokens, expected, "{}: the listing's", b.name);
        assert_eq!(entry.message_count, view.messages.len() as u64);
    }
    expected
}

async fn current_thread(b: &Backend, conv: ConversationId) -> ThreadId {
    b.service
        .conversation(conv)
        .await
        .unwrap()
        .current_thread_id
}

async fn size_now(b: &Backend, conv: ConversationId) -> u64 {
    size_of_thread(b, conv, current_thread(b, conv).await).await
}

async fn totals_follow_every_operation(b: &Backend) {
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/tokens", "Sizes").await;
    assert_eq!(size_now(b, conv.id).await, 0, "an empty thread");

    let mut ids = Vec::new();
    let mut appended = 0;
    for n in 0..20 {
        let (role, content) = mixed_content(n);
        let (m, _) = s.append(conv.id, role, content).await.unwrap();
        appended += message_tokens(&m);
        ids.push(m.id);
    }
    let full = size_now(b, conv.id).await;
    assert_eq!(full, appended);
    // The mix holds an image: the fixed price is in the sum.
    assert!(full > squash_core::tokens::IMAGE_TOKENS, "{full}");
    let first_thread = conv.current_thread_id;

    let long = "a much longer answer that replaces the short one, ".repeat(20);
    s.edit(
        conv.id,
        EditRequest {
            message: ids[1],
            content: vec![ContentItem::text_for(Role::Assistant, long)],
        },
    )
    .await
    .unwrap();
    let edited = size_now(b, conv.id).await;
    assert!(edited > full, "the edit made @2 longer: {edited} vs {full}");

    // The message with the image.
    s.delete(conv.id, &[ids[7]], PartnerPolicy::Include)
        .await
        .unwrap();
    let deleted = size_now(b, conv.id).await;
    assert!(deleted + squash_core::tokens::IMAGE_TOKENS <= edited);

    let squash = s
        .squash_manual(
            conv.id,
            ManualSquashRequest {
                messages: vec![ids[10], ids[11], ids[12], ids[13]],
                text: Some("Read src/lib.rs; the test fails.".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let squashed = size_now(b, conv.id).await;
    assert!(squashed < deleted, "{squashed} vs {deleted}");
    assert_eq!(squash.thread.message_count, 16);

    s.undo(conv.id).await.unwrap();
    assert_eq!(size_now(b, conv.id).await, deleted, "undo");
    s.redo(conv.id).await.unwrap();
    assert_eq!(size_now(b, conv.id).await, squashed, "redo");
    // A thread that is no longer current keeps its size.
    assert_eq!(size_of_thread(b, conv.id, first_thread).await, full);

    // Appending to the squashed thread adds exactly the new message's estimate.
    let (m, _) = s
        .append(
            conv.id,
            Role::User,
            vec![ContentItem::text_for(Role::User, "And now?")],
        )
        .await
        .unwrap();
    assert_eq!(size_now(b, conv.id).await, squashed + message_tokens(&m));
}

/// A Claude Code session of `turns` turns (a prompt, an answer with a tool call, its result):
/// imported in chunks, two passes over the file.
fn claude_session(path: &Path, turns: usize) {
    let how = GeneratedSession {
        session_id: "70ce0000-0000-4000-8000-00000000beef",
        cwd: "/tmp/tokens-import",
        command: &|t| format!("ls -la src/{t}"),
        output: &|t| format!("file_{t}.rs\n").repeat(30),
    };
    write_claude_session(path, turns, &how);
}

/// A whole conversation stored in one piece, `n` mixed messages on one thread.
fn batch(n: usize, key: &str) -> ImportBatch {
    let conversation = ConversationId::new();
    let now = chrono::Utc::now();
    let messages: Vec<Message> = (0..n)
        .map(|i| {
            let (role, content) = mixed_content(i);
            let mut m = Message::new(conversation, role, content).unwrap();
            m.created_at = now;
            m
        })
        .collect();
    let mut batch = single_thread_batch(conversation, messages, key, "/tmp/tokens-batch");
    batch.display_name = "batch".into();
    batch
}

async fn imports_are_sized(b: &Backend) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.jsonl");
    // Enough turns for several chunks of the streamed import.
    claude_session(&path, 700);
    let summary = b.import(&path, "/tmp/tokens-import").await;
    let conv = summary.conversations[0].conversation_id;
    let imported = size_now(b, conv).await;
    assert!(imported > 700 * 3 * squash_core::tokens::MESSAGE_OVERHEAD);

    // The session grew: its new messages are appended to the conversation.
    claude_session(&path, 710);
    let again = b.import(&path, "/tmp/tokens-import").await;
    assert_eq!(again.conversations[0].conversation_id, conv);
    let grown = size_now(b, conv).await;
    assert!(grown > imported, "{grown} vs {imported}");

    // In one piece, through the store.
    let one = batch(50, &format!("tokens-batch-{}", b.name));
    let id = one.conversation_id;
    b.store.import_conversation(one).await.unwrap();
    size_now(b, id).await;
}

/// Makes the database look as it did before migration 0005 (the column, its indexes and its
/// migration record gone, and the later search migration's too), so that opening it runs the
/// real migrations and the fills.
async fn forget_tokens(b: &Backend) {
    let sqlite = format!(
        "{SQLITE_UNDO_SEARCH} DROP INDEX messages_tokens; DROP INDEX messages_without_tokens; \
         ALTER TABLE messages DROP COLUMN tokens; PRAGMA user_version = 3;"
    );
    let postgres = format!(
        "{PG_UNDO_SEARCH} ALTER TABLE messages DROP COLUMN tokens; \
         DELETE FROM _sqlx_migrations WHERE version = 5;"
    );
    b.raw_sql(&sqlite, &postgres).await;
}

async fn old_rows_are_filled_on_open(b: &Backend) {
    // More messages than one round of the fill takes.
    let one = batch(1_234, &format!("tokens-old-{}", b.name));
    let conv = one.conversation_id;
    b.store.import_conversation(one).await.unwrap();
    let before = size_now(b, conv).await;
    let thread = current_thread(b, conv).await;

    forget_tokens(b).await;
    let store = b.reopen().await;
    let service = squash_app::ConversationService::new(store.clone());
    let messages = store.thread_messages(thread).await.unwrap();
    assert_eq!(store.thread_tokens(thread).await.unwrap(), sum(&messages));
    assert_eq!(sum(&messages), before);
    let listed = service.conversation_summaries(None).await.unwrap();
    let entry = listed.iter().find(|s| s.conversation.id == conv).unwrap();
    assert_eq!(entry.tokens, before);
    // Opened again, there is nothing left to fill and nothing changes.
    drop(service);
    let store = b.reopen().await;
    assert_eq!(store.thread_tokens(thread).await.unwrap(), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thread_sizes_follow_every_operation() {
    on_every_backend!(totals_follow_every_operation);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_store_the_sizes_of_their_messages() {
    on_every_backend!(imports_are_sized);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_the_column_is_filled_when_opened() {
    on_every_backend!(old_rows_are_filled_on_open);
}
