//! What the readers' unit tests share.

use std::path::{Path, PathBuf};

use chrono::Utc;
use squash_core::{ContentItem, Message, Role};

use crate::data_export::DataExport;
use crate::{ImportedConversation, Parsed};

/// The path of the session file `name` in `testdata/sessions/`.
pub(crate) fn session_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/sessions")
        .join(name)
}

/// The bytes of the session file `name` in `testdata/sessions/`.
pub(crate) fn session_bytes(name: &str) -> Vec<u8> {
    let path = session_path(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the session file `name` in `testdata/sessions/`.
pub(crate) fn session_text(name: &str) -> String {
    String::from_utf8(session_bytes(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `doc` read by `export` as the file `name`, every record accounted for.
pub(crate) fn read_export(export: &DataExport, doc: &serde_json::Value, name: &str) -> Parsed {
    let bytes = serde_json::to_vec(doc).expect("a JSON document");
    let parsed = export
        .read(&bytes[..], name, Utc::now(), &mut |_| {})
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    parsed
}

/// Each content item of `messages` as its message's role and a word for its kind.
pub(crate) fn content_kinds(messages: &[Message]) -> Vec<(Role, &'static str)> {
    messages
        .iter()
        .flat_map(|m| {
            m.content.iter().map(move |i| {
                let kind = match i {
                    ContentItem::UserMessage { .. } => "user",
                    ContentItem::AssistantMessage { .. } => "text",
                    ContentItem::ToolCall { .. } => "call",
                    ContentItem::ToolResult { .. } => "result",
                    ContentItem::Thinking { .. } => "thinking",
                    ContentItem::System { .. } => "system",
                    _ => "other",
                };
                (m.role, kind)
            })
        })
        .collect()
}

/// Every message of `conv` is on one of its threads at least.
pub(crate) fn assert_on_threads(conv: &ImportedConversation) {
    for m in &conv.messages {
        assert!(
            conv.threads.iter().any(|t| t.links.contains(&m.id)),
            "{m:?} is on no thread"
        );
    }
}
