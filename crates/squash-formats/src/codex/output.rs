//! Tool outputs and whether they report a failure. Codex keeps a command's exit status only in
//! the output text the model sees, in one of these shapes:
//!
//! - legacy rollouts: a JSON document `{"output": "...", "metadata": {"exit_code": 1, ...}}`;
//! - the `shell` tool of 2025 releases: a header `Exit code: 1\nWall time: ...\nOutput:\n...`;
//! - unified exec (`exec_command`, current releases): `Chunk ID: ...\nWall time: ...\nProcess
//!   exited with code 1\nOriginal token count: ...\nOutput:\n...`;
//! - code mode (`exec` custom tool): a list of text parts, one of them the JSON result of a
//!   nested `exec_command` (`{"exit_code": 1, "output": ...}`);
//! - objects `{"content", "success"}` (MCP tools).

use serde_json::{Map, Value};
use squash_core::ToolResultData;

/// Where the reader keeps the `metadata` of a legacy output document (exit code, duration),
/// which the result's text does not hold, so that the writer can put the document back.
pub(super) const LEGACY_METADATA: &str = "output_metadata";

/// The `metadata` of a legacy output document (`{"output": "...", "metadata": {...}}` in a
/// string), if `output` is one.
pub(super) fn legacy_metadata(output: &Value) -> Option<Value> {
    let doc: Value = serde_json::from_str(output.as_str()?).ok()?;
    doc.get("output")?.as_str()?;
    doc.get("metadata").cloned()
}

/// The result of a tool output (never empty) and whether it is an error.
pub(super) fn output_result(output: Value) -> (Vec<ToolResultData>, bool) {
    match output {
        Value::String(text) => {
            let (text, failed) = text_result(text);
            (vec![ToolResultData::Text { text }], failed)
        }
        Value::Array(parts) => parts_result(parts),
        Value::Object(obj) => object_result(obj),
        Value::Null => (
            vec![ToolResultData::Text {
                text: String::new(),
            }],
            false,
        ),
        other => (
            vec![ToolResultData::Text {
                text: other.to_string(),
            }],
            false,
        ),
    }
}

fn text_result(text: String) -> (String, bool) {
    if let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(&text) {
        if let Some(out) = doc.get("output").and_then(Value::as_str) {
            let code = doc
                .get("metadata")
                .and_then(|m| m.get("exit_code"))
                .and_then(Value::as_i64);
            return (out.to_owned(), code.is_some_and(|c| c != 0));
        }
    }
    let failed = header_exit_code(&text).is_some_and(|c| c != 0);
    (text, failed)
}

/// The exit code a header states, looking only above its `Output:` line so that a command's
/// own output cannot pass for the header.
pub(super) fn header_exit_code(text: &str) -> Option<i64> {
    text.lines()
        .take_while(|l| l.trim_end() != "Output:")
        .find_map(|l| {
            l.strip_prefix("Exit code: ")
                .or_else(|| l.strip_prefix("Process exited with code "))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

fn parts_result(parts: Vec<Value>) -> (Vec<ToolResultData>, bool) {
    let mut failed = false;
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        let text = part.get("text").and_then(Value::as_str);
        let image = part.get("image_url").and_then(Value::as_str);
        match (text, image) {
            (Some(text), _) => {
                failed |= nested_exit_code(text).is_some_and(|c| c != 0)
                    || header_exit_code(text).is_some_and(|c| c != 0);
                out.push(ToolResultData::Text {
                    text: text.to_owned(),
                });
            }
            (None, Some(url)) => out.push(ToolResultData::Url {
                url: url.to_owned(),
            }),
            // A part we do not model: its JSON, as text, rather than nothing.
            (None, None) => out.push(ToolResultData::Text {
                text: part.to_string(),
            }),
        }
    }
    if out.is_empty() {
        out.push(ToolResultData::Text {
            text: String::new(),
        });
    }
    (out, failed)
}

/// The exit code of a nested command's JSON result, as code mode prints it.
fn nested_exit_code(text: &str) -> Option<i64> {
    let t = text.trim();
    if !t.starts_with('{') {
        return None;
    }
    serde_json::from_str::<Value>(t)
        .ok()?
        .get("exit_code")?
        .as_i64()
}

fn object_result(mut obj: Map<String, Value>) -> (Vec<ToolResultData>, bool) {
    let failed = obj.get("success").and_then(Value::as_bool) == Some(false);
    let text = match obj.remove("content") {
        Some(Value::String(s)) => s,
        Some(other) => other.to_string(),
        None => Value::Object(obj).to_string(),
    };
    (vec![ToolResultData::Text { text }], failed)
}
