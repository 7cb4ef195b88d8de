use squash_app::{origin_words, ConversationService};

use crate::cli::ThreadCmd;
use crate::output::Output;

pub async fn undo(
    service: &ConversationService,
    out: &Output,
    conversation: &str,
) -> anyhow::Result<()> {
    let id = service.resolve_conversation(conversation).await?;
    let conv = service.undo(id).await?;
    switched(service, out, conv).await
}

pub async fn redo(
    service: &ConversationService,
    out: &Output,
    conversation: &str,
) -> anyhow::Result<()> {
    let id = service.resolve_conversation(conversation).await?;
    let conv = service.redo(id).await?;
    switched(service, out, conv).await
}

async fn switched(
    service: &ConversationService,
    out: &Output,
    conv: squash_core::Conversation,
) -> anyhow::Result<()> {
    let (conv, thread) = service.current_thread_header(conv.id).await?;
    out.emit(
        &serde_json::json!({"conversation": conv, "thread": thread}),
        || {
            format!(
                "now on thread {} ({}, {} messages)",
                thread.id,
                origin_words(&thread.origin, None),
                thread.message_count
            )
        },
    )
}

pub async fn run(
    service: &ConversationService,
    out: &Output,
    cmd: ThreadCmd,
) -> anyhow::Result<()> {
    match cmd {
        ThreadCmd::List { conversation } => {
            let id = service.resolve_conversation(&conversation).await?;
            let history = service.history(id).await?;
            out.emit(&history, || {
                history
                    .iter()
                    .map(|e| {
                        format!(
                            "{}{} {}  {} · {} messages · {}",
                            "  ".repeat(e.depth),
                            if e.is_current { "*" } else { "-" },
                            e.thread.id,
                            e.describe(),
                            e.thread.message_count,
                            e.thread.created_at.format("%Y-%m-%d %H:%M:%S")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        }
        ThreadCmd::Switch {
            conversation,
            thread,
        } => {
            let id = service.resolve_conversation(&conversation).await?;
            let thread = service.resolve_thread(id, &thread).await?;
            let conv = service.switch_thread(id, thread).await?;
            switched(service, out, conv).await
        }
    }
}
