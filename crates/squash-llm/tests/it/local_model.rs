//! Real inference through the embedded local model, on the smallest GGUF there is
//! (SmolLM2-135M-Instruct Q4_1, 98 MB): the provider trait end to end, streaming,
//! cancellation, the shared weights and request queue, the context bound, and the AI squash
//! path (prompt, call, output checks) that the engine runs.
//!
//! The model comes from `scripts/fetch-test-model.sh`, at `$SQUASH_TEST_GGUF` or
//! `target/models/smollm2-135m-instruct-q4_1.gguf`. Without it these tests print a note and
//! pass, except under CI (`CI` set), where a missing model is a failure: CI must run them.

#![cfg(feature = "local")]

use std::sync::{Arc, Mutex};

use squash_core::prompt::{build_squash_prompt, messages_text, PromptStyle};
use squash_core::quality::{check_output, quality_report};
use squash_core::{ConversationId, Message, Role};
use squash_llm::{
    CancellationToken, ChatMessage, ChatModel, ChatRequest, LlmError, LocalConfig, LocalModel,
    ProviderKind, StopReason,
};
use squash_testkit::model::test_model;

fn config() -> LocalConfig {
    LocalConfig {
        threads: 2,
        context_tokens: 2048,
        ..LocalConfig::default()
    }
}

fn load() -> Option<Arc<LocalModel>> {
    let path = test_model()?;
    match LocalModel::load(&path, config()) {
        Ok(model) => Some(model),
        Err(e) => panic!("loading {}: {e}", path.display()),
    }
}

fn short_request(question: &str) -> ChatRequest {
    ChatRequest {
        system: Some("You are a helpful assistant. Answer in one short sentence.".into()),
        temperature: Some(0.3),
        max_output_tokens: 32,
        ..ChatRequest::new(vec![ChatMessage::user(question)])
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completes_a_short_answer_through_the_trait() {
    let Some(model) = load() else { return };
    let model: Arc<dyn ChatModel> = model;
    let info = model.info();
    assert_eq!(info.provider, ProviderKind::Local);
    assert_eq!(info.model, "smollm2-135m-instruct-q4_1");
    assert_eq!(info.context_window_tokens, 2048);

    let response = model
        .complete(
            &short_request("What is the capital of France?"),
            &CancellationToken::new(),
        )
        .await
        .expect("a local answer");
    assert!(!response.text.trim().is_empty(), "{response:?}");
    let usage = response.usage.expect("the local model counts its tokens");
    assert!(usage.input_tokens > 10, "{response:?}");
    assert!((1..=32).contains(&usage.output_tokens), "{response:?}");
    let stop = response.stop_reason.clone();
    assert!(
        matches!(stop, Some(StopReason::EndTurn | StopReason::MaxTokens)),
        "{stop:?}"
    );
    // The chat template's markers are special tokens and never leak into the text.
    assert!(!response.text.contains("<|im_"), "{}", response.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_the_same_text_it_returns() {
    let Some(model) = load() else { return };
    let deltas = Mutex::new(Vec::<String>::new());
    let (response, stats) = model
        .generate(
            &short_request("Name three colours."),
            &CancellationToken::new(),
            &|d| deltas.lock().unwrap().push(d.to_owned()),
        )
        .await
        .expect("a local answer");
    let deltas = deltas.into_inner().unwrap();
    assert!(deltas.len() > 1, "token by token, got {deltas:?}");
    assert_eq!(deltas.concat(), response.text);
    assert_eq!(
        Some(u64::from(stats.output_tokens)),
        response.usage.map(|u| u.output_tokens)
    );
    assert!(stats.prompt_tokens_per_second() > 0.0, "{stats:?}");
    assert!(stats.generation_tokens_per_second() > 0.0, "{stats:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_request_stops_promptly() {
    let Some(model) = load() else { return };
    let before = CancellationToken::new();
    before.cancel();
    let err = model
        .complete(&short_request("Hello"), &before)
        .await
        .expect_err("cancelled before it started");
    assert_eq!(err, LlmError::Cancelled);

    // Cancel once the first token is out; a long answer would take many seconds.
    let cancel = CancellationToken::new();
    let request = ChatRequest {
        max_output_tokens: 2000,
        ..short_request("Write a long story about a lighthouse keeper, in many chapters.")
    };
    let mut config = config();
    config.sampling.ignore_eos = true;
    let long = LocalModel::load(model.path(), config).expect("cached weights");
    // With end-of-text ignored, only the cancel can end this before 2,000 tokens: an `Ok` here
    // would mean it was not honoured.
    let trigger = cancel.clone();
    let err = long
        .stream(&request, &cancel, &move |_| trigger.cancel())
        .await
        .expect_err("cancelled while generating");
    assert_eq!(err, LlmError::Cancelled);

    // The queue was released: the next request runs.
    model
        .complete(&short_request("Hello"), &CancellationToken::new())
        .await
        .expect("the model still answers after a cancel");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_requests_share_the_weights_and_queue() {
    let Some(path) = test_model() else { return };
    let a = LocalModel::load(&path, config()).expect("load");
    let b = LocalModel::load(&path, config()).expect("load again");
    assert!(LocalModel::is_loaded(&path));
    let cancel = CancellationToken::new();
    let (yes, no) = (short_request("Say yes."), short_request("Say no."));
    let (ra, rb) = tokio::join!(
        a.generate(&yes, &cancel, &|_| {}),
        b.generate(&no, &cancel, &|_| {}),
    );
    let (ra, sa) = ra.expect("first answer");
    let (rb, sb) = rb.expect("second answer");
    assert!(!ra.text.is_empty() && !rb.text.is_empty());
    // One ran while the other waited its turn.
    assert!(
        sa.queue_seconds.max(sb.queue_seconds) > 0.05,
        "{sa:?} {sb:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_larger_than_the_context_is_refused_with_sizes() {
    let Some(path) = test_model() else { return };
    let small = LocalModel::load(
        &path,
        LocalConfig {
            context_tokens: 64,
            ..config()
        },
    )
    .expect("load");
    let err = small
        .complete(
            &short_request(&"the quick brown fox jumps over the lazy dog ".repeat(40)),
            &CancellationToken::new(),
        )
        .await
        .expect_err("too long");
    match &err {
        LlmError::ContextTooLong { message } => {
            assert!(message.contains("64 tokens"), "{message}")
        }
        other => panic!("expected ContextTooLong, got {other:?}"),
    }
    assert!(!err.is_retryable());
}

#[test]
fn a_missing_or_invalid_file_is_not_configured() {
    let err =
        LocalModel::load("/nonexistent/model.gguf", LocalConfig::default()).expect_err("no file");
    assert_eq!(err.class(), "not_configured");
    assert!(err.to_string().contains("/nonexistent/model.gguf"), "{err}");

    let dir = tempfile::tempdir().expect("temp dir");
    let junk = dir.path().join("junk.gguf");
    std::fs::write(&junk, b"this is not a GGUF file").expect("write");
    let err = LocalModel::load(&junk, LocalConfig::default()).expect_err("not a model");
    assert_eq!(err.class(), "not_configured", "{err}");
}

/// The AI squash as the engine runs it: the compact prompt, one call, the output checks and
/// the quality report. SmolLM2 is too weak to squash well, so the check may reject its answer;
/// what must hold is that every step runs and a rejection is a classified problem.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn squashes_messages_through_the_prompt_and_checks() {
    let Some(model) = load() else { return };
    let conversation = ConversationId::new();
    let messages = [
        Message::text(
            conversation,
            Role::User,
            "The build fails with error E0432: unresolved import `crate::store::Pool` in \
             src/main.rs.",
        ),
        Message::text(
            conversation,
            Role::Assistant,
            "The module was renamed: `Pool` now lives in `crate::db::Pool`. I changed the \
             import in src/main.rs and `cargo build` passes.",
        ),
    ]
    .map(|m| m.expect("valid message"));
    let refs: Vec<&Message> = messages.iter().collect();
    let prompt = build_squash_prompt(&refs, None, PromptStyle::Compact);
    let request = ChatRequest {
        system: prompt.system.clone(),
        temperature: Some(0.3),
        max_output_tokens: 32,
        ..ChatRequest::new(vec![ChatMessage::user(prompt.user.clone())])
    };
    let response = model
        .complete(&request, &CancellationToken::new())
        .await
        .expect("a local answer");
    assert!(response.usage.is_some_and(|u| u.output_tokens <= 32));
    let input = messages_text(&refs);
    match check_output(&input, &response.text) {
        Ok(text) => {
            let report = quality_report(&input, &text);
            assert!(report.output_chars > 0);
        }
        Err(problem) => assert!(!problem.class().is_empty()),
    }
}

/// The trait's token count is the model's own tokenizer (no special tokens), so callers that
/// hold any `ChatModel` can use it where it exists.
#[test]
fn the_trait_counts_with_the_models_tokenizer() {
    let Some(model) = load() else { return };
    let text = "cargo build fails: error E0432 unresolved import `crate::store::Pool`";
    let through_trait = |t: &str| ChatModel::count_tokens(model.as_ref(), t);
    let counted = through_trait(text).expect("the embedded model has a tokenizer");
    assert_eq!(counted, model.count_tokens(text) as u64);
    assert!(counted > 10 && counted < text.len() as u64, "{counted}");
    assert_eq!(through_trait(""), Some(0));
}
