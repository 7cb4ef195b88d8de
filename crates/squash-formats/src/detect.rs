//! Telling a source's format from its first bytes.

use std::io::Read;

use serde_json::Value;
use squash_core::SourceFormat;

use crate::{chatgpt, codex, squash_json};

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

/// How much of a source detection looks at.
pub const DETECT_BYTES: u64 = 4 * 1024 * 1024;

/// The format of a stream, from its first [`DETECT_BYTES`].
pub fn detect_reader(reader: impl Read) -> std::io::Result<Option<SourceFormat>> {
    let mut head = Vec::with_capacity(64 * 1024);
    reader.take(DETECT_BYTES).read_to_end(&mut head)?;
    Ok(detect_bytes(&head))
}

/// The format of a document from its beginning (or all of it).
pub fn detect_bytes(head: &[u8]) -> Option<SourceFormat> {
    if head.starts_with(SQLITE_MAGIC) {
        return Some(SourceFormat::Gromozeka);
    }
    let text = String::from_utf8_lossy(head);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    if let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(first) {
        let has = |k: &str| obj.contains_key(k);
        if has("payload") && has("type") {
            return Some(SourceFormat::Codex);
        }
        let second = lines.clone().next();
        if codex::legacy::is_session_object(&obj)
            && second.is_none_or(|l| {
                serde_json::from_str::<Value>(l).is_ok_and(|v| codex::legacy::is_legacy_line(&v))
            })
        {
            return Some(SourceFormat::Codex);
        }
        if has("type") && !has("messages") && !has("history") && !has("format") {
            return Some(SourceFormat::ClaudeCode);
        }
        if lines.next().is_none() {
            return Some(json_format(&Value::Object(obj)));
        }
    }
    // A multi-line document: classify by its start, as far as it parses.
    let whole: Result<Value, _> = serde_json::from_str(&text);
    match whole {
        Ok(doc) => Some(json_format(&doc)),
        Err(_) => {
            let t = text.trim_start();
            if chatgpt::head_looks_like(t) {
                Some(SourceFormat::ChatGpt)
            } else if t.starts_with('[') {
                Some(SourceFormat::OpenAi)
            } else if t.contains("\"format\"") && t.contains("squash-conversation") {
                Some(SourceFormat::Squash)
            } else if t.contains("\"history\"") || t.contains("\"tool_calls\"") {
                Some(SourceFormat::OpenAi)
            } else if t.contains("\"tool_use\"") || t.contains("\"tool_result\"") {
                Some(SourceFormat::Anthropic)
            } else if t.contains("\"messages\"") {
                Some(SourceFormat::OpenAi)
            } else {
                None
            }
        }
    }
}

/// OpenAI, Anthropic, ChatGPT or our own format, for a whole JSON document.
fn json_format(doc: &Value) -> SourceFormat {
    if chatgpt::looks_like(doc) {
        return SourceFormat::ChatGpt;
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
}
