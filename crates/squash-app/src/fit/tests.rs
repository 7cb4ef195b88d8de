//! The trims' sources a plan keeps from its read: a plan without them (made elsewhere, or
//! whose copy was dropped) reads them from the store and applies to the same thread.

use std::sync::Arc;

use squash_core::fit::FitRequest;
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

/// The current thread's messages after a trim-only fit to half the session, with or without
/// the sources the plan kept.
async fn fitted(
    service: &ConversationService,
    keep_sources: bool,
) -> Vec<(Role, Vec<ContentItem>)> {
    let conv = session(service).await;
    let fitter = FitService::new(SquashEngine::offline(service.clone()));
    let view = service.current_thread(conv).await.unwrap();
    let budget = view.message_tokens.iter().sum::<u64>() / 2;
    let mut planned = fitter
        .plan(conv, FitRequest::new(budget, FitStrategy::Mask))
        .await
        .unwrap();
    assert!(!planned.plan.steps.is_empty());
    assert_eq!(planned.trim_sources.len(), planned.plan.steps.len());
    if !keep_sources {
        planned.trim_sources = Arc::default();
    }
    let outcome = fitter.apply(planned, false, &|_| {}).await.unwrap();
    assert!(outcome.fits());
    let view = service.current_thread(conv).await.unwrap();
    view.messages
        .into_iter()
        .map(|m| (m.role, m.content))
        .collect()
}

#[tokio::test]
async fn a_plan_without_its_sources_reads_them_and_applies_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("fit.db")).unwrap();
    let service = ConversationService::new(Arc::new(store));
    let kept = fitted(&service, true).await;
    let read = fitted(&service, false).await;
    assert_eq!(kept, read);
    assert!(kept.iter().any(|(_, content)| content
        .iter()
        .any(|c| squash_core::render::item_text(c).contains(squash_core::fit::TRIM_MARKER))));
}
