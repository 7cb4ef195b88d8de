//! `squash chat`: one chat turn, the reply streamed as it arrives.

use std::io::Write;

use clap::Args;
use squash_app::{ChatOptions, ConversationService, SquashOptions};

use crate::commands::ai::{cancel_on_ctrl_c, ModelArgs};
use crate::output::{usage_text, Output};
use crate::remedy::failure;

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
    args: ChatArgs,
) -> anyhow::Result<()> {
    let conv = service.resolve_conversation(&args.conversation).await?;
    let model = args.model.model().await?;
    let defaults = SquashOptions::from_env().map_err(failure)?;
    let options = ChatOptions {
        system: args.system.clone(),
        default_context_window: defaults.default_context_window,
        context_window: args.model.context_window,
        ..ChatOptions::default()
    };
    let cancel = cancel_on_ctrl_c();
    let print_delta = |delta: &str| {
        if !out.is_json() {
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
    if !out.is_json() {
        crate::output::print_line("")?;
    }
    let turn = turn.map_err(failure)?;
    if out.is_json() {
        return out.emit(&serde_json::json!(turn), String::new);
    }
    eprintln!(
        "({} ({}) · {} · {:.1} s · stored as {})",
        turn.model,
        turn.provider,
        usage_text(turn.usage),
        turn.duration.as_secs_f64(),
        turn.assistant.id
    );
    Ok(())
}
