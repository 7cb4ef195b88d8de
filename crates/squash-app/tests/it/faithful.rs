//! The faithful squash through the service: a model that drops facts and invents a path gets a
//! repair request, what it still leaves out is appended, what it still invents is cut; the
//! extract needs no model; a selection too large for the window goes in parts; the result's
//! role follows its sources. The demo session (a real-shaped agent run) is the input.

use squash_testkit::on_every_backend;
use std::sync::{Arc, Mutex};

use squash_app::{AppError, SquashEngine, SquashOptions, SquashStage};
use squash_core::ledger::{build_ledger, check_facts};
use squash_core::prompt::{PromptStyle, SquashStyle};
use squash_core::quality::{FallbackCause, InventedOutcome};
use squash_core::{ConversationId, Message, MessageId, Role};
use squash_llm::{ChatModel, ChatPart, FakeModel};
use squash_testkit::fixtures::store_demo;
use squash_testkit::Backend;

async fn demo(b: &Backend) -> (ConversationId, Vec<Message>) {
    store_demo(b, "/tmp/faithful").await
}

/// Messages 2 to 11: the agent's tool run, as `squash demo` selects it.
fn run(messages: &[Message]) -> Vec<MessageId> {
    messages[1..11].iter().map(|m| m.id).collect()
}

fn text_of(part: &ChatPart) -> &str {
    match part {
        ChatPart::Text(t) => t,
        other => panic!("expected text, got {other:?}"),
    }
}

/// Drops most facts and names a file the session never touched.
const FORGETFUL: &str = "The assistant fixed the config tests by editing src/settings.py.";

async fn repair_then_details(b: &Backend) {
    let (conv, messages) = demo(b).await;
    let fake = Arc::new(FakeModel::new());
    fake.push_text(FORGETFUL);
    // The repair keeps the invented path and adds only one fact.
    fake.push_text(format!("{FORGETFUL} It fixed E0425."));
    let done = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &run(&messages), None)
        .await
        .unwrap();
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "one repair request");
    let repair = text_of(&requests[1].messages[2].content[0]);
    assert!(repair.contains("leaves out these facts"), "{repair}");
    assert!(repair.contains("crates/config/src/lib.rs"), "{repair}");
    assert!(
        repair.contains("src/settings.py"),
        "the invented term is named: {repair}"
    );
    // The previous answer is in the conversation the repair continues.
    assert_eq!(text_of(&requests[1].messages[1].content[0]), FORGETFUL);

    let text = &done.result.text;
    assert!(!text.contains("src/settings.py"), "{text}");
    // The facts it still leaves out follow as lines of their own, each once.
    assert!(text.contains("\n- "), "{text}");
    // Every fact of the ledger is in the applied text, checked independently of the report.
    let refs: Vec<&Message> = messages[1..11].iter().collect();
    let ledger = build_ledger(&refs);
    assert!(check_facts(&ledger, text).missing.is_empty(), "{text}");
    let facts = done.result.report.facts.as_ref().unwrap();
    assert_eq!(facts.total, ledger.len());
    assert!(facts.missing.is_empty());
    assert!(!facts.restored.is_empty());
    assert!(facts
        .invented
        .iter()
        .any(|t| t.term == "src/settings.py" && t.outcome == InventedOutcome::SentenceDropped));
    assert_eq!(done.result.report.repairs, 1);
    // An agent run becomes the assistant's message.
    assert_eq!(done.result.role, Role::Assistant);
    let stored = b
        .service
        .message(done.outcome.message.unwrap().id)
        .await
        .unwrap();
    assert_eq!(stored.role, Role::Assistant);
    assert!(squash_testkit::violations(b, conv).await.is_empty());
}

#[tokio::test]
async fn a_forgetful_inventive_model_is_repaired_and_completed() {
    on_every_backend!(repair_then_details);
}

#[tokio::test]
async fn a_repair_that_works_is_applied_as_is() {
    let b = squash_testkit::sqlite().await;
    let (conv, messages) = demo(&b).await;
    let refs: Vec<&Message> = messages[1..11].iter().collect();
    let ledger = build_ledger(&refs);
    // The repaired answer states every fact in its own words (the ledger's lines, joined).
    let complete: String = ledger
        .facts
        .iter()
        .map(|f| f.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    let fake = Arc::new(FakeModel::new());
    fake.push_text(FORGETFUL);
    fake.push_text(complete.clone());
    let done = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &run(&messages), None)
        .await
        .unwrap();
    assert_eq!(done.result.text, complete);
    let facts = done.result.report.facts.unwrap();
    assert_eq!(facts.kept.len(), facts.total);
    assert!(facts.restored.is_empty());
    assert_eq!(facts.invented.len(), 1);
    assert_eq!(facts.invented[0].outcome, InventedOutcome::RemovedByRepair);
}

async fn extract_needs_no_model(b: &Backend) {
    let (conv, messages) = demo(b).await;
    let before = b.service.current_thread(conv).await.unwrap().messages.len();
    let engine = SquashEngine::offline(b.service.clone()).with_options(SquashOptions {
        style: SquashStyle::Extract,
        ..SquashOptions::default()
    });
    let done = engine
        .squash_and_apply(conv, &run(&messages), None)
        .await
        .unwrap();
    assert!(done.result.model.is_none() && done.result.prompts.is_empty());
    // One note, each fact once: the command's failures, the edit between them and the run
    // that passed are one line, and no other line names the edited file again.
    let text = &done.result.text;
    let history: Vec<&str> = text.lines().filter(|l| l.contains("E0425")).collect();
    assert_eq!(history.len(), 1, "{text}");
    assert!(
        history[0].contains("→ edited crates/config/src/lib.rs →"),
        "{text}"
    );
    assert!(
        !text.contains("- Files:"),
        "the edit is told in the history: {text}"
    );
    let facts = done.result.report.facts.as_ref().unwrap();
    assert_eq!(facts.kept.len(), facts.total);
    let op = done.outcome.operation.unwrap();
    assert_eq!(op.kind.style(), Some(SquashStyle::Extract));
    assert!(
        !op.kind.performed_by_agent() && op.kind.prompt().is_none() && op.kind.usage().is_none()
    );
    assert_eq!(b.service.operation(op.id).await.unwrap(), op);
    let after = b.service.current_thread(conv).await.unwrap().messages.len();
    assert_eq!(after, before - 9);
    b.service.undo(conv).await.unwrap();
    assert_eq!(
        b.service.current_thread(conv).await.unwrap().messages.len(),
        before
    );
    // A model style without a model is a clear error that changes nothing.
    let err = SquashEngine::offline(b.service.clone())
        .squash_messages(conv, &run(&messages), None)
        .await
        .unwrap_err();
    assert_eq!(err.code(), squash_app::ErrorCode::NotConfigured, "{err}");
}

#[tokio::test]
async fn the_extract_needs_no_model() {
    on_every_backend!(extract_needs_no_model);
}

#[tokio::test]
async fn a_selection_larger_than_the_window_goes_in_parts() {
    let b = squash_testkit::sqlite().await;
    let (conv, messages) = demo(&b).await;
    let fake = Arc::new(FakeModel::new());
    for i in 0..3 {
        fake.push_text(format!(
            "Part {i}: the assistant worked on crates/config/src/lib.rs."
        ));
    }
    fake.push_text("The assistant fixed crates/config/src/lib.rs; E0425 along the way.");
    let stages = Arc::new(Mutex::new(Vec::new()));
    let seen = stages.clone();
    let engine = SquashEngine::new(b.service.clone(), fake.clone())
        .with_options(SquashOptions {
            // Room for two or three of these messages at a time.
            context_window: Some(1_000),
            max_output_tokens: 200,
            repair_rounds: Some(0),
            ..SquashOptions::default()
        })
        .with_stages(Arc::new(move |s: SquashStage| {
            seen.lock().unwrap().push(s);
        }));
    let done = engine
        .squash_and_apply(conv, &run(&messages), None)
        .await
        .unwrap();
    let stages = stages.lock().unwrap().clone();
    let parts = stages
        .iter()
        .filter(|s| matches!(s, SquashStage::Part { .. }))
        .count();
    assert!(parts >= 2, "{stages:?}");
    assert_eq!(stages.last(), Some(&SquashStage::Combining));
    let requests = fake.requests();
    assert_eq!(requests.len(), parts + 1);
    // No part separates a call from its result: every toolu id sent with its result.
    for r in &requests[..parts] {
        let sent = text_of(&r.messages[0].content[0]);
        assert!(sent.len() < 4_000, "each part fits");
    }
    let op = done.outcome.operation.unwrap();
    let prompt = op.kind.prompt().unwrap();
    assert!(prompt.contains(&format!("=== prompt 1 of {}: part 1 of {parts}", parts + 1)));
    assert!(prompt.contains("combine the parts"));
    // The combined answer is checked against the whole ledger; with what it lacks added, it is
    // within the size limit of this selection, so it is what is applied.
    assert!(
        done.result.report.fallback.is_none(),
        "{:?}",
        done.result.report.fallback
    );
    let answers: Vec<String> = (0..3)
        .map(|i| format!("Part {i}: the assistant worked on crates/config/src/lib.rs."))
        .chain(["The assistant fixed crates/config/src/lib.rs; E0425 along the way.".to_owned()])
        .collect();
    let gist = done.result.text.split("\n\n").next().unwrap();
    assert_eq!(gist, answers[parts], "the combined answer leads the note");
    let size = done.result.report.size.unwrap();
    assert!(!size.exceeded(), "{size:?}");
    let refs: Vec<&Message> = messages[1..11].iter().collect();
    assert!(check_facts(&build_ledger(&refs), &done.result.text)
        .missing
        .is_empty());
}

#[tokio::test]
async fn the_brief_prompt_asks_only_for_the_connecting_prose() {
    let b = squash_testkit::sqlite().await;
    let (conv, messages) = demo(&b).await;
    let fake = Arc::new(FakeModel::new());
    fake.push_text("The assistant made cargo test pass again for the config crate.");
    let engine = SquashEngine::new(b.service.clone(), fake.clone()).with_options(SquashOptions {
        prompt_style: Some(PromptStyle::Brief),
        style: SquashStyle::Structured,
        ..SquashOptions::default()
    });
    let done = engine
        .squash_messages(conv, &run(&messages), None)
        .await
        .unwrap();
    let request = &fake.requests()[0];
    assert_eq!(request.max_output_tokens, 160);
    let sent = text_of(&request.messages[0].content[0]);
    assert!(sent.contains("Facts already recorded"), "{sent}");
    assert!(sent.contains("- Edited crates/config/src/lib.rs"), "{sent}");
    assert!(request
        .system
        .as_deref()
        .unwrap()
        .contains("The assistant runs every tool"));
    // Structured from the brief prompt: the prose as the gist of one note, above the facts
    // it does not state, each once — within the size limit on this selection.
    let size = done.report.size.unwrap();
    assert!(!size.exceeded(), "{size:?}");
    assert!(done.report.fallback.is_none(), "{:?}", done.report.fallback);
    assert!(done
        .text
        .starts_with("The assistant made cargo test pass again for the config crate.\n\n- "));
    assert_eq!(
        done.text.lines().filter(|l| l.contains("E0425")).count(),
        1,
        "{}",
        done.text
    );
    assert_eq!(done.prompt_style(), Some(PromptStyle::Brief));
}

#[tokio::test]
async fn the_result_role_follows_its_sources_unless_overridden() {
    let b = squash_testkit::sqlite().await;
    let (conv, messages) = demo(&b).await;
    let fake = Arc::new(FakeModel::new());
    fake.push_text(
        "The user asked to fix cargo test for `timeout_secs` with a default of 30; done.",
    );
    let model: Arc<dyn ChatModel> = fake.clone();
    // With the user's request in the selection, the result stays a user message.
    let ids: Vec<MessageId> = messages[0..3].iter().map(|m| m.id).collect();
    let engine = SquashEngine::new(b.service.clone(), model.clone()).with_options(SquashOptions {
        repair_rounds: Some(0),
        ..SquashOptions::default()
    });
    let result = engine.squash_messages(conv, &ids, None).await.unwrap();
    assert_eq!(result.role, Role::User);
    fake.push_text("The assistant ran the failing test.");
    let engine = SquashEngine::new(b.service.clone(), model).with_options(SquashOptions {
        repair_rounds: Some(0),
        role: Some(Role::User),
        ..SquashOptions::default()
    });
    let result = engine
        .squash_messages(conv, &run(&messages), None)
        .await
        .unwrap();
    assert_eq!(result.role, Role::User);
}

// ---- the size limit ---------------------------------------------------------------------------

async fn size_limit(b: &Backend) {
    let (conv, messages) = demo(b).await;
    let selection = run(&messages);
    // An answer that states every fact and invents nothing, but at length: each fact of the
    // run's ledger, then sentences that say nothing new (varied, so that it does not read as a
    // loop).
    let refs: Vec<&Message> = messages[1..11].iter().collect();
    let facts = build_ledger(&refs).facts;
    let told = facts.iter().map(|f| format!("We note that {}.", f.text));
    let (who, did, what, how) = (
        [
            "The work",
            "That step",
            "This part",
            "The change",
            "Each try",
        ],
        [
            "went",
            "moved",
            "ran",
            "carried on",
            "came along",
            "proceeded",
            "continued",
        ],
        [
            "slowly",
            "quietly",
            "as planned",
            "without fuss",
            "in order",
            "with care",
            "at length",
            "step by step",
            "as before",
            "in turn",
            "once more",
        ],
        [
            "today",
            "then",
            "again",
            "after that",
            "for a while",
            "at first",
            "in the end",
            "later",
            "meanwhile",
            "before long",
            "soon",
            "eventually",
            "at last",
        ],
    );
    let filler = (0..12).map(|i| {
        format!(
            "{} {} {} {}.",
            who[i % who.len()],
            did[i % did.len()],
            what[i % what.len()],
            how[i % how.len()]
        )
    });
    let retold: Vec<String> = told.chain(filler).collect();
    let fake = Arc::new(FakeModel::new());
    // Asked for a repair, it says the same again.
    fake.push_text(retold.join("\n\n"));
    fake.push_text(retold.join("\n\n"));
    let done = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &selection, None)
        .await
        .unwrap();
    let result = &done.result;
    let size = result
        .report
        .size
        .expect("a selection of 200 tokens or more has a limit");
    assert!(size.selection_tokens >= 200, "{size:?}");
    assert_eq!(size.limit_tokens, size.selection_tokens * 40 / 100);
    // The facts alone are shorter than the answer: they are applied, within the limit.
    let answer_tokens = squash_core::tokens::estimate_tokens(&retold.join("\n\n"));
    assert!(size.applied_tokens < answer_tokens, "{size:?}");
    assert_eq!(result.style, SquashStyle::Extract, "{}", result.text);
    assert_eq!(
        result.report.render().contains("over the size limit"),
        size.exceeded()
    );
    let fallback = result
        .report
        .fallback
        .as_ref()
        .expect("the extract stands in");
    assert_eq!(
        fallback.cause,
        FallbackCause::TooLong,
        "{}",
        fallback.reason
    );
    assert!(fallback.reason.contains("over 40%"), "{}", fallback.reason);
    let facts = result.report.facts.as_ref().unwrap();
    assert_eq!(facts.stated(), facts.total, "{facts:?}");
    // What was applied is what the thread holds, recorded as the AI squash it was asked as.
    let thread = b.service.current_thread(conv).await.unwrap();
    assert!(thread
        .messages
        .iter()
        .any(|m| squash_core::render::message_text(m) == format!("{} [ref 1]", result.text)));
    assert!(done.outcome.operation.unwrap().kind.performed_by_agent());
}

#[tokio::test]
async fn an_answer_over_the_size_limit_gives_way_to_the_facts() {
    on_every_backend!(size_limit);
}

async fn small_selection(b: &Backend) {
    let (conv, _) = demo(b).await;
    // Two short messages that no note shortens: a squash of them says so and applies nothing.
    let (ask, _) = b
        .service
        .append(
            conv,
            Role::User,
            vec![squash_core::ContentItem::text_for(Role::User, "ok?")],
        )
        .await
        .unwrap();
    let (reply, _) = b
        .service
        .append(
            conv,
            Role::Assistant,
            vec![squash_core::ContentItem::text_for(Role::Assistant, "Yes.")],
        )
        .await
        .unwrap();
    let before = b.service.current_thread(conv).await.unwrap();
    let fake = Arc::new(FakeModel::new());
    fake.push_text("The user asked whether it was ok, and the assistant said yes.");
    fake.push_text("The user asked whether it was ok, and the assistant said yes.");
    let err = b
        .service
        .squash_messages_with_ai(fake.clone(), conv, &[ask.id, reply.id], None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, squash_app::SquashError::NothingShorter { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("nothing was applied"), "{err}");
    let after = b.service.current_thread(conv).await.unwrap();
    assert_eq!(after.thread.id, before.thread.id, "nothing applied");
    // The extract is held to the same rule.
    let engine = SquashEngine::offline(b.service.clone()).with_options(SquashOptions {
        style: SquashStyle::Extract,
        ..SquashOptions::default()
    });
    let err = engine
        .squash_messages(conv, &[ask.id, reply.id], None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, squash_app::SquashError::NothingShorter { .. }),
        "{err}"
    );
}

#[tokio::test]
async fn a_selection_no_note_shortens_is_left_as_it_is() {
    on_every_backend!(small_selection);
}

#[tokio::test]
async fn a_note_counts_the_recall_mark_it_is_applied_with() {
    let b = squash_testkit::sqlite().await;
    let (conv, _) = demo(&b).await;
    let mut ids = Vec::new();
    // Every clause of both messages is a fact, so the note is their text under "User:".
    for (role, text) in [
        (
            Role::User,
            "Use port 8443 for the admin API and 9090 for metrics.",
        ),
        (
            Role::Assistant,
            "Changed: the admin API listens on 8443, metrics on 9090.",
        ),
    ] {
        let (m, _) = b
            .service
            .append(
                conv,
                role,
                vec![squash_core::ContentItem::text_for(role, text)],
            )
            .await
            .unwrap();
        ids.push(m.id);
    }
    let before = b.service.current_thread(conv).await.unwrap();
    let engine = SquashEngine::offline(b.service.clone()).with_options(SquashOptions {
        style: SquashStyle::Extract,
        ..SquashOptions::default()
    });
    let err = engine.squash_and_apply(conv, &ids, None).await.unwrap_err();
    // The note alone is shorter than the two messages; with the " [ref N]" the applied
    // message ends with, it is not, so nothing is applied.
    let squash_app::SquashError::NothingShorter {
        selection_tokens,
        shortest_tokens,
    } = err
    else {
        panic!("{err}");
    };
    let mark = squash_core::recall::mark_tokens();
    assert!(
        shortest_tokens >= selection_tokens,
        "{shortest_tokens} {selection_tokens}"
    );
    assert!(
        shortest_tokens - mark < selection_tokens,
        "{shortest_tokens} {selection_tokens}"
    );
    let after = b.service.current_thread(conv).await.unwrap();
    assert_eq!(after.thread.id, before.thread.id, "nothing applied");
}
