//! How many matches a search counts and which it ranks, on a conversation larger than the
//! first window PostgreSQL reads (2,048 keys) and than the candidates a search keeps (1,001):
//! a word in every message, in most of the newest, in few, and only in the oldest (which makes
//! PostgreSQL read window after window). Both searches, every backend, the same answers.

use std::collections::HashSet;

use squash_core::{ConversationId, Message, MessageId, Role};
use squash_testkit::fixtures::single_thread_batch;
use squash_testkit::{on_every_backend, Backend};

const SIZE: usize = 5_000;
/// Messages below this index hold `old`.
const OLD: usize = 3_000;

fn text(n: usize) -> String {
    let mut words = vec![format!("message n{n:05} common")];
    if n < OLD {
        words.push("old".into());
    }
    if n.is_multiple_of(4) {
        words.push("medium".into());
    }
    if [10, 20, 30].contains(&n) {
        words.push("rare".into());
    }
    words.join(" ")
}

async fn windows_story(b: &Backend) {
    let conversation = ConversationId::new();
    let messages: Vec<Message> = (0..SIZE)
        .map(|n| Message::text(conversation, Role::User, &text(n)).unwrap())
        .collect();
    let ids: Vec<MessageId> = messages.iter().map(|m| m.id).collect();
    let key = format!("windows-{}-{conversation}", b.name);
    let batch = single_thread_batch(conversation, messages, &key, "/tmp/search-windows");
    b.store.import_conversation(batch).await.unwrap();
    let s = &b.service;
    // (query, matches in order, counted total, more)
    let cases: Vec<(&str, Vec<usize>)> = vec![
        ("common", (0..SIZE).collect()),
        ("old", (0..OLD).collect()),
        (
            "medium",
            (0..SIZE).filter(|n| n.is_multiple_of(4)).collect(),
        ),
        ("rare", vec![10, 20, 30]),
        ("\"n00042 common\"", vec![42]),
    ];
    for (query, matching) in cases {
        // The candidates are the newest 1,001 matches; the hits are among them.
        let newest: HashSet<MessageId> =
            matching.iter().rev().take(1_001).map(|n| ids[*n]).collect();
        let total = matching.len().min(1_000) as u64;
        let more = matching.len() > 1_000;
        let current = s
            .search(query, Some(conversation), Some(200))
            .await
            .unwrap();
        let history = s
            .search_history(conversation, query, Some(200), None)
            .await
            .unwrap();
        for (what, hits, got) in [
            (
                "current",
                current
                    .hits
                    .iter()
                    .map(|h| h.message_id)
                    .collect::<Vec<_>>(),
                (current.total, current.more),
            ),
            (
                "history",
                history.hits.iter().map(|h| h.message_id).collect(),
                (history.total, history.more),
            ),
        ] {
            assert_eq!(got, (total, more), "{}: {what} {query:?}", b.name);
            assert_eq!(
                hits.len(),
                matching.len().min(200),
                "{}: {what} {query:?}",
                b.name
            );
            assert!(
                hits.iter().all(|h| newest.contains(h)),
                "{}: {what} {query:?}: a hit is not among the newest matches",
                b.name
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_count_and_rank_the_newest_matches_on_every_backend() {
    on_every_backend!(windows_story);
}
