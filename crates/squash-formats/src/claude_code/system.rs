//! The text a person reads for the lines Claude Code writes about itself: system lines
//! (compactions, hook summaries, turn durations) and the attachments worth showing.

use serde_json::Value;
use squash_core::{ContentItem, Role, SystemLevel};

fn str_at<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

/// The content of a `type: "system"` line.
pub(super) fn system_item(line: &Value) -> ContentItem {
    let subtype = str_at(line, "subtype").unwrap_or("");
    let mut level = match str_at(line, "level") {
        Some("warning") => SystemLevel::Warning,
        Some("error") => SystemLevel::Error,
        _ => SystemLevel::Info,
    };
    let content = match subtype {
        "compact_boundary" => compaction_text(line),
        "stop_hook_summary" => {
            let (text, failed) = stop_hook_text(line);
            if failed && level == SystemLevel::Info {
                level = SystemLevel::Warning;
            }
            text
        }
        _ => match line.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => match line.get("durationMs").and_then(Value::as_u64) {
                Some(ms) if subtype == "turn_duration" => format!("Turn took {ms} ms"),
                _ => format!("[{subtype}]"),
            },
        },
    };
    ContentItem::System {
        level,
        content,
        tool_use_id: str_at(line, "toolUseID").map(str::to_owned),
    }
}

fn compaction_text(line: &Value) -> String {
    let meta = line.get("compactMetadata");
    let trigger = meta.and_then(|m| str_at(m, "trigger")).unwrap_or("unknown");
    match meta
        .and_then(|m| m.get("preTokens"))
        .and_then(Value::as_u64)
    {
        Some(tokens) => {
            format!("Conversation compacted (trigger: {trigger}, {tokens} tokens before)")
        }
        None => format!("Conversation compacted (trigger: {trigger})"),
    }
}

/// What the stop hooks did, and whether one failed: the hook's own error text is what a
/// person needs to see.
fn stop_hook_text(line: &Value) -> (String, bool) {
    let errors: Vec<String> = line
        .get("hookErrors")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(text_of_error).collect())
        .unwrap_or_default();
    let commands: Vec<&str> = line
        .get("hookInfos")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|h| str_at(h, "command")).collect())
        .unwrap_or_default();
    let label = str_at(line, "hookLabel").unwrap_or("Stop");
    let hooks = if commands.is_empty() {
        format!("{label} hook")
    } else {
        format!("{label} hook `{}`", commands.join("`, `"))
    };
    let prevented = line.get("preventedContinuation").and_then(Value::as_bool) == Some(true);
    let mut text = if errors.is_empty() {
        format!("{hooks} ran")
    } else {
        format!("{hooks} failed: {}", errors.join("\n"))
    };
    if prevented {
        let reason = str_at(line, "stopReason").unwrap_or("no reason given");
        text.push_str(&format!("\nIt stopped the agent: {reason}"));
    }
    (text, !errors.is_empty() || prevented)
}

fn text_of_error(error: &Value) -> String {
    match error {
        Value::String(s) => s.clone(),
        other => ["blockingError", "stderr", "error", "message"]
            .iter()
            .find_map(|k| str_at(other, k))
            .map(str::to_owned)
            .unwrap_or_else(|| other.to_string()),
    }
}

/// An `attachment` line a person wants to see in the transcript: a prompt typed while the
/// agent was busy, or a hook's error. Other attachments (file snapshots, listings, reminders)
/// stay metadata.
pub(super) fn attachment_item(line: &Value) -> Option<(Role, ContentItem)> {
    let attachment = line.get("attachment")?;
    match str_at(attachment, "type")? {
        "queued_command" => {
            let text = match attachment.get("prompt")? {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some((Role::User, ContentItem::UserMessage { text }))
        }
        "hook_blocking_error" | "hook_non_blocking_error" => {
            let hook = str_at(attachment, "hookName").unwrap_or("hook");
            let error = attachment
                .get("blockingError")
                .map(text_of_error)
                .or_else(|| str_at(attachment, "stderr").map(str::to_owned))
                .unwrap_or_else(|| attachment.to_string());
            Some((
                Role::System,
                ContentItem::System {
                    level: SystemLevel::Warning,
                    content: format!("{hook} hook failed: {error}"),
                    tool_use_id: str_at(attachment, "toolUseID").map(str::to_owned),
                },
            ))
        }
        _ => None,
    }
}
