//! Generated coding-agent sessions of any length for the benchmarks: the fit evaluation's
//! generator (requests, test runs, builds, file reads and searches; ~90% of the tokens are tool
//! output), which plants unique phrases for ~10,000 messages, so a longer session is made of
//! pieces of that size, each from its own seed, their tool ids made unique.

#[allow(dead_code)]
#[path = "../../examples/fit_eval/generate.rs"]
mod generate;
#[allow(dead_code)]
#[path = "../../examples/fit_eval/names.rs"]
mod names;
#[allow(dead_code)]
#[path = "../../examples/fit_eval/outputs.rs"]
mod outputs;

use std::sync::Arc;

use squash_core::{ContentItem, ConversationId, Message, SourceFormat};
use squash_store::{ConversationStore, ImportBatch, ImportSource};

/// Messages a piece of the generator holds.
pub const PIECE: usize = 10_000;

/// A session of `n` messages of `conv`, from `seed`.
pub fn session(seed: u64, conv: ConversationId, n: usize) -> Vec<Message> {
    let mut out = Vec::new();
    let mut piece = 0;
    while out.len() < n {
        let size = (n - out.len()).min(PIECE);
        for (role, mut content) in generate::session(seed + piece, size).messages {
            if piece > 0 {
                for item in &mut content {
                    match item {
                        ContentItem::ToolCall { id, .. } => *id = format!("p{piece}_{id}"),
                        ContentItem::ToolResult { tool_use_id, .. } => {
                            *tool_use_id = format!("p{piece}_{tool_use_id}")
                        }
                        _ => {}
                    }
                }
            }
            out.push(Message::new(conv, role, content).expect("valid message"));
        }
        piece += 1;
    }
    out
}

/// `messages` of `conv` stored in one import transaction, as `squash import` stores a session;
/// `bench` names the source and the project.
pub async fn store(
    store: &Arc<dyn ConversationStore>,
    bench: &str,
    conv: ConversationId,
    messages: Vec<Message>,
) {
    let n = messages.len();
    let source = ImportSource {
        source_key: format!("bench-{bench}:{conv}"),
        format: SourceFormat::Squash,
        content_hash: "1".into(),
        metadata: None,
    };
    store
        .import_conversation(ImportBatch::single_thread(
            source,
            format!("/bench/{bench}"),
            format!("{bench} bench {n}"),
            conv,
            messages,
        ))
        .await
        .expect("import");
}
