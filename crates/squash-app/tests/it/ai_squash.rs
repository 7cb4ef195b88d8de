//! The AI squash engine and the chat turn, through the service, against a scripted model on
//! every store backend.

use squash_testkit::fixtures::{append_call, append_output, append_text, new_conversation};
use squash_testkit::on_every_backend;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use squash_app::{
    AppError, ChatError, ChatOptions, ErrorCode, PartnerPolicy, ServiceError, SquashEngine,
    SquashError, SquashOptions,
};
use squash_core::prompt::{PromptStyle, SquashStyle};
use squash_core::tokens::format_count;
use squash_core::{render, ContentItem, ConversationId, MessageId, RecallRef, Role};
use squash_llm::{
    chat_messages_from_domain, CancellationToken, ChatModel, ChatPart, ChatRole, FakeModel,
    FakeReply, LlmError, ProviderKind,
};
use squash_store::StoreStats;
use squash_testkit::Backend;

/// A long message, so that any reasonable squash is shorter.
fn long_text(n: usize) -> String {
    format!(
        "Message {n}: we looked into the failing build again. The compiler reports error E0308 \
         (mismatched types) in parse_config at src/config.rs:42, and after some discussion we \
         agreed that the value should be a u32 rather than a string, which the caller expects."
    )
}

/// A conversation of `n` alternating user/assistant messages; returns it and the ids.
async fn conversation(b: &Backend, n: usize) -> (ConversationId, Vec<MessageId>) {
    let conv = new_conversation(&b.service, "/tmp/ai-squash", "AI squash").await;
    let mut ids = Vec::new();
    for i in 0..n {
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        let (m, _) = b
            .service
            .append(
                conv.id,
                role,
                vec![ContentItem::text_for(role, long_text(i))],
            )
            .await
            .unwrap();
        ids.push(m.id);
    }
    (conv.id, ids)
}

async fn links(b: &Backend, conv: ConversationId) -> Vec<MessageId> {
    b.service.current_links(conv).await.unwrap().links
}

/// Row counts without the on-disk size, which is no business of a read.
async fn counts(b: &Backend) -> StoreStats {
    StoreStats {
        bytes: 0,
        ..b.store.stats().await.unwrap()
    }
}

const SUMMARY: &str =
    "Fixed E0308 in parse_config (src/config.rs:42): the value is a u32 rather than a string, which the caller expects.";

// ---- the end-to-end story -----------------------------------------------------------------------

async fn ai_squash_end_to_end(b: &Backend) {
    let (conv, ids) = conversation(b, 6).await;
    let original = links(b, conv).await;
    let fake = Arc::new(FakeModel::new());
    fake.push_text(SUMMARY);
    fake.push_text(format!("{SUMMARY} (again)"));
    let model: Arc<dyn ChatModel> = fake.clone();

    // Non-contiguous, selected out of order.
    let squash = b
        .service
        .squash_messages_with_ai(
            model.clone(),
            conv,
            &[ids[3], ids[1]],
            Some("Keep the error code."),
        )
        .await
        .unwrap();
    let result = &squash.result;
    let outcome = &squash.outcome;
    assert_eq!(result.text, SUMMARY);
    assert_eq!(result.sources, vec![ids[1], ids[3]], "thread order");
    assert_eq!(result.model.as_deref(), Some("fake-model"));
    assert_eq!(result.provider, Some(ProviderKind::Fake));

    // The request: the spec's prompt, temperature 0.3, 4096 output tokens, one user turn.
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let req = &requests[0];
    assert_eq!(req.temperature, Some(0.3));
    assert_eq!(req.max_output_tokens, 4096);
    assert_eq!(req.system, None);
    assert_eq!(req.messages.len(), 1);
    assert_eq!(req.messages[0].role, ChatRole::User);
    let ChatPart::Text(sent) = &req.messages[0].content[0] else {
        panic!("the prompt is text");
    };
    assert!(sent.contains("<messages_to_squash>"), "{sent}");
    assert!(sent.contains("<additional_instructions>"), "{sent}");
    assert!(sent.contains("Keep the error code."));
    assert!(sent.contains("Message 1:") && sent.contains("Message 3:"));
    assert!(!sent.contains("Message 2:"), "only the selection is sent");

    // The record: prompt exactly as sent, model, provider, instructions, usage, duration.
    let op = outcome.operation.clone().unwrap();
    assert!(op.kind.performed_by_agent());
    assert_eq!(op.kind.prompt(), Some(sent.as_str()));
    assert_eq!(op.kind.model(), Some("fake-model"));
    assert_eq!(op.kind.provider().map(|p| p.as_str()), Some("fake"));
    assert_eq!(op.kind.custom_instructions(), Some("Keep the error code."));
    assert_eq!(op.source_message_ids, vec![ids[1], ids[3]]);
    assert!(op.kind.usage().is_some_and(|u| u.input_tokens > 0));
    assert!(op.kind.duration_ms().is_some());
    let stored_op = b.service.operation(op.id).await.unwrap();
    assert_eq!(stored_op, op, "the record round-trips");

    // The result message points at its operation; the thread has the expected order.
    let message = outcome.message.clone().unwrap();
    assert_eq!(message.squash_operation_id, Some(op.id));
    // A run of the assistant's messages reads as the assistant's own account.
    assert_eq!(message.role, Role::Assistant);
    // The text carries the reference recall finds the sources by.
    assert_eq!(op.recall_ref, RecallRef::new(1));
    assert_eq!(render::message_text(&message), format!("{SUMMARY} [ref 1]"));
    // The style and the prompt are recorded (and round-trip through the store, above).
    assert_eq!(op.kind.style(), Some(SquashStyle::Prose));
    assert_eq!(op.kind.prompt_style(), Some(PromptStyle::Spec));
    let facts = result.report.facts.as_ref().expect("a fact report");
    assert!(facts.total > 0 && facts.missing.is_empty() && facts.restored.is_empty());
    assert_eq!(result.report.repairs, 0);
    assert_eq!(
        links(b, conv).await,
        vec![ids[0], message.id, ids[2], ids[4], ids[5]]
    );
    let first_thread = outcome.thread.id;

    // The quality report compares the result with what the model saw.
    assert!(result.report.char_ratio > 0.0 && result.report.char_ratio < 1.0);
    assert!(result.report.kept.iter().any(|t| t.contains("E0308")));
    assert!(!result.report.render().is_empty());

    // Undo restores the original.
    b.service.undo(conv).await.unwrap();
    assert_eq!(links(b, conv).await, original);

    // Re-run: the stored prompt, the recorded model, a further thread.
    let rerun = b.service.rerun_ai_squash(model, op.id).await.unwrap();
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].messages, requests[0].messages, "same prompt");
    assert_eq!(requests[1].model.as_deref(), Some("fake-model"));
    let rerun_op = rerun.outcome.operation.clone().unwrap();
    assert_ne!(rerun_op.id, op.id);
    assert_eq!(rerun_op.kind.prompt(), op.kind.prompt());
    assert_eq!(
        rerun_op.kind.custom_instructions(),
        op.kind.custom_instructions()
    );
    assert_eq!(rerun_op.source_message_ids, op.source_message_ids);
    assert_ne!(rerun.outcome.thread.id, first_thread);
    let rerun_message = rerun.outcome.message.clone().unwrap();
    assert_eq!(
        links(b, conv).await,
        vec![ids[0], rerun_message.id, ids[2], ids[4], ids[5]]
    );
    // The old result stays reachable.
    let old = b.service.thread_view(first_thread).await.unwrap();
    assert!(old.messages.iter().any(|m| m.id == message.id));
    assert_eq!(b.service.history(conv).await.unwrap().len(), 3);
    assert!(squash_testkit::violations(b, conv).await.is_empty());
}

#[tokio::test]
async fn ai_squash_records_provenance_and_undo_and_rerun_work() {
    on_every_backend!(ai_squash_end_to_end);
}

// ---- an append while the model is working ------------------------------------------------------

async fn append_during_call(b: &Backend) {
    let (conv, ids) = conversation(b, 4).await;
    let fake = Arc::new(
        FakeModel::new()
            .with_delay(Duration::from_millis(400))
            .with_reply(FakeReply::Text(SUMMARY.into())),
    );
    let engine = SquashEngine::new(b.service.clone(), fake.clone());
    let selection = vec![ids[0], ids[1]];
    let task = tokio::spawn(async move { engine.squash_and_apply(conv, &selection, None).await });
    // Wait until the request is in flight, then append.
    for _ in 0..200 {
        if !fake.requests().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(fake.requests().len(), 1, "the call is in flight");
    let (late, _) = b
        .service
        .append(
            conv,
            Role::User,
            vec![ContentItem::text_for(Role::User, "and one more thing")],
        )
        .await
        .unwrap();
    let squash = task.await.unwrap().expect("the squash still applies");
    assert!(
        squash.outcome.reapplied >= 1,
        "re-applied on the newer thread"
    );
    let result = squash.outcome.message.unwrap().id;
    assert_eq!(links(b, conv).await, vec![result, ids[2], ids[3], late.id]);
    assert!(squash_testkit::violations(b, conv).await.is_empty());
}

#[tokio::test]
async fn an_append_during_the_call_does_not_fail_the_squash() {
    on_every_backend!(append_during_call);
}

async fn source_removed_during_call(b: &Backend) {
    let (conv, ids) = conversation(b, 4).await;
    let fake = Arc::new(
        FakeModel::new()
            .with_delay(Duration::from_millis(300))
            .with_reply(FakeReply::Text(SUMMARY.into())),
    );
    let engine = SquashEngine::new(b.service.clone(), fake.clone());
    let selection = vec![ids[0], ids[1]];
    let task = tokio::spawn(async move { engine.squash_and_apply(conv, &selection, None).await });
    while fake.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    b.service
        .delete(conv, &[ids[1]], PartnerPolicy::Include)
        .await
        .unwrap();
    let after_delete = links(b, conv).await;
    let ops_before = b.service.operations(conv).await.unwrap().len();
    let err = task.await.unwrap().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Conflict, "{err}");
    assert_eq!(links(b, conv).await, after_delete);
    assert_eq!(b.service.operations(conv).await.unwrap().len(), ops_before);
}

#[tokio::test]
async fn a_source_removed_during_the_call_is_a_conflict() {
    on_every_backend!(source_removed_during_call);
}

// ---- failures change nothing ------------------------------------------------------------------

fn every_llm_error() -> Vec<LlmError> {
    vec![
        LlmError::Auth {
            provider: ProviderKind::Fake,
            message: "bad key".into(),
        },
        LlmError::RateLimited {
            retry_after: Some(Duration::from_secs(3)),
            message: "slow down".into(),
        },
        LlmError::ContextTooLong {
            message: "too long".into(),
        },
        LlmError::BadRequest("nope".into()),
        LlmError::Network("connection reset".into()),
        LlmError::Timeout {
            after: Duration::from_secs(1),
        },
        LlmError::Provider {
            status: Some(529),
            message: "overloaded".into(),
        },
        LlmError::MalformedResponse("not json".into()),
        LlmError::Cancelled,
        LlmError::NotConfigured("no key".into()),
    ]
}

async fn failed_calls_change_nothing(b: &Backend) {
    let (conv, ids) = conversation(b, 4).await;
    let before = counts(b).await;
    let snap = b.service.current_links(conv).await.unwrap();
    let errors = every_llm_error();
    let fake = Arc::new(FakeModel::new());
    for e in &errors {
        fake.push_error(e.clone());
    }
    let mut classes = Vec::new();
    for expected in &errors {
        let err = b
            .service
            .squash_messages_with_ai(fake.clone(), conv, &[ids[0], ids[2]], None)
            .await
            .unwrap_err();
        match &err {
            SquashError::Model(e) => assert_eq!(e, expected),
            other => panic!("expected a model error, got {other}"),
        }
        assert_eq!(err.code(), ErrorCode::ModelError);
        assert_eq!(err.is_retryable(), expected.is_retryable());
        assert!(!err.remedies().is_empty());
        classes.push(err.class().unwrap());
        assert_eq!(
            counts(b).await,
            before,
            "{} changed storage",
            expected.class()
        );
        assert_eq!(b.service.current_links(conv).await.unwrap(), snap);
    }
    assert_eq!(classes.len(), 10);
    assert!(b.service.operations(conv).await.unwrap().is_empty());
}

#[tokio::test]
async fn every_failed_model_call_leaves_storage_unchanged() {
    on_every_backend!(failed_calls_change_nothing);
}

#[tokio::test]
async fn a_cancelled_call_changes_nothing() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 3).await;
    let before = counts(&b).await;
    let fake = Arc::new(
        FakeModel::new()
            .with_delay(Duration::from_secs(30))
            .with_reply(FakeReply::Text(SUMMARY.into())),
    );
    let cancel = CancellationToken::new();
    let engine = SquashEngine::new(b.service.clone(), fake.clone()).with_cancel(cancel.clone());
    let selection = vec![ids[0], ids[1]];
    let task = tokio::spawn(async move { engine.squash_and_apply(conv, &selection, None).await });
    while fake.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    cancel.cancel();
    let err = tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .expect("cancellation is prompt")
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(err, SquashError::Model(LlmError::Cancelled)),
        "{err}"
    );
    assert_eq!(counts(&b).await, before);
}

#[tokio::test]
async fn too_large_input_is_refused_before_any_request() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 8).await;
    let before = counts(&b).await;
    // 4,096 tokens are kept for the answer; the messages need a few hundred more than that.
    let fake = Arc::new(FakeModel::new().with_context_window(4_300));
    fake.push_text(SUMMARY);
    let err = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &ids, None)
        .await
        .unwrap_err();
    let SquashError::TooLarge(too_large) = &err else {
        panic!("expected TooLarge, got {err}");
    };
    let text = err.to_string();
    assert!(text.contains(&format_count(too_large.estimated)), "{text}");
    assert!(text.contains(&format_count(too_large.available)), "{text}");
    assert!(too_large.estimated > too_large.available);
    assert_eq!(too_large.window, 4_300);
    assert_eq!(err.code(), ErrorCode::InputTooLarge);
    assert!(fake.requests().is_empty(), "no request was sent");
    assert_eq!(counts(&b).await, before);

    // The default context window applies to models the table does not know...
    let engine = SquashEngine::new(b.service.clone(), fake.clone()).with_options(SquashOptions {
        default_context_window: Some(200_000),
        ..SquashOptions::default()
    });
    // ...but the provider's own figure caps a model the table knows.
    let capped = engine.clone().with_options(SquashOptions {
        model: Some("gpt-4o".into()),
        ..SquashOptions::default()
    });
    assert!(matches!(
        capped.squash_messages(conv, &ids, None).await,
        Err(SquashError::TooLarge(_))
    ));
    let ok = engine.squash_messages(conv, &ids, None).await.unwrap();
    assert_eq!(ok.context_window, 200_000);
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test]
async fn an_unusable_answer_gets_one_retry_then_the_extract() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 3).await;
    let fake = Arc::new(FakeModel::new());
    // Empty, then only a preamble: both unusable. The user still gets a squash: the extract.
    fake.push_text("   \n ");
    fake.push_text("Here is the compressed message:");
    let done = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &[ids[0], ids[1]], None)
        .await
        .unwrap();
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "one retry");
    let retry = requests[1].messages.last().unwrap();
    let ChatPart::Text(follow) = &retry.content[0] else {
        panic!("text");
    };
    assert!(
        follow.contains("could not be used: the model returned an empty answer"),
        "{follow}"
    );
    let report = &done.result.report;
    let fallback = report.fallback.as_ref().expect("a fallback");
    assert_eq!(fallback.style, SquashStyle::Extract);
    assert!(
        fallback.reason.contains("only a comment"),
        "{}",
        fallback.reason
    );
    assert_eq!(done.result.style, SquashStyle::Extract);
    assert_eq!(report.repairs, 1);
    assert!(done.result.text.contains("E0308"), "{}", done.result.text);
    let op = done.outcome.operation.unwrap();
    assert_eq!(op.kind.style(), Some(SquashStyle::Extract));
    // Both prompts are in the record.
    assert!(op
        .kind
        .prompt()
        .unwrap()
        .contains("=== prompt 2 of 2: repair ==="));

    // An unusable answer followed by a good one: the good one, after one repair.
    fake.push_text("");
    fake.push_text(SUMMARY);
    let (conv, ids) = conversation(&b, 3).await;
    let done = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &[ids[0], ids[1]], None)
        .await
        .unwrap();
    assert_eq!(done.result.report.repairs, 1);
    assert!(done.result.report.fallback.is_none());
    assert!(done.result.text.starts_with(SUMMARY));
}

#[tokio::test]
async fn a_leading_preamble_is_stripped() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 3).await;
    let fake = Arc::new(FakeModel::new());
    fake.push(FakeReply::Deltas(vec![
        "Sure! Here is the compressed message:\n\n".into(),
        "Fixed E0308 in parse_config ".into(),
        "(src/config.rs:42): the value is a u32 rather than a string, ".into(),
        "which the caller expects.".into(),
    ]));
    let seen = Arc::new(Mutex::new(String::new()));
    let sink = seen.clone();
    let engine = SquashEngine::new(b.service.clone(), fake.clone())
        .with_progress(Arc::new(move |d: &str| sink.lock().unwrap().push_str(d)));
    let squash = engine
        .squash_and_apply(conv, &[ids[2], ids[0]], None)
        .await
        .unwrap();
    assert_eq!(squash.result.text, SUMMARY);
    assert!(
        seen.lock().unwrap().starts_with("Sure! Here is"),
        "deltas streamed"
    );
    let message = squash.outcome.message.unwrap();
    assert_eq!(
        render::message_text(&message),
        format!("{SUMMARY} [ref 1]"),
        "the cleaned text is stored, with its recall reference"
    );
}

#[tokio::test]
async fn tool_partners_join_the_selection() {
    let b = squash_testkit::sqlite().await;
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/ai-tools", "tools").await.id;
    let q = append_text(s, conv, Role::User, &long_text(0)).await;
    let call = append_call(
        s,
        conv,
        "toolu_1",
        "Bash",
        serde_json::json!({"command": "cargo build"}),
    )
    .await;
    let failed = format!("error[E0308]: mismatched types\n{}", long_text(1));
    let result = append_output(s, conv, "toolu_1", "Bash", &failed, true).await;
    let fake = Arc::new(FakeModel::new());
    // The first answer leaves out the command; the repair request names it.
    fake.push_text(SUMMARY);
    fake.push_text(format!("{SUMMARY} `cargo build` had failed with it."));
    let squash = s
        .squash_messages_with_ai(fake.clone(), conv, &[q.id, call.id], None)
        .await
        .unwrap();
    assert_eq!(squash.result.report.repairs, 1);
    let ChatPart::Text(repair) = &fake.requests()[1].messages[2].content[0] else {
        panic!("text repair");
    };
    assert!(repair.contains("Ran `cargo build` → failed"), "{repair}");
    assert!(squash.result.text.contains("`cargo build` had failed"));
    assert_eq!(squash.result.sources, vec![q.id, call.id, result.id]);
    assert_eq!(squash.result.added_partners.len(), 1);
    assert_eq!(squash.result.added_partners[0].message, result.id);
    let ChatPart::Text(sent) = &fake.requests()[0].messages[0].content[0] else {
        panic!("text prompt");
    };
    assert!(
        sent.contains("mismatched types"),
        "the result is in the prompt"
    );
    assert_eq!(
        links(&b, conv).await,
        vec![squash.outcome.message.unwrap().id]
    );

    // Strict mode refuses instead, before asking the model.
    let (conv2, ids2) = conversation(&b, 2).await;
    let (call2, _) = s
        .append(
            conv2,
            Role::Assistant,
            vec![ContentItem::tool_call(
                "toolu_2",
                "Bash",
                serde_json::json!({}),
            )],
        )
        .await
        .unwrap();
    s.append(
        conv2,
        Role::User,
        vec![ContentItem::ToolResult {
            tool_use_id: "toolu_2".into(),
            tool_name: "Bash".into(),
            result: vec![],
            is_error: false,
        }],
    )
    .await
    .unwrap();
    let strict = SquashEngine::new(s.clone(), fake.clone()).with_options(SquashOptions {
        partner_policy: PartnerPolicy::Refuse,
        ..SquashOptions::default()
    });
    let err = strict
        .squash_messages(conv2, &[ids2[1], call2.id], None)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput, "{err}");
    assert_eq!(
        fake.requests().len(),
        2,
        "no request for the refused selection"
    );
}

#[tokio::test]
async fn bad_selections_are_refused_before_any_request() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 3).await;
    let fake = Arc::new(FakeModel::new());
    let one = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &[ids[0]], None)
        .await
        .unwrap_err();
    assert!(
        matches!(one, SquashError::Service(ServiceError::Domain(_))),
        "{one}"
    );
    let unknown = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &[ids[0], MessageId::new()], None)
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), ErrorCode::InvalidInput, "{unknown}");
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn rerun_needs_an_ai_squash_whose_sources_are_current() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 4).await;
    let manual = b
        .service
        .squash_manual(
            conv,
            squash_app::ManualSquashRequest {
                messages: vec![ids[2], ids[3]],
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let fake = Arc::new(FakeModel::new());
    fake.push_text(SUMMARY);
    let err = b
        .service
        .rerun_ai_squash(fake.clone(), manual.operation.unwrap().id)
        .await
        .unwrap_err();
    assert!(matches!(err, SquashError::NotAiSquash(_)), "{err}");

    let ai = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &[ids[0], ids[1]], None)
        .await
        .unwrap();
    // Without an undo the sources are gone from the current thread.
    let err = b
        .service
        .rerun_ai_squash(fake.clone(), ai.outcome.operation.unwrap().id)
        .await
        .unwrap_err();
    let SquashError::SourcesGone { missing, .. } = &err else {
        panic!("expected SourcesGone, got {err}");
    };
    assert_eq!(missing, &vec![ids[0], ids[1]]);
    // The way out is to switch back first; the CLI words it as `squash undo` (its remedy test).
    assert_eq!(
        err.remedies(),
        vec![squash_app::Remedy::SwitchBack],
        "{err}"
    );
    assert_eq!(fake.requests().len(), 1, "no request for a refused re-run");
}

// ---- chat -----------------------------------------------------------------------------------------

#[tokio::test]
async fn a_chat_turn_streams_and_stores_the_reply() {
    let b = squash_testkit::sqlite().await;
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/ai-chat", "chat").await.id;
    // Earlier turns with every kind of content the thread may hold.
    for n in 0..10 {
        let (role, content) = squash_testkit::mixed_content(n);
        s.append(conv, role, content).await.unwrap();
    }
    let fake = Arc::new(FakeModel::new());
    fake.push(FakeReply::Deltas(vec![
        "The failing ".into(),
        "test is test_parse.".into(),
    ]));
    let seen = Mutex::new(Vec::<String>::new());
    let turn = s
        .chat_turn(
            fake.as_ref(),
            conv,
            "Which test fails?",
            &ChatOptions::default(),
            &CancellationToken::new(),
            &|d: &str| seen.lock().unwrap().push(d.to_owned()),
        )
        .await
        .unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        vec!["The failing ", "test is test_parse."]
    );
    assert_eq!(
        render::message_text(&turn.assistant),
        "The failing test is test_parse."
    );
    assert_eq!(turn.assistant.role, Role::Assistant);
    assert_eq!(turn.assistant.reply_to, Some(turn.user.id));
    assert_eq!(turn.model, "fake-model");

    let view = s.current_thread(conv).await.unwrap();
    let n = view.messages.len();
    assert_eq!(n, 12);
    assert_eq!(view.messages[n - 2].id, turn.user.id);
    assert_eq!(view.messages[n - 1].id, turn.assistant.id);

    // What was sent: the thread up to the user's message, converted for the APIs.
    let request = &fake.requests()[0];
    assert_eq!(
        request.messages,
        chat_messages_from_domain(&view.messages[..n - 1])
    );
    let last = request.messages.last().unwrap();
    assert_eq!(last.role, ChatRole::User);
    assert!(request
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .any(|p| matches!(p, ChatPart::ToolUse { .. })));
}

#[tokio::test]
async fn a_failed_or_empty_chat_reply_stores_no_assistant_message() {
    let b = squash_testkit::sqlite().await;
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/ai-chat", "chat").await.id;
    let fake = Arc::new(FakeModel::new());
    fake.push_error(LlmError::Network("reset".into()));
    fake.push_text("  ");
    let noop = |_: &str| {};
    let err = s
        .chat_turn(
            fake.as_ref(),
            conv,
            "hello",
            &ChatOptions::default(),
            &CancellationToken::new(),
            &noop,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, ChatError::Model(LlmError::Network(_))),
        "{err}"
    );
    assert!(err.is_retryable());
    let err = s
        .chat_turn(
            fake.as_ref(),
            conv,
            "hello?",
            &ChatOptions::default(),
            &CancellationToken::new(),
            &noop,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ChatError::EmptyReply), "{err}");
    let roles: Vec<Role> = s
        .current_thread(conv)
        .await
        .unwrap()
        .messages
        .iter()
        .map(|m| m.role)
        .collect();
    assert_eq!(roles, vec![Role::User, Role::User]);

    // A thread too large for the model is refused before the user's message is stored.
    let small = FakeModel::new().with_context_window(4_100);
    let err = s
        .chat_turn(
            &small,
            conv,
            &"word ".repeat(200),
            &ChatOptions::default(),
            &CancellationToken::new(),
            &noop,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ChatError::TooLarge(_)), "{err}");
    assert_eq!(s.current_thread(conv).await.unwrap().messages.len(), 2);
    assert!(small.requests().is_empty());
}

#[tokio::test]
async fn a_provider_that_does_not_count_leaves_the_usage_unknown() {
    let b = squash_testkit::sqlite().await;
    let (conv, ids) = conversation(&b, 4).await;
    let fake = Arc::new(FakeModel::new().without_usage());
    fake.push_text(SUMMARY);
    let squash = b
        .service
        .squash_messages_with_ai(fake, conv, &[ids[1], ids[3]], None)
        .await
        .unwrap();
    assert_eq!(squash.result.usage, None);
    let op = squash.outcome.operation.expect("an operation");
    assert_eq!(op.kind.usage(), None, "unknown, not zero tokens");
    let stored = b.service.operation(op.id).await.unwrap();
    assert_eq!(stored.kind.usage(), None);
}
