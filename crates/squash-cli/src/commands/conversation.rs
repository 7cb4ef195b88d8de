use std::collections::BTreeMap;

use squash_app::{ConversationService, ConversationSummary};
use squash_core::tokens::format_count;
use squash_core::ProjectId;

use crate::cli::ConversationCmd;
use crate::output::{thread_json, thread_text, Output};

pub async fn run(
    service: &ConversationService,
    out: &Output,
    cmd: ConversationCmd,
) -> anyhow::Result<()> {
    match cmd {
        ConversationCmd::New { name, project } => {
            let project = match project {
                Some(p) => p,
                None => std::env::current_dir()?.to_string_lossy().into_owned(),
            };
            let conv = service.create_conversation(&project, &name).await?;
            out.emit(&conv, || {
                format!(
                    "created conversation {} \"{}\" in project {project}",
                    conv.id, conv.display_name
                )
            })
        }
        ConversationCmd::List { project } => {
            let convs = service.conversation_summaries(project.as_deref()).await?;
            let projects = service.projects().await?;
            let path_of = |id| {
                projects
                    .iter()
                    .find(|p| p.id == id)
                    .map(|p| p.path.clone())
                    .unwrap_or_default()
            };
            let json: Vec<_> = convs
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "conversation": s.conversation,
                        "project": path_of(s.conversation.project_id),
                        "message_count": s.message_count,
                        "tokens": s.tokens,
                    })
                })
                .collect();
            out.emit(&json, || list_text(&convs, path_of))
        }
        ConversationCmd::Show {
            conversation,
            thread,
            full,
        } => {
            let id = service.resolve_conversation(&conversation).await?;
            let view = match thread {
                Some(t) => {
                    let thread = service.resolve_thread(id, &t).await?;
                    service.thread_view(thread).await?
                }
                None => service.current_thread(id).await?,
            };
            out.emit(&thread_json(&view), || thread_text(&view, full))
        }
        ConversationCmd::Rename { conversation, name } => {
            let id = service.resolve_conversation(&conversation).await?;
            let conv = service.rename_conversation(id, &name).await?;
            out.emit(&conv, || {
                format!("renamed {} to \"{}\"", conv.id, conv.display_name)
            })
        }
        ConversationCmd::Delete { conversation } => {
            let id = service.resolve_conversation(&conversation).await?;
            let conv = service.conversation(id).await?;
            service.delete_conversation(id).await?;
            out.emit(&serde_json::json!({"deleted": id}), || {
                format!("deleted conversation {id} \"{}\"", conv.display_name)
            })
        }
    }
}

/// Conversations grouped by project, each with its current thread's size.
fn list_text(convs: &[ConversationSummary], path_of: impl Fn(ProjectId) -> String) -> String {
    if convs.is_empty() {
        return "no conversations yet: `squash conversation new NAME` creates one".into();
    }
    let mut grouped: BTreeMap<String, Vec<&ConversationSummary>> = BTreeMap::new();
    for s in convs {
        grouped
            .entry(path_of(s.conversation.project_id))
            .or_default()
            .push(s);
    }
    let mut out = String::new();
    for (path, list) in &grouped {
        out.push_str(&format!("{path}\n"));
        for s in list {
            let c = &s.conversation;
            out.push_str(&format!(
                "  {}  {:>9} tokens  {:>5} msgs  {}  (updated {})\n",
                c.id,
                format_count(s.tokens),
                s.message_count,
                c.display_name,
                c.updated_at.format("%Y-%m-%d %H:%M")
            ));
        }
    }
    out.trim_end().to_owned()
}
