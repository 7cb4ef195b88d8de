//! A commit of many new messages (a fit's: one per step), which a store may write several rows
//! a statement: the thread, the messages, their tool ids, tokens and search terms are those of
//! a commit written a row at a time, and an id already stored is refused by name with nothing
//! written. Same checks on both backends.

use squash_core::search::SearchQuery;
use squash_core::tokens::message_tokens;
use squash_core::{ContentItem, ConversationId, Message, MessageId, Role, ThreadId, ThreadOrigin};
use squash_store::{Commit, ConversationStore, NewLinks, StoreError};
use squash_testkit::fixtures::user_text as text;

/// More than two of SQLite's statements of 1,000 terms, the last one partial.
const NEW: usize = 2_100;

/// Message `i` of the commit: calls and results in pairs, every tenth with a word of its own.
fn new_message(conv: ConversationId, i: usize) -> Message {
    let content = if i.is_multiple_of(2) {
        vec![ContentItem::tool_call(
            format!("call_{i}"),
            "Bash",
            serde_json::json!({ "command": format!("cargo test -p crate{i}") }),
        )]
    } else {
        let word = if i % 10 == 1 {
            format!(" unmistakable{i}")
        } else {
            String::new()
        };
        vec![ContentItem::tool_result(
            format!("call_{}", i - 1),
            "Bash",
            format!("test result: ok. {i} passed{word}"),
            false,
        )]
    };
    let role = if i.is_multiple_of(2) {
        Role::Assistant
    } else {
        Role::User
    };
    Message::new(conv, role, content).expect("a valid message")
}

fn commit(
    base: &squash_store::ThreadSnapshot,
    links: Vec<MessageId>,
    messages: Vec<Message>,
) -> Commit {
    Commit {
        conversation_id: base.thread.conversation_id,
        base_thread_id: base.thread.id,
        base_revision: base.thread.revision,
        thread_id: ThreadId::new(),
        origin: ThreadOrigin::Delete {
            message_ids: Vec::new(),
        },
        links: NewLinks::List(links),
        messages,
        operations: Vec::new(),
    }
}

async fn check(store: &dyn ConversationStore) {
    let project = store.ensure_project("/many").await.unwrap();
    let conv = store.create_conversation(project.id, "many").await.unwrap();
    let old = text(conv.id, "the request");
    store.append(&old).await.unwrap();
    let base = store.current_thread(conv.id).await.unwrap();

    // An id already stored, among hundreds of new ones: refused by name, nothing written.
    let mut taken: Vec<Message> = (0..300).map(|i| new_message(conv.id, i)).collect();
    taken[280] = old.clone();
    let links: Vec<MessageId> = taken.iter().map(|m| m.id).collect();
    match store.commit(&commit(&base, links.clone(), taken)).await {
        Err(StoreError::AlreadyExists(_, id)) => assert_eq!(id, old.id.to_string()),
        other => panic!("a taken id must be refused: {other:?}"),
    }
    assert_eq!(store.threads(conv.id).await.unwrap().len(), 1);
    for id in [links[0], links[279], links[299]] {
        assert!(matches!(
            store.messages(&[id]).await,
            Err(StoreError::NotFound(..))
        ));
    }

    // The old message, then the new ones, in order.
    let messages: Vec<Message> = (0..NEW).map(|i| new_message(conv.id, i)).collect();
    let mut links = vec![old.id];
    links.extend(messages.iter().map(|m| m.id));
    let thread = store
        .commit(&commit(&base, links.clone(), messages.clone()))
        .await
        .unwrap();
    assert_eq!(thread.message_count, NEW as u64 + 1);
    assert_eq!(store.current_thread(conv.id).await.unwrap().links, links);
    let range = store.thread_range(thread.id, 1, NEW as u32).await.unwrap();
    assert_eq!(range.messages.len(), NEW);
    for ((stored, tokens), written) in range
        .messages
        .iter()
        .zip(&range.message_tokens)
        .zip(&messages)
    {
        assert_eq!(stored.id, written.id);
        assert_eq!(stored.role, written.role);
        assert_eq!(stored.content, written.content);
        assert_eq!(*tokens, message_tokens(written));
    }

    // Each result is paired with its call through the stored tool ids.
    let seed = [messages[NEW - 1].id];
    let closure = store.tool_refs_closure(conv.id, &seed).await.unwrap();
    assert!(closure.contains_key(&messages[NEW - 2].id), "{closure:?}");

    // Each message's own words are found, in the last chunk too.
    for i in [1, 301, 591] {
        let query = SearchQuery::parse(&format!("unmistakable{i}")).unwrap();
        let hits = store.search(&query, Some(conv.id), 10).await.unwrap();
        assert_eq!(hits.hits.len(), 1, "unmistakable{i}: {hits:?}");
        assert_eq!(hits.hits[0].message_id, messages[i].id);
        assert_eq!(hits.hits[0].position, i as u64 + 2);
    }
}

squash_testkit::on_both_stores!(check: many_messages_on_sqlite, many_messages_on_postgres);
