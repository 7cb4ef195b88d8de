//! Recall through the service, on every backend: the extract of a long selection carries a
//! reference, and recall of it pages through every line of the originals in order, reading the
//! sources a chunk at a time; where the originals end it says how many lines they have, and a
//! page past the end, an unknown reference or a bad limit is refused.

use squash_app::{LinePage, ServiceError, SquashEngine, SquashOptions};
use squash_core::prompt::SquashStyle;
use squash_core::render::message_text;
use squash_core::{MessageId, RecallRef, Role};
use squash_testkit::fixtures::{append_text, new_conversation};
use squash_testkit::{on_every_backend, Backend};

/// More sources than one chunk of the store's read (32), so that pages cross chunks.
const MESSAGES: usize = 80;

async fn pages_through_every_line(b: &Backend) {
    let service = &b.service;
    let conv = new_conversation(service, "/tmp/recall", "paging").await.id;
    let mut ids: Vec<MessageId> = Vec::new();
    for i in 0..MESSAGES {
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        let text = format!("message {i} first line\nmessage {i} second line");
        ids.push(append_text(service, conv, role, &text).await.id);
    }
    let engine = SquashEngine::offline(service.clone()).with_options(SquashOptions {
        style: SquashStyle::Extract,
        ..SquashOptions::default()
    });
    let done = engine
        .squash_and_apply(conv, &ids, None)
        .await
        .expect("the extract applies");
    let op = done.outcome.operation.expect("an operation");
    let recall = op.recall_ref.expect("an extract carries a reference");

    // The whole of the originals, as recall renders them.
    let sources = service.messages(&ids).await.expect("sources");
    let mut expected: Vec<String> = Vec::new();
    for (i, m) in sources.iter().enumerate() {
        if i > 0 {
            expected.push(String::new());
        }
        expected.push(format!("[{} · message {} of {MESSAGES}]", m.role, i + 1));
        expected.extend(message_text(m).lines().map(str::to_owned));
    }

    let mut got: Vec<String> = Vec::new();
    let mut offset = 0;
    let mut pages = 0;
    loop {
        let page = service
            .recall(
                conv,
                recall,
                LinePage {
                    offset,
                    limit: Some(37),
                },
            )
            .await
            .expect("a page");
        assert_eq!(page.offset, offset);
        assert_eq!(page.messages, MESSAGES);
        assert_eq!(page.operation_id, op.id);
        // Split on every newline: a page may end with the blank line between two messages.
        got.extend(page.text.split('\n').map(str::to_owned));
        pages += 1;
        match page.next_offset {
            Some(next) => {
                assert_eq!(next, offset + 37, "a full page holds its limit");
                offset = next;
            }
            None => {
                assert_eq!(page.total_lines, Some(expected.len()));
                break;
            }
        }
    }
    assert_eq!(got, expected);
    assert_eq!(pages, expected.len().div_ceil(37));

    // The first page stopped reading early: it does not claim to know the total.
    let first = service
        .recall(
            conv,
            recall,
            LinePage {
                offset: 0,
                limit: Some(5),
            },
        )
        .await
        .expect("the first page");
    assert_eq!(first.total_lines, None);
    assert_eq!(first.text.lines().count(), 5);

    // Past the end, an unknown reference and a bad limit are refused.
    let past = service
        .recall(
            conv,
            recall,
            LinePage {
                offset: expected.len() + 10,
                limit: None,
            },
        )
        .await;
    assert!(matches!(past, Err(ServiceError::Invalid(_))), "{past:?}");
    let unknown = RecallRef::new(recall.get() + 100).expect("a reference");
    let missing = service
        .recall(
            conv,
            unknown,
            LinePage {
                offset: 0,
                limit: None,
            },
        )
        .await;
    assert!(
        matches!(missing, Err(ServiceError::UnknownRecallRef { .. })),
        "{missing:?}"
    );
    let zero = service
        .recall(
            conv,
            recall,
            LinePage {
                offset: 0,
                limit: Some(0),
            },
        )
        .await;
    assert!(matches!(zero, Err(ServiceError::Invalid(_))), "{zero:?}");
}

#[tokio::test]
async fn recall_pages_through_every_line_of_a_long_selection() {
    on_every_backend!(pages_through_every_line);
}
