use squash_app::{ConversationService, ProvenanceNode};
use squash_core::render;

use crate::cli::ProvenanceArgs;
use crate::output::Output;

pub async fn run(
    service: &ConversationService,
    out: &Output,
    args: ProvenanceArgs,
) -> anyhow::Result<()> {
    let conv = service
        .resolve_conversation_if(args.conversation.as_deref())
        .await?;
    let id = service.resolve_message(conv, &args.message).await?;
    let tree = service.provenance(id).await?;
    out.emit(&tree, || {
        let mut s = String::new();
        write_node(&mut s, &tree, 0);
        s.trim_end().to_owned()
    })
}

fn write_node(s: &mut String, node: &ProvenanceNode, depth: usize) {
    let indent = "  ".repeat(depth);
    s.push_str(&format!(
        "{indent}{} [{}] {}\n",
        node.message.id,
        node.message.role,
        render::preview(&node.message, 70)
    ));
    match &node.operation {
        Some(op) => {
            let how = if op.kind.performed_by_agent() {
                format!(
                    "AI squash by {}{}",
                    op.kind.model().unwrap_or("an unknown model"),
                    op.kind
                        .custom_instructions()
                        .map(|i| format!(" (instructions: {i})"))
                        .unwrap_or_default()
                )
            } else if op.is_edit() {
                "edit".to_owned()
            } else {
                "manual squash".to_owned()
            };
            s.push_str(&format!(
                "{indent}  ← {how}, operation {}, {}{}\n",
                op.id,
                op.created_at.format("%Y-%m-%d %H:%M:%S"),
                op.performed_by
                    .as_deref()
                    .map(|w| format!(", by {w}"))
                    .unwrap_or_default()
            ));
            for src in &node.sources {
                write_node(s, src, depth + 2);
            }
        }
        None if depth == 0 => s.push_str(&format!(
            "{indent}  (original message: no operation created it)\n"
        )),
        None => {}
    }
}
