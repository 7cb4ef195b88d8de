//! What a fit or squash took out, read back: an operation's sources a page at a time (one of
//! thousands too), a page of a run's thread, and the sub-agent runs of an imported Claude Code
//! session tied to the calls that started them, on every backend.

use squash_app::{AppError, ErrorCode, MAX_PAGE};
use squash_core::{ContentItem, ConversationId, MessageId, Role, SquashOperationId};
use squash_testkit::fixtures::{new_conversation, session_data, squash_into};
use squash_testkit::long_session::stored;
use squash_testkit::{on_every_backend, Backend};

async fn squash(b: &Backend, conv: ConversationId, ids: &[MessageId], text: &str) -> MessageId {
    squash_into(&b.service, conv, ids, text)
        .await
        .result_message_id
}

async fn sources_paged(b: &Backend) {
    // Ten text messages (no tool pairs), two squashes, the second taking in the first's result.
    let conv = new_conversation(&b.service, "/work/notes", "Notes")
        .await
        .id;
    let mut ids = Vec::new();
    for i in 0..10 {
        let text = ContentItem::text_for(Role::User, format!("note {i}"));
        let (message, _) = b
            .service
            .append(conv, Role::User, vec![text])
            .await
            .expect("append");
        ids.push(message.id);
    }
    let first = squash(b, conv, &ids[2..5], "notes 2 to 4").await;
    let second = squash(b, conv, &[ids[1], first, ids[6]], "notes 1 to 6").await;
    let op = b
        .service
        .message(second)
        .await
        .unwrap()
        .squash_operation_id
        .unwrap();

    let page = b
        .service
        .operation_sources(op, 0, 2)
        .await
        .expect("first page");
    assert_eq!(page.page.total, 3);
    assert_eq!(page.page.offset, 0);
    let got: Vec<MessageId> = page.page.messages.iter().map(|m| m.id).collect();
    assert_eq!(got, vec![ids[1], first], "conversation order");
    assert!(page.page.has_more());
    assert_eq!(page.page.message_tokens.len(), 2);
    assert!(page.page.message_tokens.iter().all(|t| *t > 0));
    // The source that is itself a squash comes with its operation: its originals are next.
    let inner = b
        .service
        .message(first)
        .await
        .unwrap()
        .squash_operation_id
        .unwrap();
    let ops: Vec<SquashOperationId> = page.page.operations.iter().map(|o| o.id).collect();
    assert_eq!(ops, vec![inner]);
    let rest = b
        .service
        .operation_sources(op, 2, 2)
        .await
        .expect("second page");
    let got: Vec<MessageId> = rest.page.messages.iter().map(|m| m.id).collect();
    assert_eq!(got, vec![ids[6]]);
    assert!(!rest.page.has_more());
    let nested = b.service.operation_sources(inner, 0, 50).await.unwrap();
    let got: Vec<MessageId> = nested.page.messages.iter().map(|m| m.id).collect();
    assert_eq!(got, ids[2..5].to_vec());
    // The end is an empty page; past it, and over the page limit, clear refusals.
    assert!(b
        .service
        .operation_sources(op, 3, 5)
        .await
        .unwrap()
        .page
        .messages
        .is_empty());
    let past = b.service.operation_sources(op, 4, 5).await.unwrap_err();
    assert_eq!(past.code(), ErrorCode::InvalidInput);
    assert!(past.to_string().contains("there are 3 sources"), "{past}");
    let big = b
        .service
        .operation_sources(op, 0, MAX_PAGE + 1)
        .await
        .unwrap_err();
    assert_eq!(big.code(), ErrorCode::InvalidInput);
    let unknown = b
        .service
        .operation_sources(SquashOperationId::new(), 0, 5)
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), ErrorCode::NotFound);
}

#[tokio::test]
async fn an_operations_sources_come_a_page_at_a_time() {
    on_every_backend!(sources_paged);
}

async fn thousands(b: &Backend) {
    // One squash standing for 3,000 messages, as a digest does.
    let (conv, ids) = stored(b.store.as_ref(), 3_000).await;
    let result = squash(b, conv, &ids, "the whole session, digested").await;
    let op = b
        .service
        .message(result)
        .await
        .unwrap()
        .squash_operation_id
        .unwrap();
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let page = b
            .service
            .operation_sources(op, offset, 700)
            .await
            .expect("a page");
        assert_eq!(page.page.total, 3_000);
        assert!(page.page.messages.len() <= 700);
        seen.extend(page.page.messages.iter().map(|m| m.id));
        offset += page.page.messages.len() as u64;
        if !page.page.has_more() {
            break;
        }
    }
    assert_eq!(seen, ids, "every source once, in conversation order");
}

#[tokio::test]
async fn an_operation_with_thousands_of_sources_pages_through_them_all() {
    on_every_backend!(thousands);
}

async fn subagents(b: &Backend) {
    let subagents = session_data("claude-code-subagents-5c0375b4.jsonl");
    let summary = b.import(&subagents, "/tmp/originals").await;
    let main = summary.conversations.iter().find(|c| !c.sidechain).unwrap();
    let sides: Vec<_> = summary
        .conversations
        .iter()
        .filter(|c| c.sidechain)
        .collect();
    let runs = b
        .service
        .subagent_runs(main.conversation_id)
        .await
        .expect("runs");
    assert_eq!(runs.len(), sides.len());
    let view = b
        .service
        .current_thread(main.conversation_id)
        .await
        .unwrap();
    let calls: Vec<String> = view
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|item| match item {
            ContentItem::ToolCall { id, name, .. } if name == "Task" => Some(id.clone()),
            _ => None,
        })
        .collect();
    for (run, side) in runs.iter().zip(&sides) {
        assert_eq!(run.run.conversation.id, side.conversation_id);
        assert_eq!(Some(&run.call_id), side.started_by.as_ref());
        assert!(
            calls.contains(&run.call_id),
            "{} is a Task call of the session",
            run.call_id
        );
        let thread = b
            .service
            .current_thread(side.conversation_id)
            .await
            .unwrap();
        assert_eq!(run.run.message_count, thread.messages.len() as u64);
        assert_eq!(run.run.tokens, thread.tokens);
        assert!(run.run.message_count > 2);
        // The run's thread a page at a time, as the web opens it under the call.
        let page = b
            .service
            .current_page(side.conversation_id, 0, 2)
            .await
            .unwrap();
        assert_eq!(page.total, run.run.message_count);
        assert_eq!(page.messages[0].id, thread.messages[0].id);
        assert!(page.has_more());
        let last = b
            .service
            .current_page(side.conversation_id, page.total - 1, 5)
            .await
            .unwrap();
        assert_eq!(
            last.messages.last().unwrap().id,
            thread.messages.last().unwrap().id
        );
        assert!(!last.has_more());
        // A run has no runs of its own.
        assert!(b
            .service
            .subagent_runs(side.conversation_id)
            .await
            .unwrap()
            .is_empty());
    }
    let unknown = b
        .service
        .subagent_runs(ConversationId::new())
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), ErrorCode::NotFound);
    let past = b
        .service
        .current_page(main.conversation_id, view.messages.len() as u64 + 1, 5)
        .await
        .unwrap_err();
    assert_eq!(past.code(), ErrorCode::InvalidInput);
}

#[tokio::test]
async fn sub_agent_runs_are_tied_to_the_calls_that_started_them() {
    on_every_backend!(subagents);
}
