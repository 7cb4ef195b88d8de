//! `squash chat`: one chat turn, the reply streamed as it arrives.

use std::io::Write;

use anyhow::anyhow;
use clap::Args;
use squash_app::providers;
use squash_app::{ChatError, ChatOptions, ConversationService, SquashOptions};
use squash_core::tokens::format_count;

use crate::commands::ai::{cancel_on_ctrl_c, provider_error, squash_error, ModelArgs};
use crate::output::Output;

#[derive(Args, Debug)]
pub struct ChatArgs {
    /// Conversation id, unique id prefix, or exact name.
    pub conversation: String,
    /// Your message.
    pub text: String,
    /// A system prompt for the model.
    #[arg(long)]
    pub system: Option<String>,
    #[command(flatten)]
    pub model: ModelArgs,
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    json: bool,
    args: ChatArgs,
) -> anyhow::Result<()> {
    let conv = service.resolve_conversation(&args.conversation).await?;
    let model =
        providers::model_from_env(args.model.provider.as_deref(), args.model.model.as_deref())
            .await
            .map_err(provider_error)?;
    let defaults = SquashOptions::from_env().map_err(squash_error)?;
    let options = ChatOptions {
        system: args.system.clone(),
        default_context_window: defaults.default_context_window,
        context_window: args.model.context_window,
        ..ChatOptions::default()
    };
    let cancel = cancel_on_ctrl_c();
    let print_delta = |delta: &str| {
        if !json {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(delta.as_bytes());
            let _ = stdout.flush();
        }
    };
    let turn = service
        .chat_turn(
            model.as_ref(),
            conv,
            &args.text,
            &options,
            &cancel,
            &print_delta,
        )
        .await;
    if !json {
        println!();
    }
    let turn = turn.map_err(chat_error)?;
    if json {
        return out.emit(
            &serde_json::json!({
                "conversation_id": turn.conversation_id,
                "thread_id": turn.thread_id,
                "user": turn.user,
                "assistant": turn.assistant,
                "model": turn.model,
                "provider": turn.provider,
                "usage": turn.usage,
                "duration_ms": u64::try_from(turn.duration.as_millis()).unwrap_or(u64::MAX),
                "stop_reason": turn.stop_reason,
            }),
            String::new,
        );
    }
    eprintln!(
        "({} ({}) · {} → {} tokens · {:.1} s · stored as {})",
        turn.model,
        providers::provider_name(turn.provider),
        format_count(turn.usage.input_tokens),
        format_count(turn.usage.output_tokens),
        turn.duration.as_secs_f64(),
        turn.assistant.id
    );
    Ok(())
}

fn chat_error(e: ChatError) -> anyhow::Error {
    match e.hint() {
        Some(hint) => anyhow!("{e}\nhint: {hint}"),
        None => anyhow!(e),
    }
}
