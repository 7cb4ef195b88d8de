//! What a tool call came to, in the words the cards use: its status (an error flag or a
//! non-zero exit code), how long it ran, and the one line that says what it was asked.

use chrono::TimeDelta;
use squash_core::ledger::exit_code;
use squash_core::ToolResultData;

use super::text::{compact, shorten};

/// What a tool run came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolStatus {
    Ok,
    /// Failed: the result says it is an error, or its output reports a non-zero exit code.
    Error {
        exit: Option<i64>,
    },
}

impl ToolStatus {
    pub fn of(result: &[ToolResultData], is_error: bool) -> ToolStatus {
        let exit = result.iter().rev().find_map(|d| match d {
            ToolResultData::Text { text } => exit_code(text),
            _ => None,
        });
        match exit {
            Some(code) if code != 0 => ToolStatus::Error { exit: Some(code) },
            _ if is_error => ToolStatus::Error { exit },
            _ => ToolStatus::Ok,
        }
    }

    pub fn label(self) -> String {
        match self {
            ToolStatus::Ok => "ok".to_owned(),
            ToolStatus::Error { exit: Some(code) } => format!("error (exit {code})"),
            ToolStatus::Error { exit: None } => "error".to_owned(),
        }
    }

    pub(super) fn class(self) -> &'static str {
        match self {
            ToolStatus::Ok => "tool-status status-ok",
            ToolStatus::Error { .. } => "tool-status status-error",
        }
    }
}

/// "850 ms", "4.2 s", "3 min 5 s": how long a tool ran, from its call to its result.
pub fn format_duration(d: TimeDelta) -> Option<String> {
    let ms = d.num_milliseconds();
    if ms <= 0 {
        return None;
    }
    Some(match ms {
        ms if ms < 1_000 => format!("{ms} ms"),
        ms if ms < 10_000 => format!("{:.1} s", ms as f64 / 1000.0),
        ms if ms < 60_000 => format!("{} s", ms / 1000),
        ms if ms < 3_600_000 => format!("{} min {} s", ms / 60_000, (ms / 1000) % 60),
        ms => format!("{} h {} min", ms / 3_600_000, (ms / 60_000) % 60),
    })
}

/// The one line that says what a call did: its command, file, pattern or query when the input
/// has one, else the input itself, shortened.
pub fn input_summary(input: &serde_json::Value) -> String {
    const KEYS: [&str; 10] = [
        "command",
        "cmd",
        "file_path",
        "path",
        "pattern",
        "url",
        "query",
        "description",
        "prompt",
        "notebook_path",
    ];
    let named = KEYS.iter().find_map(|k| match input.get(*k) {
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        // Codex passes its command as an argument list.
        Some(serde_json::Value::Array(parts)) if parts.iter().all(|p| p.is_string()) => Some(
            parts
                .iter()
                .filter_map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    });
    if let Some(text) = named {
        return shorten(&text, 100);
    }
    if let Some(todos) = input.get("todos").and_then(|t| t.as_array()) {
        return format!(
            "{} todo item{}",
            todos.len(),
            if todos.len() == 1 { "" } else { "s" }
        );
    }
    shorten(&compact(input), 100)
}
