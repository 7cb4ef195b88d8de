//! A page read as stored (`thread_page_stored`, what the HTTP API sends) is the same JSON, byte
//! for byte, as the page read and parsed (`thread_page`, what `squash --json` prints), on every
//! backend: every content kind, instructions, metadata, a squash's result, a reply, text that
//! JSON escapes, numbers; a row stored before the `tokens` column; and a corrupt row is a
//! clear error on both paths.

use serde_json::json;
use squash_app::{PageAnchor, PageWindow, ThreadRef};
use squash_core::sample::{mixed_content, TextSize};
use squash_core::{ContentItem, ConversationId, Instruction, Message, Role};
use squash_store::StoreError;
use squash_testkit::fixtures::{new_conversation, squash_into};
use squash_testkit::{on_every_backend, Backend};

/// The same window of a conversation's current thread read both ways, serialized.
async fn both(b: &Backend, conv: ConversationId, window: PageWindow) -> (String, String) {
    let thread = ThreadRef::Current(conv);
    let parsed = b.service.thread_page(thread, window).await.unwrap();
    let stored = stored_page(b, conv, window).await.unwrap();
    (
        serde_json::to_string(&parsed).unwrap(),
        serde_json::to_string(&stored).unwrap(),
    )
}

/// A page of the current thread as the API reads it: with its conversation, in one read.
async fn stored_page(
    b: &Backend,
    conv: ConversationId,
    window: PageWindow,
) -> Result<squash_app::ThreadView<squash_store::StoredMessage>, squash_app::ServiceError> {
    b.service
        .thread_page_stored(ThreadRef::Current(conv), window)
        .await
}

/// A message with what the service's append leaves out: instructions, metadata, a reply.
fn decorated(conversation: ConversationId, reply_to: &Message) -> Message {
    let text = "quotes \" backslash \\ tab \t newline \n control \u{1} emoji 🦀 ünïcödé \u{2028}";
    let mut m = Message::new(
        conversation,
        Role::User,
        vec![
            ContentItem::text_for(Role::User, text),
            ContentItem::UnknownJson {
                json: json!({"z": [1, 2.5, -0.0, 1e300, null, true], "a": {"nested": "x"}}),
            },
        ],
    )
    .unwrap();
    m.instructions = vec![
        Instruction::UserInstruction {
            id: "i1".into(),
            title: "paths".into(),
            description: "keep the paths".into(),
        },
        Instruction::ResponseExpected,
    ];
    m.metadata = Some(json!({"uuid": "abc", "costUSD": 0.0123, "zeta": {"b": 1, "a": 2}}));
    m.reply_to = Some(reply_to.id);
    m
}

async fn same_json(b: &Backend) {
    let conv = new_conversation(&b.service, "/stored", "stored pages").await;
    let mut ids = Vec::new();
    for n in 0..40 {
        let (role, content) = mixed_content(n, TextSize::RealSize);
        let (m, _) = b.service.append(conv.id, role, content).await.unwrap();
        ids.push(m.id);
    }
    let replied = b.service.message(ids[0]).await.unwrap();
    let decorated = decorated(conv.id, &replied);
    b.store.append(&decorated).await.unwrap();
    // A squash's result carries its operation's id.
    let before_squash = b.service.current_links(conv.id).await.unwrap().thread.id;
    squash_into(
        &b.service,
        conv.id,
        &[ids[10], ids[11]],
        "squashed 10 and 11",
    )
    .await;
    // A thread that is no longer current, by its id: its conversation comes with it. Read as
    // stored first, while its length is not known yet (the next reads know it).
    let old = ThreadRef::Thread(before_squash);
    let stored = b
        .service
        .thread_page_stored(old, PageWindow::last(30))
        .await;
    let parsed = b.service.thread_page(old, PageWindow::last(30)).await;
    assert_eq!(
        serde_json::to_string(&stored.unwrap()).unwrap(),
        serde_json::to_string(&parsed.unwrap()).unwrap(),
        "{}: a thread that is not current",
        b.name
    );

    let current = ThreadRef::Current(conv.id);
    for window in [
        PageWindow::last(100),
        PageWindow::last(7),
        PageWindow {
            anchor: PageAnchor::Before { position: 20 },
            limit: 15,
        },
        PageWindow {
            anchor: PageAnchor::AroundMessage { message: ids[30] },
            limit: 9,
        },
        PageWindow::last(0),
    ] {
        let (parsed, stored) = both(b, conv.id, window).await;
        assert_eq!(stored, parsed, "{}: {window:?}", b.name);
    }
    let (parsed, _) = both(b, conv.id, PageWindow::last(100)).await;
    for expected in [
        "\"instructions\":",
        "\"metadata\":",
        "\"reply_to\":",
        "\"squash_operation_id\":",
    ] {
        assert!(
            parsed.contains(expected),
            "{}: the page holds {expected}",
            b.name
        );
    }

    // A row from before the `tokens` column: its estimate is counted from its content.
    b.raw_sql(
        "UPDATE messages SET tokens = NULL",
        "UPDATE messages SET tokens = NULL",
    )
    .await;
    let (parsed, stored) = both(b, conv.id, PageWindow::last(100)).await;
    assert_eq!(stored, parsed, "{}: rows without their estimate", b.name);

    // A corrupt content column is an error that says so, on both paths, never broken JSON.
    let id = decorated.id.as_uuid().simple();
    b.raw_sql(
        &format!("UPDATE messages SET content = '[{{\"type\":' WHERE id = x'{id}'"),
        &format!(
            "UPDATE messages SET content = '[{{\"type\":' WHERE id = '{}'",
            decorated.id
        ),
    )
    .await;
    let stored = stored_page(b, conv.id, PageWindow::last(100)).await;
    let parsed = b.service.thread_page(current, PageWindow::last(100)).await;
    for (path, got) in [
        ("stored", stored.map(|_| ())),
        ("parsed", parsed.map(|_| ())),
    ] {
        let error = got.expect_err("a corrupt row is refused");
        assert!(
            matches!(
                &error,
                squash_app::ServiceError::Store(StoreError::Corrupt(_))
            ),
            "{} ({path}): {error:?}",
            b.name
        );
    }
}

#[tokio::test]
async fn stored_pages_are_the_parsed_pages_json() {
    on_every_backend!(same_json);
}
