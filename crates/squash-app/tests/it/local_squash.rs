//! A real AI squash on the embedded local model: the smallest GGUF (SmolLM2-135M, 98 MB) through
//! the provider trait and the squash engine, on a SQLite file. The model is too weak to squash
//! well, so the output guard may refuse its answer; what must hold either way is that the
//! engine ran a real inference with the local prompt, and that an accepted answer is applied
//! with its provenance while a refused one changes nothing.
//!
//! The model comes from `scripts/fetch-test-model.sh` (`$SQUASH_TEST_GGUF` or
//! `target/models/smollm2-135m-instruct-q4_1.gguf`); without it the test prints a note and
//! passes, except under CI (`CI` set), where the model must be there.

#![cfg(feature = "local")]

use squash_app::{
    prompt_style_for, ChatOptions, ContextMeter, SquashEngine, SquashError, SquashOptions,
    TokenCounter,
};
use squash_core::prompt::SquashStyle;
use squash_core::tokens::content_tokens_with;
use squash_core::{ContentItem, Conversation, Role};
use squash_llm::{LocalConfig, LocalModel, ProviderKind};
use squash_testkit::model::test_model;

/// The test model in a 2,048-token context, or `None` (noted) when it is not here.
fn load_test_model() -> Option<std::sync::Arc<LocalModel>> {
    let path = test_model()?;
    let config = LocalConfig {
        context_tokens: 2048,
        ..LocalConfig::default()
    };
    Some(LocalModel::load(&path, config).expect("load the test model"))
}

/// A new conversation named `name` in a fresh SQLite store.
async fn local_conversation(name: &str) -> (squash_testkit::Backend, Conversation) {
    let b = squash_testkit::sqlite().await;
    let conv = b
        .service
        .create_conversation("/tmp/local", name)
        .await
        .expect("conversation");
    (b, conv)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_squashes_with_the_embedded_model() {
    let Some(model) = load_test_model() else {
        return;
    };

    let (b, conv) = local_conversation("Local squash").await;
    // A request, the build the agent ran (its long log), the answer, and a next request: a
    // selection whose note is shorter than it, as a squash must be.
    let log: String = (1..=40)
        .map(|i| format!("   Compiling dep-{i} v0.1.{i}\n"))
        .chain(std::iter::once(
            "error[E0432]: unresolved import `crate::store::Pool`\n --> src/main.rs:3:5\n"
                .to_owned(),
        ))
        .collect();
    let contents = [
        (Role::User, vec![ContentItem::text_for(Role::User, "cargo build fails: error E0432 unresolved import `crate::store::Pool` in src/main.rs.")]),
        (Role::Assistant, vec![ContentItem::tool_call("b1", "Bash", serde_json::json!({"command": "cargo build"}))]),
        (Role::User, vec![ContentItem::tool_result("b1", "Bash", log, true)]),
        (Role::Assistant, vec![ContentItem::text_for(Role::Assistant, "The module was renamed: `Pool` now lives in `crate::db::Pool`. I changed the import in src/main.rs and `cargo build` passes.")]),
        (Role::User, vec![ContentItem::text_for(Role::User, "Great, thanks. Please also run the tests.")]),
    ];
    let mut ids = Vec::new();
    for (role, content) in contents {
        let (m, _) = b
            .service
            .append(conv.id, role, content)
            .await
            .expect("append");
        ids.push(m.id);
    }
    let before = b.service.current_links(conv.id).await.expect("links").links;

    let options = SquashOptions {
        max_output_tokens: 48,
        ..SquashOptions::default()
    };
    let engine = SquashEngine::new(b.service.clone(), model).with_options(options);
    match engine.squash_messages(conv.id, &ids[..4], None).await {
        Ok(result) => {
            assert_eq!(result.provider, Some(ProviderKind::Local));
            assert_eq!(result.model.as_deref(), Some("smollm2-135m-instruct-q4_1"));
            assert_eq!(
                result.prompt.as_ref().map(|p| p.style),
                Some(prompt_style_for(SquashStyle::Prose, ProviderKind::Local))
            );
            let usage = result.usage.expect("the local model counts its tokens");
            assert!(usage.input_tokens > 20, "{usage:?}");
            // 48 tokens a call; an unusable first answer gets one retry.
            let calls = result.prompts.len() as u64;
            assert!((1..=48 * calls).contains(&usage.output_tokens));
            let outcome = engine.apply(&result).await.expect("apply");
            let after = b.service.current_links(conv.id).await.expect("links").links;
            assert_eq!(after.len(), 2);
            let squashed = outcome.message.expect("the squashed message");
            assert_eq!(after[0], squashed.id);
            let op = b
                .service
                .operation(outcome.operation.expect("an operation").id)
                .await
                .expect("operation");
            assert_eq!(op.kind.provider().map(|p| p.as_str()), Some("local"));
            assert!(op.kind.prompt().is_some_and(|p| !p.is_empty()));
        }
        Err(SquashError::Output(problem)) => {
            // Refused by the guard: a classified problem and nothing applied.
            assert!(!problem.class().is_empty());
            let after = b.service.current_links(conv.id).await.expect("links").links;
            assert_eq!(after, before);
        }
        Err(other) => panic!("the local squash failed: {other}"),
    }
    b.cleanup().await;
}

/// The context meter counts with the embedded model's own tokenizer: the same texts the
/// estimate prices, each tokenized by the model, against the window it was loaded with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_context_meter_counts_with_the_local_tokenizer() {
    let Some(model) = load_test_model() else {
        return;
    };
    let (b, conv) = local_conversation("Local meter").await;
    for n in 0..10 {
        let (role, content) = squash_testkit::mixed_content(n);
        b.service
            .append(conv.id, role, content)
            .await
            .expect("append");
    }
    let view = b.service.current_thread(conv.id).await.expect("view");
    let meter = ContextMeter::of(&view, Some(model.as_ref()), &ChatOptions::default());
    assert_eq!(meter.counter, TokenCounter::Tokenizer);
    assert_eq!(meter.window, Some(2048));
    let by_hand: u64 = view
        .messages
        .iter()
        .map(|m| content_tokens_with(m.role, &m.content, &|t: &str| model.count_tokens(t) as u64))
        .sum();
    assert_eq!(meter.tokens, by_hand);
    // Not the estimate: the tokenizer really counted (the estimate errs high on purpose).
    assert_ne!(meter.tokens, view.tokens);
    // Without the model there is no window and the store's estimate is shown.
    let bare = ContextMeter::of(&view, None, &ChatOptions::default());
    assert_eq!(
        (bare.tokens, bare.window, bare.counter),
        (view.tokens, None, TokenCounter::Estimate)
    );
}
