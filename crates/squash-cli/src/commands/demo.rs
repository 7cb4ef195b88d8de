//! `squash demo`: the main job end to end on whatever model is at hand (the embedded local
//! model on a bare machine). Loads the coding-agent session the project ships, AI-squashes its
//! run of tool calls, prints the result with its quality report, applies it and shows the
//! shorter thread — then how to undo it.

use anyhow::{bail, Context};
use clap::Args;
use serde::Deserialize;
use serde_json::json;
use squash_app::providers::select_model;
use squash_app::{ConversationService, SquashOptions};
use squash_core::{ContentItem, MessageId, Role};
use squash_llm::ProviderKind;

use crate::commands::ai::{end_progress, engine, provider_reason, result_json, result_text};
use crate::output::{thread_text, Output};
use crate::remedy::failure;

/// What the evaluation measured for the default embedded model (QUALITY.md), said once the
/// squash is shown so that a first-time user knows how far to trust it.
const QUALITY_NOTE: &str = "QUALITY.md: on 24 agent-run cases with hand-written key facts, the \
     embedded 0.5B model (this prompt, these checks) kept 137 of 138 facts, applied no invented \
     term and no talk about the squash; the note states each fact once and is never longer than \
     what it replaces (on 36 chats without tools: 356 of 374 facts, in 62-76% of their tokens).";

/// The session: a user asks an agent to fix a failing test; it runs the tests, reads the code,
/// edits, hits a compile error, fixes that, and reports.
const SESSION: &str = include_str!("../../demo/session.json");

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Model provider (default: auto-detected; see `squash doctor`).
    #[arg(long, value_enum, ignore_case = true)]
    pub provider: Option<ProviderKind>,
    /// Model id (for local: a catalog name or a .gguf path).
    #[arg(long)]
    pub model: Option<String>,
    /// Show the squash but do not apply it.
    #[arg(long)]
    pub preview: bool,
}

#[derive(Deserialize)]
struct Session {
    name: String,
    project: String,
    squash: String,
    /// 1-based positions of the messages to squash.
    select: Vec<usize>,
    messages: Vec<SessionMessage>,
}

#[derive(Deserialize)]
struct SessionMessage {
    role: Role,
    content: Vec<ContentItem>,
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: DemoArgs,
) -> anyhow::Result<()> {
    let session: Session = serde_json::from_str(SESSION).context("the demo session is invalid")?;
    let say = |line: &str| {
        if !out.is_json() {
            eprintln!("{line}");
        }
    };

    // The model first: without one there is no demo, and nothing should be stored.
    say("choosing a model…");
    let (model, selection) = select_model(args.provider, args.model.as_deref())
        .await
        .map_err(failure)?;
    let info = model.info();
    say(&format!(
        "model: {} ({}), because {}",
        info.model,
        info.provider,
        provider_reason(&selection)
    ));

    let conversation = service
        .create_conversation(&session.project, &session.name)
        .await?;
    let mut ids: Vec<MessageId> = Vec::with_capacity(session.messages.len());
    for m in session.messages {
        let (message, _) = service.append(conversation.id, m.role, m.content).await?;
        ids.push(message.id);
    }
    let before = service.current_thread(conversation.id).await?;
    say(&format!(
        "loaded \"{}\": {} messages (conversation {})\n",
        session.name,
        ids.len(),
        conversation.id
    ));
    if !out.is_json() {
        crate::output::print_line(&format!("{}\n", thread_text(&before, false)))?;
    }

    let mut selected = Vec::with_capacity(session.select.len());
    for n in &session.select {
        match n.checked_sub(1).and_then(|i| ids.get(i)) {
            Some(id) => selected.push(*id),
            None => bail!("the demo session selects message {n}, which it does not have"),
        }
    }
    say(&format!(
        "AI-squashing {}: @{}",
        session.squash,
        session
            .select
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" @")
    ));
    let options = SquashOptions::from_env().map_err(failure)?;
    let engine = engine(service, Some(model), options, out.is_json());
    let result = engine
        .squash_messages(conversation.id, &selected, None)
        .await;
    end_progress(out.is_json());
    let result = result.map_err(failure)?;
    say(QUALITY_NOTE);
    if args.preview {
        return out.emit(&result_json(&result, None), || {
            format!("{}\n\nnot applied (--preview)", result_text(&result))
        });
    }
    let outcome = engine.apply(&result).await.map_err(failure)?;
    let after = service.current_thread(conversation.id).await?;
    let prefix: String = conversation.id.to_string().chars().take(8).collect();
    out.emit(
        &json!({
            "conversation": conversation.id,
            "selection": selection,
            "squash": result_json(&result, Some(&outcome)),
            "messages_before": before.messages.len(),
            "messages_after": after.messages.len(),
        }),
        || {
            format!(
                "{}\n\napplied: {} → {} messages\n\n{}\n\nundo it:     squash undo {prefix}\n\
                 provenance:  squash provenance {}\nthe web UI:  squash serve --open",
                result_text(&result),
                before.messages.len(),
                after.messages.len(),
                thread_text(&after, false),
                outcome
                    .message
                    .as_ref()
                    .map(|m| m.id.to_string())
                    .unwrap_or_else(|| "@2".into()),
            )
        },
    )
}
