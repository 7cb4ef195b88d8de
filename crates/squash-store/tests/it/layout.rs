//! Threads stored as segments of the threads they derive from (`src/layout.rs`): a long chain
//! of squashes, edits, deletes, appends, undos and redos, each checked against a plain list of
//! ids on both backends — whole thread, pages, positions of messages, token sums, search hits,
//! the reply check — and the rows a derivation writes.

use std::collections::HashMap;

use squash_core::page::{PageAnchor, PageWindow};
use squash_core::search::SearchQuery;
use squash_core::{ContentItem, ConversationId, LinkEdit, Message, MessageId, Role, ThreadId};
use squash_store::sqlite::SqliteStore;
use squash_store::{
    ConversationStore, Direction, PageRequest, StoreError, ThreadReader, ThreadRef,
};
use squash_testkit::fixtures::{edit_commit, Lcg};

struct Story<'a> {
    store: &'a dyn ConversationStore,
    conversation: ConversationId,
    messages: HashMap<MessageId, Message>,
    serial: u64,
}

impl Story<'_> {
    fn message(&mut self) -> Message {
        self.serial += 1;
        let role = if self.serial.is_multiple_of(2) {
            Role::Assistant
        } else {
            Role::User
        };
        let text = format!(
            "step {} mentions zq{} and {}",
            self.serial,
            self.serial,
            "padding ".repeat((self.serial % 7) as usize)
        );
        let m = Message::new(
            self.conversation,
            role,
            vec![ContentItem::text_for(role, &text)],
        )
        .expect("valid message");
        self.messages.insert(m.id, m.clone());
        m
    }

    async fn append(&mut self) -> MessageId {
        let m = self.message();
        self.store.append(&m).await.expect("append");
        m.id
    }

    /// Applies `edit` to the current thread as the service would; returns the new links.
    async fn edit(&mut self, base: &[MessageId], edit: LinkEdit) -> Vec<MessageId> {
        let current = self
            .store
            .current_thread_header(self.conversation)
            .await
            .unwrap();
        let message = edit.replaced.map(|_| self.message());
        let links = edit
            .apply(base, message.as_ref().map(|m| m.id))
            .expect("a valid edit");
        let commit = edit_commit(&current, edit, message);
        let thread = self.store.commit(&commit).await.expect("commit");
        assert_eq!(thread.message_count, links.len() as u64);
        links
    }

    /// Everything a reader sees of the current thread agrees with `expected`.
    async fn check(&self, expected: &[MessageId], rng: &mut Lcg) {
        let store = self.store;
        let snapshot = store.current_thread(self.conversation).await.unwrap();
        assert_eq!(snapshot.links, expected, "the current thread's links");
        assert_eq!(snapshot.thread.message_count, expected.len() as u64);
        let ids: Vec<MessageId> = store
            .thread_messages(snapshot.thread.id)
            .await
            .unwrap()
            .iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(ids, expected, "thread_messages");
        let tokens: u64 = expected
            .iter()
            .map(|id| squash_core::tokens::message_tokens(&self.messages[id]))
            .sum();
        assert_eq!(
            store.thread_tokens(snapshot.thread.id).await.unwrap(),
            tokens
        );

        let n = expected.len() as u64;
        for _ in 0..3 {
            let position = rng.below(n + 2);
            let limit = 1 + rng.below(12) as u32;
            let page = page(
                store,
                self.conversation,
                PageAnchor::After { position },
                limit,
            )
            .await
            .unwrap();
            let from = (position as usize).min(expected.len());
            let to = (from + limit as usize).min(expected.len());
            let got: Vec<MessageId> = page.messages.iter().map(|m| m.id).collect();
            assert_eq!(got, expected[from..to], "page after {position}, {limit}");
            assert_eq!(page.tokens, tokens);
        }
        if n == 0 {
            return;
        }
        // Positions of messages: a page around one, and a search hit on its unique word.
        let at = rng.below(n) as usize;
        let target = expected[at];
        let around = page(
            store,
            self.conversation,
            PageAnchor::AroundMessage { message: target },
            5,
        )
        .await
        .unwrap();
        let first = around.span.first as usize;
        assert_eq!(around.messages[at + 1 - first].id, target);
        let word = self.messages[&target]
            .content
            .iter()
            .find_map(|c| match c {
                ContentItem::UserMessage { text } => Some(text.clone()),
                ContentItem::AssistantMessage { structured } => Some(structured.full_text.clone()),
                _ => None,
            })
            .and_then(|t| t.split_whitespace().nth(3).map(str::to_owned))
            .expect("the message's word");
        let query = SearchQuery::parse(&word).unwrap();
        let hits = store
            .search(&query, Some(self.conversation), 10)
            .await
            .unwrap();
        assert_eq!(hits.hits.len(), 1, "{word}: {hits:?}");
        assert_eq!(hits.hits[0].message_id, target);
        assert_eq!(hits.hits[0].position, at as u64 + 1);
    }
}

async fn page(
    store: &dyn ConversationStore,
    conversation: ConversationId,
    anchor: PageAnchor,
    limit: u32,
) -> squash_store::Result<squash_store::ThreadPage> {
    store
        .thread_page(PageRequest {
            thread: ThreadRef::Current(conversation),
            window: PageWindow { anchor, limit },
            known_tokens: None,
        })
        .await
}

/// Up to `k` distinct ascending positions below `n`.
fn positions(rng: &mut Lcg, n: u64, k: u64) -> Vec<u64> {
    let mut out: Vec<u64> = (0..k).map(|_| rng.below(n)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

async fn story(store: &dyn ConversationStore) {
    let project = store.ensure_project("/layout").await.unwrap();
    let conversation = store
        .create_conversation(project.id, "layout")
        .await
        .unwrap();
    let mut s = Story {
        store,
        conversation: conversation.id,
        messages: HashMap::new(),
        serial: 0,
    };
    let mut rng = Lcg(23);
    let mut links = Vec::new();
    for _ in 0..40 {
        links.push(s.append().await);
    }
    // The threads undo returns to, newest last.
    let mut history: Vec<Vec<MessageId>> = Vec::new();
    s.check(&links, &mut rng).await;
    for step in 0..40u32 {
        let n = links.len() as u64;
        match rng.below(6) {
            // A squash: the first of three becomes the result, the others leave.
            0 | 1 if n >= 3 => {
                let sources = positions(&mut rng, n, 3);
                if sources.len() < 2 {
                    continue;
                }
                let edit = LinkEdit {
                    dropped: sources[1..].to_vec(),
                    replaced: Some(sources[0]),
                };
                history.push(links.clone());
                links = s.edit(&links, edit).await;
            }
            2 if n >= 1 => {
                let edit = LinkEdit {
                    dropped: Vec::new(),
                    replaced: Some(rng.below(n)),
                };
                history.push(links.clone());
                links = s.edit(&links, edit).await;
            }
            3 if n >= 4 => {
                let edit = LinkEdit {
                    dropped: positions(&mut rng, n, 2),
                    replaced: None,
                };
                history.push(links.clone());
                links = s.edit(&links, edit).await;
            }
            // Undo, and now and then redo at once.
            4 if !history.is_empty() => {
                store
                    .switch_relative(conversation.id, Direction::Back)
                    .await
                    .unwrap()
                    .expect("a thread to go back to");
                let back = history.pop().expect("history");
                let forward = std::mem::replace(&mut links, back);
                if step.is_multiple_of(3) {
                    store
                        .switch_relative(conversation.id, Direction::Forward)
                        .await
                        .unwrap()
                        .expect("a thread to go forward to");
                    history.push(std::mem::replace(&mut links, forward));
                }
            }
            // Appends land in the current (maybe derived) thread's own tail.
            _ => {
                for _ in 0..1 + rng.below(2) {
                    links.push(s.append().await);
                }
                // Undo from here goes to this thread's parent, which the model keeps; redo
                // is not tried after an append.
            }
        }
        s.check(&links, &mut rng).await;
    }

    // A reply to a message that left the current thread is a conflict, to one in it is not.
    let gone = s
        .messages
        .keys()
        .find(|id| !links.contains(id))
        .copied()
        .expect("a message outside the current thread");
    let mut reply = s.message();
    reply.reply_to = Some(gone);
    assert!(matches!(
        store.append(&reply).await,
        Err(StoreError::Conflict { .. })
    ));
    reply.reply_to = links.first().copied();
    store.append(&reply).await.expect("a reply in the thread");
    links.push(reply.id);
    s.check(&links, &mut rng).await;

    // Many cuts at once (beyond the segment limit) store a copy; reads and later derivations
    // work the same.
    for _ in 0..600 {
        links.push(s.append().await);
    }
    let n = links.len() as u64;
    let edit = LinkEdit {
        dropped: (0..n).filter(|p| p % 2 == 1 && *p < 700).collect(),
        replaced: Some(0),
    };
    links = s.edit(&links, edit).await;
    s.check(&links, &mut rng).await;
    let edit = LinkEdit {
        dropped: vec![5, 6],
        replaced: Some(3),
    };
    links = s.edit(&links, edit).await;
    links.push(s.append().await);
    s.check(&links, &mut rng).await;

    // What a derivation costs in rows: a squash of a 340-message thread stores one link (its
    // result), not the thread's.
    let before = store.stats().await.unwrap();
    let edit = LinkEdit {
        dropped: vec![100, 200],
        replaced: Some(10),
    };
    links = s.edit(&links, edit).await;
    let after = store.stats().await.unwrap();
    assert_eq!(after.thread_links, before.thread_links + 1);
    assert_eq!(after.threads, before.threads + 1);
    s.check(&links, &mut rng).await;

    // Read in chunks while the thread grows: the reader gives the thread as it was opened.
    let mut reader = ThreadReader::open(store, ThreadRef::Current(conversation.id), 37)
        .await
        .unwrap();
    let first = reader.next_chunk().await.unwrap().expect("a first chunk");
    for _ in 0..5 {
        s.append().await;
    }
    let mut read: Vec<MessageId> = first.messages.iter().map(|m| m.id).collect();
    let mut tokens: Vec<u64> = first.message_tokens.clone();
    reader
        .for_each(|m, t| {
            read.push(m.id);
            tokens.push(t);
        })
        .await
        .unwrap();
    assert_eq!(read, links);
    let expected: Vec<u64> = links
        .iter()
        .map(|id| squash_core::tokens::message_tokens(&s.messages[id]))
        .collect();
    assert_eq!(tokens, expected);
    let missing = store.thread_range(ThreadId::new(), 0, 10).await;
    assert!(matches!(missing, Err(StoreError::NotFound(..))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layout_story_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("layout.db")).unwrap();
    story(&store).await;
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layout_story_on_postgres() {
    let Some(store) = squash_testkit::postgres_store().await else {
        return;
    };
    story(&store).await;
    store.drop_schema().await.unwrap();
}
