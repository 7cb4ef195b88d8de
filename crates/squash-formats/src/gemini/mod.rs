//! Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, where
//! `<project>` is the slug `~/.gemini/projects.json` gives the working directory; older versions
//! used the SHA-256 of the directory and wrote one JSON document, `session-*.json`).
//!
//! The JSONL recording is a log the CLI (0.61) folds when it resumes: a header line
//! `{sessionId, projectHash, startTime, lastUpdated, kind}`, then message records `{id, timestamp,
//! type: user|gemini|info|warning|error, content, thoughts, tokens, model, toolCalls}` — a
//! record whose id was seen replaces the earlier one in place (a model turn is written once
//! when its text arrives and again with its tool calls) — metadata updates `{"$set": {...}}`
//! (a `$set` of `messages` replaces the whole list: a compression), and `{"$rewindTo": id}`,
//! which drops that message and everything after it.
//!
//! Every state the log passes through before a rewind or a replacement becomes a thread of its
//! own, and the final state the current thread derived from it, so that what was rewound stays
//! reachable. A model turn becomes an assistant message (thoughts as thinking, tool calls), and
//! the results of its calls, recorded on the calls, the user message after it; the user
//! records of `functionResponse` parts the CLI writes beside them hold the same results and
//! are kept as metadata. Info, warning and error records are system messages.
//!
//! [`write`] writes a thread back as a recording that `gemini --resume <id>` accepts.

mod convert;
mod fold;
#[cfg(test)]
mod tests;
mod write;

pub use write::{project_hash, session_path, write};

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::{FormatError, Parsed};

pub const META_KEY: &str = "gemini";

/// Reads a recording held in memory: JSON lines, or the older single document.
pub fn parse_str(
    source_name: &str,
    text: &str,
    content_hash: &str,
    now: DateTime<Utc>,
) -> Result<Parsed, FormatError> {
    let mut log = fold::Log::new(source_name, now);
    match legacy_document(text) {
        Some(doc) => log.legacy(doc),
        None => {
            for (i, line) in text.lines().enumerate() {
                if !line.trim().is_empty() {
                    log.push_line(i + 1, line);
                }
            }
        }
    }
    Ok(log.finish(content_hash))
}

/// The older recording: one JSON object holding `messages` (it spans many lines, so it is no
/// log of records).
fn legacy_document(text: &str) -> Option<serde_json::Map<String, Value>> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if serde_json::from_str::<Value>(first).is_ok() && text.trim() != first.trim() {
        // A whole record on its first line: a JSON-lines log.
        return None;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(doc)) if doc.get("messages").is_some_and(Value::is_array) => Some(doc),
        _ => None,
    }
}

/// Whether a JSON object is a recording's header (or the older whole document): it names the
/// session and the project hash.
pub fn is_header(keys: &dyn Fn(&str) -> bool) -> bool {
    keys("sessionId") && keys("projectHash")
}
