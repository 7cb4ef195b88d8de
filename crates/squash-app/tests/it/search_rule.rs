//! One rule for what a word is to search, on every backend: the same messages for the same
//! query — stop words, phrases of them, stemmed forms, accents, other scripts, markup, paths,
//! and `*` (not a prefix) — through the current threads' search and the history search
//! alike. Each query's hits are compared with the set the rule gives (`squash_core::search::tokens`),
//! so both backends giving them means both give the same.

use std::collections::BTreeSet;

use squash_core::{ContentItem, ConversationId, MessageId, Role};
use squash_testkit::fixtures::new_conversation;
use squash_testkit::{on_every_backend, Backend};

const MESSAGES: &[&str] = &[
    // 0
    "The build should be green now.",
    // 1
    "It should not be red, and the tests say so",
    // 2
    "Café au lait for a naïve RÉSUMÉ",
    // 3
    "ПРИВЕТ, мир! Ёлка stands in the hall",
    // 4
    "tests failing in src/lexer.rs:42 with E0308",
    // 5
    "a well-known <div>markup</div> &amp; an entity",
    // 6
    "the lex tool, not the lexicon",
    // 7
    "東京タワー is tall; 'quoted' \\ backslash",
];

/// Each query and the messages (by index) it must find.
const QUERIES: &[(&str, &[usize])] = &[
    // A stop word of PostgreSQL's `english` configuration, and a phrase of them.
    ("the", &[0, 1, 3, 6]),
    ("\"should be\"", &[0]),
    ("should be", &[0, 1]),
    ("\"be green\"", &[0]),
    // Stemmed forms.
    ("fails", &[4]),
    ("testing", &[1, 4]),
    ("say", &[1]),
    // Accents and case folded.
    ("cafe", &[2]),
    ("CAFÉ résumé", &[2]),
    ("naive", &[2]),
    // Other scripts.
    ("привет", &[3]),
    ("Мир", &[3]),
    ("елка", &[3]),
    ("東京タワー", &[7]),
    // Paths, numbers and codes are their words; markup is text.
    ("lexer", &[4]),
    ("src/lexer.rs", &[4]),
    ("\"lexer rs 42\"", &[4]),
    ("-42", &[4]),
    ("e0308", &[4]),
    ("\"well known\"", &[5]),
    ("div", &[5]),
    ("amp", &[5]),
    // `*` is not a prefix: `lex*` is the word `lex`.
    ("lex*", &[6]),
    ("lexicon", &[6]),
    // Quotes and backslashes in the text or the query are nothing special.
    ("'quoted' \\", &[7]),
    ("zeppelin", &[]),
];

fn set(ids: impl IntoIterator<Item = MessageId>) -> BTreeSet<MessageId> {
    ids.into_iter().collect()
}

async fn same_hits_story(b: &Backend) {
    let s = &b.service;
    let conv: ConversationId = new_conversation(s, "/tmp/search-rule", "Rule").await.id;
    let mut ids = Vec::new();
    for text in MESSAGES {
        let content = vec![ContentItem::UserMessage {
            text: (*text).to_owned(),
        }];
        ids.push(s.append(conv, Role::User, content).await.unwrap().0.id);
    }
    for (query, expected) in QUERIES {
        let expected = set(expected.iter().map(|i| ids[*i]));
        let current = s.search(query, Some(conv), Some(50)).await.unwrap();
        assert_eq!(
            set(current.hits.iter().map(|h| h.message_id)),
            expected,
            "{}: {query:?}",
            b.name
        );
        let history = s.search_history(conv, query, Some(50), None).await.unwrap();
        assert_eq!(
            set(history.hits.iter().map(|h| h.message_id)),
            expected,
            "{}: history {query:?}",
            b.name
        );
        // Every hit shows the words it matched.
        for hit in &current.hits {
            assert!(
                hit.snippet.iter().any(|p| p.hit),
                "{}: {query:?}: nothing marked in {:?}",
                b.name,
                hit.snippet
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_query_finds_the_same_messages_on_every_backend() {
    on_every_backend!(same_hits_story);
}
