//! Full-text search, one story on every backend: what is indexed (text, tool names, inputs
//! and results), stemming, phrases, scope, ranking with limit and total, hits only in current
//! threads (a squash hides its sources' hits, undo brings them back), every insert path
//! (append, commit, import), deletion, hostile input, and the fill of a database from before
//! the search migration.

use squash_testkit::fixtures::{new_conversation, single_thread_batch};
use squash_testkit::on_every_backend;
use squash_testkit::schema::{PG_UNDO_SEARCH, SQLITE_UNDO_SEARCH};

use serde_json::json;
use squash_app::{ManualSquashRequest, PartnerPolicy, SearchResults, ServiceError};
use squash_core::{ContentItem, ConversationId, Message, MessageId, Role, StructuredText};
use squash_testkit::Backend;

async fn find(b: &Backend, q: &str, conv: Option<ConversationId>) -> SearchResults {
    b.service
        .search(q, conv, None)
        .await
        .unwrap_or_else(|e| panic!("{}: search {q:?}: {e}", b.name))
}

fn ids(r: &SearchResults) -> Vec<MessageId> {
    r.hits.iter().map(|h| h.message_id).collect()
}

fn assistant(text: &str) -> Vec<ContentItem> {
    vec![ContentItem::AssistantMessage {
        structured: StructuredText {
            full_text: text.into(),
            ..Default::default()
        },
    }]
}

async fn search_story(b: &Backend) {
    let s = &b.service;
    let alpha = new_conversation(s, "/tmp/search-a", "Alpha").await;
    let beta = new_conversation(s, "/tmp/search-b", "Beta").await;
    let say = |conv: ConversationId, role: Role, content: Vec<ContentItem>| async move {
        s.append(conv, role, content).await.unwrap().0.id
    };
    let ask = say(
        alpha.id,
        Role::User,
        vec![ContentItem::UserMessage {
            text: "Find the failing test in the tokenizer".into(),
        }],
    )
    .await;
    let call = say(
        alpha.id,
        Role::Assistant,
        vec![ContentItem::tool_call(
            "toolu_1",
            "Bash",
            json!({"command": "cargo nextest run tokenizer"}),
        )],
    )
    .await;
    let result = say(
        alpha.id,
        Role::User,
        vec![ContentItem::tool_result(
            "toolu_1",
            "Bash",
            "test tokenizer::empty_input ... FAILED\npanicked at src/lexer.rs:42",
            true,
        )],
    )
    .await;
    let answer = say(
        alpha.id,
        Role::Assistant,
        assistant("The lexer panics on empty input; a guard fixes it."),
    )
    .await;
    let haiku = say(
        beta.id,
        Role::User,
        vec![ContentItem::UserMessage {
            text: "Write a haiku about autumn leaves and the lexer".into(),
        }],
    )
    .await;

    // Tool inputs and names are searched, with the position in the thread and the snippet's
    // match marked as a part of its own.
    let r = find(b, "nextest", None).await;
    assert_eq!(ids(&r), vec![call], "{}", b.name);
    assert_eq!(r.total, 1);
    let hit = &r.hits[0];
    assert_eq!((hit.position, hit.role), (2, Role::Assistant));
    assert_eq!(hit.conversation_id, alpha.id);
    assert_eq!(hit.conversation_name, "Alpha");
    let marked: Vec<&str> = hit
        .snippet
        .iter()
        .filter(|p| p.hit)
        .map(|p| p.text.as_str())
        .collect();
    assert_eq!(marked, vec!["nextest"], "{}: {:?}", b.name, hit.snippet);
    assert_eq!(ids(&find(b, "bash", None).await), vec![call]);
    // Tool output, and stemming: "fails" finds "failing" and "FAILED".
    let mut failing = ids(&find(b, "fails", None).await);
    failing.sort();
    assert_eq!(failing, vec![ask, result], "{}", b.name);
    // Every word must be there; a phrase in its order.
    assert_eq!(ids(&find(b, "lexer panics", None).await), vec![answer]);
    assert_eq!(ids(&find(b, "\"autumn leaves\"", None).await), vec![haiku]);
    assert!(find(b, "\"leaves autumn\"", None).await.hits.is_empty());
    // Across conversations, and in one.
    assert_eq!(find(b, "lexer", None).await.total, 3, "{}", b.name);
    assert_eq!(ids(&find(b, "lexer", Some(beta.id)).await), vec![haiku]);
    assert!(find(b, "nextest", Some(beta.id)).await.hits.is_empty());

    // Whatever a person types is a query, never a syntax error of the engine.
    for hostile in [
        "NEAR(\"unterminated",
        "a OR -b* AND (c",
        "'); DROP TABLE messages; --",
        "lexer:* & !panic | <->",
        "col:lexer ^lexer \"\"\"",
    ] {
        s.search(hostile, None, None)
            .await
            .unwrap_or_else(|e| panic!("{}: {hostile:?} failed: {e}", b.name));
    }
    for refused in ["", "   ", "*** ()", "\"\"\"", &"word ".repeat(40)] {
        assert!(
            matches!(
                s.search(refused, None, None).await,
                Err(ServiceError::Invalid(_))
            ),
            "{}: {refused:?} is refused",
            b.name
        );
    }
    assert!(matches!(
        s.search("lexer", None, Some(0)).await,
        Err(ServiceError::Invalid(_))
    ));
    assert!(matches!(
        s.search("lexer", Some(ConversationId::new()), None).await,
        Err(ServiceError::NotFound(..))
    ));

    // A squash takes its sources' hits away (the result's text is new); undo brings them back.
    s.squash_manual(
        alpha.id,
        ManualSquashRequest {
            messages: vec![call, result],
            text: Some("Ran the tokenizer tests: one failure in the lexer.".into()),
            content: None,
            role: Some(Role::Assistant),
            policy: PartnerPolicy::Include,
        },
    )
    .await
    .unwrap();
    assert!(find(b, "nextest", None).await.hits.is_empty(), "{}", b.name);
    let squashed = find(b, "failure", Some(alpha.id)).await;
    assert_eq!(squashed.hits.len(), 1);
    assert_eq!(squashed.hits[0].position, 2);
    s.undo(alpha.id).await.unwrap();
    assert_eq!(ids(&find(b, "nextest", None).await), vec![call]);
    assert!(find(b, "failure", Some(alpha.id)).await.hits.is_empty());

    // Ranking, limit and total: the message that says it most comes first.
    let gamma = new_conversation(s, "/tmp/search-c", "Gamma").await;
    let mut needles = Vec::new();
    for n in 0..30 {
        let text = if n == 17 {
            "needle needle needle needle in a haystack".to_owned()
        } else {
            format!("message {n}: a needle among many other words of a long haystack of text")
        };
        needles.push(say(gamma.id, Role::Assistant, assistant(&text)).await);
    }
    let page = s.search("needle", None, Some(5)).await.unwrap();
    assert_eq!((page.hits.len(), page.total), (5, 30), "{}", b.name);
    assert_eq!(page.hits[0].message_id, needles[17], "{}", b.name);
    assert!(page.hits.windows(2).all(|w| w[0].rank >= w[1].rank));

    // An imported conversation is searchable at once.
    let imported = import(b, "a zeppelin over the harbour").await;
    let r = find(b, "zeppelin", None).await;
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].conversation_id, imported);

    // A deleted conversation leaves no hits, and the index stays consistent.
    s.delete_conversation(gamma.id).await.unwrap();
    assert!(find(b, "needle", None).await.hits.is_empty());
    assert_eq!(find(b, "lexer", None).await.total, 3);

    // A database from before the search migration is indexed when it is opened.
    forget_search(b).await;
    let store = b.reopen().await;
    let service = squash_app::ConversationService::new(store);
    let again = service.search("zeppelin", None, None).await.unwrap();
    assert_eq!(again.hits.len(), 1, "{}: filled on open", b.name);
    assert_eq!(
        service.search("nextest", None, None).await.unwrap().hits[0].message_id,
        call
    );
}

async fn import(b: &Backend, text: &str) -> ConversationId {
    let conversation = ConversationId::new();
    let messages = vec![Message::text(conversation, Role::User, text).unwrap()];
    let batch = single_thread_batch(
        conversation,
        messages,
        &format!("search-{}-{conversation}", b.name),
        "/tmp/search-import",
    );
    b.store.import_conversation(batch).await.unwrap();
    conversation
}

/// Makes the database look as it did before migration 0006, so that opening it runs the real
/// migration and the fill.
async fn forget_search(b: &Backend) {
    let sqlite = format!("{SQLITE_UNDO_SEARCH} PRAGMA user_version = 4;");
    b.raw_sql(&sqlite, PG_UNDO_SEARCH).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_finds_current_messages_on_every_backend() {
    on_every_backend!(search_story);
}

/// A streamed import (messages arriving in chunks, their rows made on the sending thread) is
/// indexed like any other and reads back as sent (packed on SQLite); a source that fails
/// mid-way leaves nothing behind, in the index either.
async fn streamed_import_story(b: &Backend) {
    let streamed = |words: [&'static str; 3], fail: bool| async move {
        let conversation = ConversationId::new();
        // Long enough, and repetitive enough, that SQLite stores both columns packed.
        let mut messages: Vec<Message> = words
            .iter()
            .map(|w| {
                let mut m = Message::text(
                    conversation,
                    Role::User,
                    &format!("about the {w}. ").repeat(20),
                )
                .unwrap();
                m.metadata =
                    Some(serde_json::json!({ "note": format!("{w} metadata ").repeat(20) }));
                m
            })
            .collect();
        let sent = messages.clone();
        let later = messages.split_off(1);
        let mut batch = single_thread_batch(
            conversation,
            messages.clone(),
            &format!("streamed-{}-{conversation}", b.name),
            "/tmp/search-streamed",
        );
        batch.threads[0].links = std::iter::once(messages[0].id)
            .chain(later.iter().map(|m| m.id))
            .collect();
        let (sender, chunks) = squash_store::MessageChunks::channel(later.len(), 1);
        let producer = std::thread::spawn(move || {
            for (i, m) in later.into_iter().enumerate() {
                let chunk = if fail && i == 1 {
                    Err("the source went away".to_string())
                } else {
                    Ok(vec![m])
                };
                if !sender.send(chunk) {
                    break;
                }
            }
        });
        let outcome = b.store.import_conversation_chunked(batch, chunks).await;
        producer.join().unwrap();
        outcome.map(|_| sent)
    };
    let sent = streamed(["walrus", "narwhal", "axolotl"], false)
        .await
        .unwrap_or_else(|e| panic!("{}: streamed import: {e}", b.name));
    let ids: Vec<MessageId> = sent.iter().map(|m| m.id).collect();
    let stored = b.store.messages(&ids).await.unwrap();
    for (stored, sent) in stored.iter().zip(&sent) {
        assert_eq!(
            (&stored.content, &stored.metadata),
            (&sent.content, &sent.metadata),
            "{}: a streamed message reads back as sent",
            b.name
        );
    }
    if let Some(path) = &b.sqlite_path {
        let db = rusqlite::Connection::open(path).unwrap();
        let packed: i64 = db
            .query_row(
                "SELECT count(*) FROM messages \
                 WHERE typeof(metadata) = 'blob' AND typeof(search_text) = 'blob'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(packed, 3, "the streamed messages are stored packed");
    }
    for word in ["walrus", "narwhal", "axolotls"] {
        assert_eq!(
            find(b, word, None).await.hits.len(),
            1,
            "{}: {word}",
            b.name
        );
    }
    let failed = streamed(["pangolin", "quokka", "okapi"], true).await;
    assert!(
        failed.is_err(),
        "{}: a failed source fails the import",
        b.name
    );
    for word in ["pangolin", "quokka", "okapi"] {
        assert!(
            find(b, word, None).await.hits.is_empty(),
            "{}: {word} was left",
            b.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_import_is_searchable_on_every_backend() {
    on_every_backend!(streamed_import_story);
}
