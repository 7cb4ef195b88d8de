//! Small conversations are stored several to a transaction. On every backend: what is stored
//! and reported is what storing each conversation on its own gives; and when one of a group
//! fails, those before it are stored, the error names it, and nothing after it is.

use std::path::Path;

use chrono::Utc;
use serde_json::json;
use squash_app::import::{ConversationReport, ImportStatus};
use squash_core::{ConversationId, SourceFormat};
use squash_formats::read::{read_file, read_file_streaming};
use squash_formats::{squash_json, Parsed};
use squash_testkit::fixtures::{import_options, single_thread_batch};
use squash_testkit::{on_every_backend, Backend};

/// Copies of the in-memory session's conversations added to the streamed read: more than one
/// group holds.
const COPIES: usize = 50;

fn session() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/sessions/claude-code-subagents-5c0375b4.jsonl")
}

/// The session read streamed (a main conversation and two sub-agent runs, their messages made
/// from the file as they are stored), then `COPIES` times its in-memory read under new ids and
/// source keys: 3 + 150 small conversations.
fn many_small() -> Parsed {
    let path = session();
    let read = |streamed: bool| {
        let reader = if streamed {
            read_file_streaming
        } else {
            read_file
        };
        reader(
            &path,
            "s.jsonl",
            SourceFormat::ClaudeCode,
            Utc::now(),
            &mut |_| {},
        )
        .unwrap()
    };
    let mut parsed = read(true);
    let memory = read(false);
    for copy in 0..COPIES {
        for conv in &memory.conversations {
            let mut conv = conv.clone();
            squash_json::fresh_ids(&mut conv);
            conv.source_key = format!("{}#copy{copy}", conv.source_key);
            parsed.conversations.push(conv);
        }
    }
    parsed
}

/// What a report says, its conversation aside.
fn said(r: &ConversationReport) -> serde_json::Value {
    json!([
        r.source_key,
        r.status,
        r.display_name,
        r.sidechain,
        r.counts,
        r.threads,
        r.operations
    ])
}

/// What is stored of a conversation: how many messages, and its current thread's.
async fn stored(b: &Backend, id: ConversationId) -> serde_json::Value {
    let all = b.store.all_messages(id).await.unwrap().len();
    let current = b.service.current_thread(id).await.unwrap();
    let thread: Vec<_> = current
        .messages
        .iter()
        .map(|m| json!([m.role, m.content, m.metadata, m.created_at]))
        .collect();
    json!([all, thread])
}

async fn grouped_stores_what_one_at_a_time_stores(b: &Backend) {
    let parsed = many_small();
    let alone = b.fresh().await;
    let options = import_options("/tmp/grouped");
    let mut one_at_a_time = Vec::new();
    for conv in parsed.conversations.clone() {
        one_at_a_time.push(alone.service.store_imported(conv, &options).await.unwrap());
    }
    let grouped = b.service.store_parsed(parsed, &options).await.unwrap();
    assert_eq!(grouped.conversations.len(), 3 + 3 * COPIES);
    for (g, a) in grouped.conversations.iter().zip(&one_at_a_time) {
        assert_eq!(said(g), said(a));
        assert_eq!(
            stored(b, g.conversation_id).await,
            stored(&alone, a.conversation_id).await,
            "{}",
            g.source_key
        );
    }
    // Read and stored again: every one of them is imported already.
    let again = b
        .service
        .store_parsed(many_small(), &options)
        .await
        .unwrap();
    for (r, first) in again.conversations.iter().zip(&grouped.conversations) {
        assert_eq!(r.status, ImportStatus::AlreadyImported, "{}", r.source_key);
        assert_eq!(r.conversation_id, first.conversation_id);
    }
    alone.cleanup().await;
}

#[tokio::test]
async fn small_conversations_stored_together_are_stored_as_one_at_a_time_stores_them() {
    on_every_backend!(grouped_stores_what_one_at_a_time_stores);
}

async fn a_failed_group_is_stored_one_at_a_time(b: &Backend) {
    let parsed = many_small();
    let options = import_options("/tmp/grouped");
    // The fifth conversation's id is taken already: it cannot be stored.
    let taken = parsed.conversations[4].conversation_id;
    let other = single_thread_batch(taken, Vec::new(), "elsewhere", "/tmp/grouped");
    b.store.import_conversation(other).await.unwrap();
    let keys: Vec<String> = parsed
        .conversations
        .iter()
        .map(|c| c.source_key.clone())
        .collect();
    let err = b.service.store_parsed(parsed, &options).await.unwrap_err();
    assert!(err.to_string().contains(&taken.to_string()), "{err}");
    for (k, key) in keys.iter().enumerate() {
        let record = b.store.import_record(key).await.unwrap();
        assert_eq!(record.is_some(), k < 4, "conversation {k}: {key}");
    }
}

#[tokio::test]
async fn when_one_of_a_group_fails_those_before_it_are_stored_and_none_after() {
    on_every_backend!(a_failed_group_is_stored_one_at_a_time);
}
