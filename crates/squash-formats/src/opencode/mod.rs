//! opencode sessions: its store (`~/.local/share/opencode/opencode.db`, SQLite, since 1.x: tables
//! `session`, `message` and `part`, each message's and part's fields as a JSON `data` column) and
//! the document `opencode export <session>` prints (`{info, messages: [{info, parts}]}`), which
//! `opencode import <file>` reads back.
//!
//! A user message's parts are its text and files; an assistant message is one model step: its
//! parts are `step-start`, `reasoning`, `text`, `tool` (the call and, in its `state`, the
//! result) and `step-finish`. The step becomes an assistant message (reasoning as thinking,
//! the calls) followed by a user message holding the results, as the model APIs have it. Parts
//! that are no content (step boundaries, snapshots, patches) are kept as metadata. A session
//! whose parent is another (a `task` sub-agent) is a sub-agent run.
//!
//! Records: the session, each message and each part, once.

mod convert;
mod store;
#[cfg(test)]
mod tests;
mod write;

pub use store::{find_session, is_opencode_database, read_database};
pub use write::{new_session_id, write, Written, FALLBACK_VERSION};

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::{FormatError, Parsed};

pub const META_KEY: &str = "opencode";

/// One session as the store or an export holds it: its info, its messages' infos and parts.
pub(crate) struct Source {
    pub info: Value,
    pub messages: Vec<(Value, Vec<Value>)>,
}

/// Reads an `opencode export` document.
pub fn parse_document(
    source_name: &str,
    doc: Value,
    content_hash: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let Value::Object(mut doc) = doc else {
        return Err(FormatError::invalid(source_name, "expected a JSON object"));
    };
    let info = doc.remove("info").unwrap_or(Value::Null);
    let Some(Value::Array(list)) = doc.remove("messages") else {
        return Err(FormatError::invalid(
            source_name,
            "expected an opencode export (`info` and a `messages` list)",
        ));
    };
    let mut parsed = Parsed::default();
    let mut messages = Vec::with_capacity(list.len());
    parsed.records.lines += 1;
    for (i, m) in list.into_iter().enumerate() {
        match m {
            Value::Object(mut m) => {
                let info = m.remove("info").unwrap_or(Value::Null);
                let parts = match m.remove("parts") {
                    Some(Value::Array(parts)) => parts,
                    _ => Vec::new(),
                };
                parsed.records.lines += 1 + parts.len();
                messages.push((info, parts));
            }
            _ => {
                parsed.records.lines += 1;
                parsed.skip_message(source_name, i, "not a JSON object");
            }
        }
    }
    let source = Source { info, messages };
    convert::session(source_name, source, content_hash, now, &mut parsed);
    Ok(parsed)
}

/// Whether a parsed document is an `opencode export`: a session `info` and messages with
/// `info` and `parts`.
pub fn looks_like(doc: &Value) -> bool {
    let session = doc
        .get("info")
        .and_then(|i| i.get("id"))
        .and_then(Value::as_str)
        .is_some_and(|id| id.starts_with("ses"));
    let messages = doc
        .get("messages")
        .and_then(Value::as_array)
        .is_some_and(|m| m.iter().all(|m| m.get("parts").is_some()));
    session && messages
}
