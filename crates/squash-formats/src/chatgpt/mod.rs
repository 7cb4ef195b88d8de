//! The ChatGPT data export (`conversations.json` in the archive "Export data" mails): a JSON list
//! of conversations, each a tree of nodes in `mapping` (`{id, message, parent, children}`) with
//! `current_node` naming the leaf the person last saw. Edits and regenerations make a node with
//! several children.
//!
//! Every conversation becomes one conversation: the branch from the root to `current_node` is
//! its current thread and every other branch (to another leaf) a thread derived from it. Each
//! node with a visible message is one message shared by the threads that pass through it; the
//! root, hidden context and empty system nodes are kept in the conversation's metadata. The
//! records of the import report are the mapping's nodes.
//!
//! The list is read one conversation at a time, so memory is bounded by the largest
//! conversation, not by the export.

mod content;
pub(crate) mod conversation;
#[cfg(test)]
mod tests;
pub(crate) mod tree;

use serde_json::Value;

use crate::data_export::{self, DataExport};

pub const META_KEY: &str = "chatgpt";

/// The export's reader, one conversation at a time.
pub(crate) const EXPORT: DataExport = DataExport {
    what: "a ChatGPT export",
    conversation: conversation::read,
};

/// Whether a parsed document is a ChatGPT export: a conversation, or a list whose first element
/// is one, with its `mapping` tree.
pub fn looks_like(doc: &Value) -> bool {
    data_export::first_conversation(doc)
        .and_then(|c| c.get("mapping"))
        .is_some_and(Value::is_object)
}

/// Whether the beginning of a document (too long to parse whole) looks like a ChatGPT export:
/// its first conversation's keys come before the long `mapping`.
pub fn head_looks_like(text: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with('[') || t.starts_with('{'))
        && t.contains("\"mapping\"")
        && (t.contains("\"current_node\"") || t.contains("\"author\""))
}
