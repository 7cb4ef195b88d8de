use anyhow::bail;
use squash_app::{ConversationService, EditRequest, PartnerPolicy};
use squash_core::render;

use crate::cli::MessageCmd;
use crate::input;
use crate::output::{outcome_json, outcome_text, Output};

pub async fn run(
    service: &ConversationService,
    out: &Output,
    cmd: MessageCmd,
) -> anyhow::Result<()> {
    match cmd {
        MessageCmd::Add {
            conversation,
            role,
            text,
        } => {
            let id = service.resolve_conversation(&conversation).await?;
            let role = role.into();
            let content = input::content(role, text)?;
            let (message, appended) = service.append(id, role, content).await?;
            out.emit(
                &serde_json::json!({"message": message, "thread_id": appended.thread_id,
                    "position": appended.position + 1}),
                || {
                    format!(
                        "added @{} {} ({})",
                        appended.position + 1,
                        message.id,
                        message.role
                    )
                },
            )
        }
        MessageCmd::Edit {
            conversation,
            message,
            text,
        } => {
            let conv = service.resolve_conversation(&conversation).await?;
            let target = service.resolve_message(Some(conv), &message).await?;
            let original = service.message(target).await?;
            let content = input::content(original.role, text)?;
            let outcome = service
                .edit(
                    conv,
                    EditRequest {
                        message: target,
                        content,
                    },
                )
                .await?;
            out.emit(&outcome_json(&outcome), || outcome_text("edited", &outcome))
        }
        MessageCmd::Delete {
            conversation,
            messages,
            strict,
        } => {
            let conv = service.resolve_conversation(&conversation).await?;
            let ids = service.resolve_messages(conv, &messages).await?;
            let outcome = service
                .delete(conv, &ids, PartnerPolicy::strict(strict))
                .await?;
            out.emit(&outcome_json(&outcome), || {
                outcome_text("removed", &outcome)
            })
        }
        MessageCmd::Show {
            message,
            conversation,
        } => {
            let conv = service
                .resolve_conversation_if(conversation.as_deref())
                .await?;
            if message.starts_with('@') && conv.is_none() {
                bail!("{message}: @N references need --conversation");
            }
            let id = service.resolve_message(conv, &message).await?;
            let m = service.message(id).await?;
            out.emit(&m, || {
                format!(
                    "{} · {} · {}{}\n\n{}",
                    m.id,
                    m.role,
                    m.created_at.format("%Y-%m-%d %H:%M:%S"),
                    m.squash_operation_id
                        .map(|o| format!(" · from operation {o}"))
                        .unwrap_or_default(),
                    render::message_text(&m)
                )
            })
        }
    }
}
