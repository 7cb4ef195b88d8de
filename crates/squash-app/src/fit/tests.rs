//! A plan reads the thread in chunks: the plan of the whole thread read at once, applied from
//! the trims' sources read when it is applied.

use std::sync::Arc;

use squash_core::fit::{plan_summaries, summarize_thread, FitRequest};
use squash_core::{ContentItem, ConversationId, Role};
use squash_store::sqlite::SqliteStore;

use super::{FitService, FitStrategy};
use crate::{ConversationService, SquashEngine};

/// One request, then `steps` shell calls with long outputs.
async fn session(service: &ConversationService) -> ConversationId {
    let conv = service.create_conversation("/fit", "fit").await.unwrap().id;
    let request = ContentItem::text_for(Role::User, "Make the report tests pass");
    service
        .append(conv, Role::User, vec![request])
        .await
        .unwrap();
    for t in 0..8 {
        let id = format!("toolu_{t}");
        let input = serde_json::json!({ "command": format!("cargo test report_{t}") });
        let call = ContentItem::tool_call(id.clone(), "Bash", input);
        service
            .append(conv, Role::Assistant, vec![call])
            .await
            .unwrap();
        let log: Vec<String> = (0..120)
            .map(|l| format!("test report_{t}::case_{l} ... ok ({l} ms)"))
            .chain([format!("test result: ok. 120 passed; 0 failed (step {t})")])
            .collect();
        let result = ContentItem::tool_result(id, "Bash", log.join("\n"), false);
        service
            .append(conv, Role::User, vec![result])
            .await
            .unwrap();
    }
    conv
}

#[tokio::test]
async fn a_plan_read_in_chunks_is_the_plan_of_the_whole_thread_and_applies() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("fit.db")).unwrap();
    let service = ConversationService::new(Arc::new(store));
    let conv = session(&service).await;
    let fitter = FitService::new(SquashEngine::offline(service.clone()));
    let view = service.current_thread(conv).await.unwrap();
    let budget = view.message_tokens.iter().sum::<u64>() / 2;
    let request = FitRequest::new(budget, FitStrategy::Mask);
    let whole = summarize_thread(&view.messages, Some(&view.message_tokens), 2);
    let at_once = plan_summaries(&whole, request, 2);
    // Chunks that end between a call and its result.
    for chunk in [1, 2, 5] {
        let planned = fitter.plan_reading(conv, request, chunk).await.unwrap();
        assert_eq!(planned.plan, at_once, "chunks of {chunk}");
        assert_eq!(
            planned.computed_on(),
            (view.thread.id, view.thread.revision)
        );
        let ids: Vec<_> = view.messages.iter().map(|m| m.id).collect();
        assert_eq!(
            planned.base.links, ids,
            "the links as read, chunks of {chunk}"
        );
    }
    assert!(!at_once.steps.is_empty());
    let planned = fitter.plan(conv, request).await.unwrap();
    let outcome = fitter.apply(planned, false, &|_| {}).await.unwrap();
    assert!(outcome.fits());
    let fitted = service.current_thread(conv).await.unwrap();
    assert!(fitted.messages.iter().any(|m| m
        .content
        .iter()
        .any(|c| squash_core::render::item_text(c).contains(squash_core::fit::TRIM_MARKER))));
}
