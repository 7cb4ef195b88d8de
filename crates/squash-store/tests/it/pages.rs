//! Reading a thread a page at a time (`thread_page`): the same checks on both backends.

use squash_core::page::{PageAnchor, PageWindow};
use squash_core::tokens::message_tokens;
use squash_core::{ConversationId, MessageId, ThreadId};
use squash_store::{
    ConversationStore, KnownTokens, PageRequest, StoreError, ThreadPage, ThreadRef,
};
use squash_testkit::fixtures::user_text as text;

async fn page(
    store: &dyn ConversationStore,
    thread: ThreadRef,
    anchor: PageAnchor,
    limit: u32,
) -> ThreadPage {
    store
        .thread_page(PageRequest {
            thread,
            window: PageWindow { anchor, limit },
            known_tokens: None,
        })
        .await
        .expect("page")
}

fn texts(page: &ThreadPage) -> Vec<String> {
    page.messages
        .iter()
        .map(squash_core::render::message_text)
        .collect()
}

async fn check(store: &dyn ConversationStore) {
    let project = store.ensure_project("/pages").await.unwrap();
    let conv = store
        .create_conversation(project.id, "pages")
        .await
        .unwrap();
    let mut ids: Vec<MessageId> = Vec::new();
    let mut tokens = 0;
    for i in 1..=25 {
        let m = text(conv.id, &format!("message {i}"));
        tokens += message_tokens(&m);
        ids.push(m.id);
        store.append(&m).await.unwrap();
    }
    let current = ThreadRef::Current(conv.id);

    let last = page(store, current, PageAnchor::Last, 10).await;
    assert_eq!(
        texts(&last),
        (16..=25)
            .map(|i| format!("message {i}"))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        (last.span.first, last.span.count, last.span.total),
        (16, 10, 25)
    );
    assert!(last.span.has_before() && !last.span.has_after());
    assert_eq!(
        last.tokens, tokens,
        "the whole thread's tokens, not the page's"
    );
    assert_eq!(last.thread.message_count, 25);

    let before = page(store, current, PageAnchor::Before { position: 16 }, 10).await;
    assert_eq!(before.span.first, 6);
    assert_eq!(before.messages.first().map(|m| m.id), Some(ids[5]));
    let after = page(store, current, PageAnchor::After { position: 20 }, 10).await;
    assert_eq!((after.span.first, after.span.count), (21, 5));
    let first = page(store, current, PageAnchor::First, 3).await;
    assert_eq!(
        first.messages.iter().map(|m| m.id).collect::<Vec<_>>(),
        ids[..3]
    );

    // Anchored on a message: its page, with it a third of the way down.
    let at = page(
        store,
        current,
        PageAnchor::AroundMessage { message: ids[12] },
        9,
    )
    .await;
    assert_eq!(at.span.first, 10);
    assert_eq!(at.messages[3].id, ids[12]);

    // A message that is not in the thread is not found, rather than an empty page.
    let elsewhere = text(conv.id, "never linked");
    let missing = store
        .thread_page(PageRequest {
            thread: current,
            window: PageWindow {
                anchor: PageAnchor::AroundMessage {
                    message: elsewhere.id,
                },
                limit: 9,
            },
            known_tokens: None,
        })
        .await;
    assert!(
        matches!(missing, Err(StoreError::NotFound(..))),
        "{missing:?}"
    );

    // By thread id, the same page; an unknown thread or conversation is not found.
    let by_id = page(
        store,
        ThreadRef::Thread(last.thread.id),
        PageAnchor::Last,
        10,
    )
    .await;
    assert_eq!(by_id, last);
    for unknown in [
        ThreadRef::Thread(ThreadId::new()),
        ThreadRef::Current(ConversationId::new()),
    ] {
        let got = store
            .thread_page(PageRequest {
                thread: unknown,
                window: PageWindow::last(10),
                known_tokens: None,
            })
            .await;
        assert!(matches!(got, Err(StoreError::NotFound(..))), "{got:?}");
    }

    // A known sum is used while the thread is at its revision, and ignored once it moved on.
    let known = KnownTokens {
        thread: last.thread.id,
        revision: last.thread.revision,
        tokens: 7,
        message_count: last.thread.message_count,
    };
    let request = PageRequest {
        thread: current,
        window: PageWindow::last(1),
        known_tokens: Some(known),
    };
    assert_eq!(store.thread_page(request).await.unwrap().tokens, 7);
    let stored = store.thread_page_stored(request).await.unwrap();
    assert_eq!((stored.page.tokens, stored.conversation.id), (7, conv.id));
    let late = text(conv.id, "message 26");
    store.append(&late).await.unwrap();
    let moved = store.thread_page(request).await.unwrap();
    assert_eq!(moved.tokens, tokens + message_tokens(&late));
    assert_eq!(moved.messages[0].id, late.id);
    // The stored page too, whose length the known sum no longer tells.
    let moved = store.thread_page_stored(request).await.unwrap();
    assert_eq!(moved.page.tokens, tokens + message_tokens(&late));
    assert_eq!(moved.page.messages[0].id, late.id);
    assert_eq!(
        moved.page.thread.message_count,
        last.thread.message_count + 1
    );

    // Limit 0: the header and totals only.
    let none = page(store, current, PageAnchor::Last, 0).await;
    assert!(none.messages.is_empty());
    assert_eq!((none.span.count, none.span.total), (0, 26));

    // An empty thread.
    let empty = store
        .create_conversation(project.id, "empty")
        .await
        .unwrap();
    let nothing = page(store, ThreadRef::Current(empty.id), PageAnchor::Last, 10).await;
    assert!(nothing.messages.is_empty());
    assert_eq!((nothing.span.total, nothing.tokens), (0, 0));
}

squash_testkit::on_both_stores!(check: pages_on_sqlite, pages_on_postgres);
