//! Telling a source's format from its first bytes: the first record's keys for the session
//! logs (read by a tolerant scan, so a first line longer than what detection reads still tells),
//! the whole document for chat JSON.

mod keys;

use std::fmt;
use std::io::Read;

use serde_json::Value;
use squash_core::SourceFormat;

use crate::{chatgpt, claude_ai, codex, gemini, opencode, squash_json};
use keys::{scan_keys, KeyScan};

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

/// How much of a source detection looks at.
pub const DETECT_BYTES: u64 = 4 * 1024 * 1024;

/// Keys only Claude Code lines have (whatever their type), in the order Claude Code writes them
/// (the first ones come before the message, however long it is).
const CLAUDE_CODE_KEYS: [&str; 6] = [
    "parentUuid",
    "isSidechain",
    "userType",
    "sessionId",
    "leafUuid",
    "uuid",
];

/// What the start of a source is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    Format(SourceFormat),
    /// JSON of no format Squash reads.
    UnknownJson,
    /// Neither JSON nor a SQLite database.
    NoJson,
    /// Nothing but white space.
    Empty,
}

impl Found {
    pub fn format(self) -> Option<SourceFormat> {
        match self {
            Found::Format(format) => Some(format),
            _ => None,
        }
    }
}

/// What a source of `format` is called in messages ("expected a Codex rollout").
pub fn described(format: SourceFormat) -> &'static str {
    match format {
        SourceFormat::ClaudeCode => "a Claude Code session",
        SourceFormat::Codex => "a Codex rollout",
        SourceFormat::Gemini => "a Gemini CLI recording",
        SourceFormat::Opencode => "an opencode session",
        SourceFormat::ClaudeAi => "a claude.ai export",
        SourceFormat::OpenAi => "an OpenAI-style chat",
        SourceFormat::Anthropic => "an Anthropic-style chat",
        SourceFormat::Gromozeka => "a Gromozeka database",
        SourceFormat::Squash => "a Squash export",
        SourceFormat::ChatGpt => "a ChatGPT export",
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Found::Format(format) => described(*format),
            Found::UnknownJson => "JSON of no format Squash reads",
            Found::NoJson => "no JSON",
            Found::Empty => "an empty file",
        })
    }
}

/// The format of a stream, from its first [`DETECT_BYTES`].
pub fn detect_reader(reader: impl Read) -> std::io::Result<Option<SourceFormat>> {
    Ok(inspect_reader(reader)?.format())
}

/// What a stream is, from its first [`DETECT_BYTES`].
pub fn inspect_reader(reader: impl Read) -> std::io::Result<Found> {
    let mut head = Vec::with_capacity(64 * 1024);
    reader.take(DETECT_BYTES).read_to_end(&mut head)?;
    Ok(inspect(&head))
}

/// What the file at `path` is: [`inspect_reader`] on its first bytes, and for a SQLite database
/// its tables (an opencode store, else a Gromozeka database).
pub fn inspect_path(path: &std::path::Path) -> std::io::Result<Found> {
    let found = inspect_reader(std::fs::File::open(path)?)?;
    if found == Found::Format(SourceFormat::Gromozeka) && opencode::is_opencode_database(path) {
        return Ok(Found::Format(SourceFormat::Opencode));
    }
    Ok(found)
}

/// The format of a document from its beginning (or all of it).
pub fn detect_bytes(head: &[u8]) -> Option<SourceFormat> {
    inspect(head).format()
}

/// What a source is, from its beginning (or all of it).
pub fn inspect(head: &[u8]) -> Found {
    if head.starts_with(SQLITE_MAGIC) {
        return Found::Format(SourceFormat::Gromozeka);
    }
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start();
    if text.is_empty() {
        return Found::Empty;
    }
    if text.starts_with('[') {
        return match serde_json::from_str::<Value>(text) {
            Ok(doc) => Found::Format(json_format(&doc)),
            // A list cut by the detection limit (a JSON document is read whole only later).
            Err(e) if e.is_eof() && chatgpt::head_looks_like(text) => {
                Found::Format(SourceFormat::ChatGpt)
            }
            Err(e) if e.is_eof() && claude_ai::head_looks_like(text) => {
                Found::Format(SourceFormat::ClaudeAi)
            }
            Err(e) if e.is_eof() => Found::Format(SourceFormat::OpenAi),
            Err(_) => Found::NoJson,
        };
    }
    let Ok(scan) = scan_keys(text) else {
        return Found::NoJson;
    };
    // Before Claude Code's keys: a recording's header names a `sessionId` too.
    if gemini::is_header(&|k| scan.has(k)) {
        return Found::Format(SourceFormat::Gemini);
    }
    if let Some(format) = log_format(&scan) {
        return Found::Format(format);
    }
    if scan.complete && is_legacy_codex(&text[..scan.end], &text[scan.end..]) {
        return Found::Format(SourceFormat::Codex);
    }
    let after = if scan.complete {
        text[scan.end..].trim()
    } else {
        ""
    };
    if scan.complete && after.is_empty() {
        // One whole document.
        return match serde_json::from_str::<Value>(text) {
            Ok(doc) => document_format(&doc),
            Err(_) => Found::NoJson,
        };
    }
    if !scan.complete {
        return cut_document_format(&scan, text);
    }
    Found::UnknownJson
}

/// A session log (JSON lines) by the keys of its first record.
fn log_format(scan: &KeyScan) -> Option<SourceFormat> {
    if scan.has("payload") && scan.has("type") {
        return Some(SourceFormat::Codex);
    }
    let document = ["messages", "history", "format", "chat_messages", "mapping"]
        .iter()
        .any(|k| scan.has(k));
    let claude_key = CLAUDE_CODE_KEYS.iter().any(|k| scan.has(k));
    (!document && (claude_key || (scan.has("type") && scan.complete)))
        .then_some(SourceFormat::ClaudeCode)
}

/// A legacy Codex rollout: a bare session object, then bare items (or nothing yet).
fn is_legacy_codex(first: &str, rest: &str) -> bool {
    let Ok(Value::Object(session)) = serde_json::from_str::<Value>(first) else {
        return false;
    };
    if !codex::legacy::is_session_object(&session) {
        return false;
    }
    match rest.lines().map(str::trim).find(|l| !l.is_empty()) {
        None => true,
        Some(line) => {
            serde_json::from_str::<Value>(line).is_ok_and(|v| codex::legacy::is_legacy_line(&v))
        }
    }
}

/// A whole JSON document: one of the chat formats, or JSON of no known format.
fn document_format(doc: &Value) -> Found {
    let known = doc.is_array()
        || chatgpt::looks_like(doc)
        || claude_ai::looks_like(doc)
        || ["messages", "history", "format"]
            .iter()
            .any(|k| doc.get(k).is_some());
    if known {
        Found::Format(json_format(doc))
    } else {
        Found::UnknownJson
    }
}

/// A document longer than detection reads: by its top-level keys, then by what its start says.
fn cut_document_format(scan: &KeyScan, text: &str) -> Found {
    if scan.string("format") == Some(squash_json::FORMAT) {
        return Found::Format(SourceFormat::Squash);
    }
    if scan.has("info") && scan.has("messages") && text.contains("\"parts\"") {
        return Found::Format(SourceFormat::Opencode);
    }
    if claude_ai::head_looks_like(text) {
        return Found::Format(SourceFormat::ClaudeAi);
    }
    if scan.has("mapping") && chatgpt::head_looks_like(text) {
        return Found::Format(SourceFormat::ChatGpt);
    }
    if scan.has("history") || text.contains("\"tool_calls\"") {
        return Found::Format(SourceFormat::OpenAi);
    }
    if text.contains("\"tool_use\"") || text.contains("\"tool_result\"") {
        return Found::Format(SourceFormat::Anthropic);
    }
    if scan.has("messages") {
        return Found::Format(SourceFormat::OpenAi);
    }
    Found::UnknownJson
}

/// OpenAI, Anthropic, ChatGPT, claude.ai, opencode or our own format, for a whole JSON
/// document.
fn json_format(doc: &Value) -> SourceFormat {
    if chatgpt::looks_like(doc) {
        return SourceFormat::ChatGpt;
    }
    if claude_ai::looks_like(doc) {
        return SourceFormat::ClaudeAi;
    }
    if opencode::looks_like(doc) {
        return SourceFormat::Opencode;
    }
    if doc.get("format").and_then(Value::as_str) == Some(squash_json::FORMAT) {
        return SourceFormat::Squash;
    }
    if doc.is_array() || doc.get("history").is_some() {
        return SourceFormat::OpenAi;
    }
    let messages = doc
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let openai = messages.iter().any(|m| {
        m.get("tool_calls").is_some()
            || matches!(
                m.get("role").and_then(Value::as_str),
                Some("tool" | "system" | "developer" | "function")
            )
    });
    let anthropic = doc.get("system").is_some()
        || messages.iter().any(|m| {
            m.get("content")
                .and_then(Value::as_array)
                .is_some_and(|blocks| {
                    blocks.iter().any(|b| {
                        matches!(
                            b.get("type").and_then(Value::as_str),
                            Some("tool_use" | "tool_result" | "thinking" | "image")
                        )
                    })
                })
        });
    if anthropic && !openai {
        SourceFormat::Anthropic
    } else {
        SourceFormat::OpenAi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected_from_their_start() {
        let claude = br#"{"parentUuid":null,"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"hi"}}
{"type":"summary","summary":"x"}"#;
        assert_eq!(detect_bytes(claude), Some(SourceFormat::ClaudeCode));
        let codex = br#"{"timestamp":"t","type":"session_meta","payload":{}}"#;
        assert_eq!(detect_bytes(codex), Some(SourceFormat::Codex));
        assert_eq!(
            detect_bytes(br#"{"messages":[{"role":"tool","content":"x"}]}"#),
            Some(SourceFormat::OpenAi)
        );
        assert_eq!(
            detect_bytes(br#"{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]}"#),
            Some(SourceFormat::Anthropic)
        );
        assert_eq!(
            detect_bytes(b"{\n \"history\": [\n"),
            Some(SourceFormat::OpenAi)
        );
        assert_eq!(
            detect_bytes(b"SQLite format 3\0...."),
            Some(SourceFormat::Gromozeka)
        );
        assert_eq!(detect_bytes(b"hello"), None);
    }

    /// One conversation of an export, as one-conversation exporters save it.
    #[test]
    fn single_conversations_of_exports_are_told() {
        let chatgpt = br#"{"title": "t", "create_time": 1.0, "mapping": {"a": {"id": "a", "message": null, "parent": null, "children": []}}, "current_node": "a"}"#;
        assert_eq!(detect_bytes(chatgpt), Some(SourceFormat::ChatGpt));
        let claude_ai = br#"{"uuid": "u", "name": "n", "chat_messages": [{"uuid": "m", "sender": "human", "text": "hi"}]}"#;
        assert_eq!(detect_bytes(claude_ai), Some(SourceFormat::ClaudeAi));
        // Cut by the detection limit.
        let cut = br#"{"uuid": "u", "name": "n", "chat_messages": [{"uuid": "m", "sender": "human", "text": "hi"#;
        assert_eq!(detect_bytes(cut), Some(SourceFormat::ClaudeAi));
    }

    #[test]
    fn what_is_found_is_said() {
        assert_eq!(inspect(b"hello\nworld"), Found::NoJson);
        assert_eq!(inspect(b"  \n"), Found::Empty);
        assert_eq!(
            inspect(br#"{"name": "x", "version": 2}"#),
            Found::UnknownJson
        );
        assert_eq!(inspect(b"{not json"), Found::NoJson);
        assert_eq!(
            Found::Format(SourceFormat::Codex).to_string(),
            "a Codex rollout"
        );
    }

    /// A first line longer than detection reads (a pasted file, an image): the keys before the
    /// message tell the format.
    #[test]
    fn a_first_line_longer_than_the_limit_tells_its_format() {
        let big = "x".repeat(DETECT_BYTES as usize + 1000);
        let user = format!(
            r#"{{"parentUuid":null,"isSidechain":false,"type":"user","message":{{"role":"user","content":"{big}"}},"uuid":"u"}}"#
        );
        assert_eq!(
            detect_bytes(user.as_bytes()),
            Some(SourceFormat::ClaudeCode)
        );
        let head = &user.as_bytes()[..DETECT_BYTES as usize];
        assert_eq!(detect_bytes(head), Some(SourceFormat::ClaudeCode));
        let reader = inspect_reader(user.as_bytes()).unwrap();
        assert_eq!(reader, Found::Format(SourceFormat::ClaudeCode));
        // An assistant line names its type after the message; its first keys still tell.
        let assistant = format!(
            r#"{{"parentUuid":"p","isSidechain":false,"message":{{"content":[{{"type":"text","text":"{big}"}}]}},"type":"assistant"}}"#
        );
        let head = &assistant.as_bytes()[..DETECT_BYTES as usize];
        assert_eq!(detect_bytes(head), Some(SourceFormat::ClaudeCode));
        let codex = format!(
            r#"{{"timestamp":"t","type":"session_meta","payload":{{"instructions":"{big}"}}}}"#
        );
        let head = &codex.as_bytes()[..DETECT_BYTES as usize];
        assert_eq!(detect_bytes(head), Some(SourceFormat::Codex));
    }
}
