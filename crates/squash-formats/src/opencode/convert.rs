//! One opencode session as a conversation.

use chrono::{DateTime, TimeZone, Utc};
use serde_json::{json, Value};
use squash_core::{
    ContentItem, ConversationId, ImageSource, Message, Role, SourceFormat, SystemLevel,
};

use super::{Source, META_KEY};
use crate::fields::{imported_message, title_from};
use crate::{ImportedConversation, Parsed, SOURCE_ID_KEY};

/// Parts that are no content: kept as metadata of their message.
const KEPT_PARTS: [&str; 6] = [
    "step-start",
    "step-finish",
    "snapshot",
    "patch",
    "retry",
    "agent",
];

/// A millisecond time as opencode stores them.
pub(super) fn millis(value: Option<&Value>) -> Option<DateTime<Utc>> {
    let ms = value?.as_i64()?;
    Utc.timestamp_millis_opt(ms).single()
}

pub(super) fn session(
    source_name: &str,
    source: Source,
    content_hash: &str,
    now: DateTime<Utc>,
    parsed: &mut Parsed,
) {
    // The session record itself is kept as the conversation's metadata.
    parsed.record_metadata();
    let conversation_id = ConversationId::new();
    let mut messages = Vec::new();
    for (info, parts) in &source.messages {
        parsed.record_metadata();
        messages.extend(message(
            source_name,
            info,
            parts,
            conversation_id,
            now,
            parsed,
        ));
    }
    let id = source.info["id"].as_str().unwrap_or(source_name).to_owned();
    if messages.is_empty() {
        parsed.warnings.push(format!(
            "{source_name}: session {id} has no messages; not imported"
        ));
        return;
    }
    let title = source.info["title"]
        .as_str()
        .and_then(|t| title_from(t, 80));
    let parent = source.info["parentID"].as_str().map(str::to_owned);
    let name = match (&parent, title) {
        (Some(_), Some(t)) => format!("sub-agent: {t}"),
        (_, Some(t)) => t,
        (_, None) => format!("opencode session {}", id.get(..12).unwrap_or(&id)),
    };
    let mut conv = ImportedConversation::linear(
        SourceFormat::Opencode,
        format!("opencode:{id}"),
        conversation_id,
        name,
        messages,
        now,
    );
    conv.content_hash = content_hash.to_owned();
    conv.sidechain = parent.is_some();
    conv.project_path = source.info["directory"].as_str().map(str::to_owned);
    if let Some(t) = millis(source.info.pointer("/time/created")) {
        conv.created_at = conv.created_at.min(t);
    }
    conv.metadata = Some(json!({META_KEY: {"session": source.info}}));
    parsed.conversations.push(conv);
}

/// A message's parts as Squash messages: a user message as one; an assistant step as its
/// message and, when it called tools, a user message of their results.
fn message(
    source_name: &str,
    info: &Value,
    parts: &[Value],
    conversation_id: ConversationId,
    now: DateTime<Utc>,
    parsed: &mut Parsed,
) -> Vec<Message> {
    let id = info["id"].as_str().unwrap_or_default();
    let role = match info["role"].as_str() {
        Some("assistant") => Role::Assistant,
        _ => Role::User,
    };
    let time = millis(info.pointer("/time/created")).unwrap_or(now);
    let mut items = Vec::new();
    let mut results = Vec::new();
    let mut kept = Vec::new();
    let mut calls = Vec::new();
    for part in parts {
        let kind = part["type"].as_str().unwrap_or("");
        if part.get("unreadable").is_some() {
            let reason = format!("part {} of message {id}: its data is no JSON", part["id"]);
            parsed.skip_record(source_name, None, reason);
            continue;
        }
        if KEPT_PARTS.contains(&kind) {
            kept.push(part.clone());
            parsed.record_metadata();
            continue;
        }
        let text = part["text"].as_str().unwrap_or("");
        if matches!(kind, "text" | "reasoning") && text.trim().is_empty() {
            let reason = format!("part {} of message {id}: no text", part["id"]);
            parsed.skip_record(source_name, None, reason);
            continue;
        }
        parsed.record_message();
        match kind {
            "text" => items.push(ContentItem::text_for(role, text)),
            "reasoning" => {
                let signature = part
                    .pointer("/metadata/anthropic/signature")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                items.push(ContentItem::Thinking {
                    signature: signature.to_owned(),
                    thinking: text.to_owned(),
                });
            }
            "tool" => {
                let (call, result, rest) = tool(part);
                items.push(call);
                results.push(result);
                calls.push(rest);
            }
            "file" => items.push(file(role, part)),
            "compaction" => items.push(ContentItem::System {
                level: SystemLevel::Info,
                content: "opencode compacted the session here".into(),
                tool_use_id: None,
            }),
            _ => items.push(ContentItem::UnknownJson { json: part.clone() }),
        }
    }
    let meta = |extra: Value| {
        let mut m = json!({SOURCE_ID_KEY: format!("opencode:{id}"),
                           META_KEY: {"info": info, "parts": kept, "calls": calls}});
        if let (Some(o), Value::Object(e)) = (m.as_object_mut(), extra) {
            o.extend(e);
        }
        m
    };
    let mut out = Vec::new();
    if !items.is_empty() {
        out.push(imported_message(
            conversation_id,
            role,
            items,
            meta(json!({})),
            time,
        ));
    }
    if !results.is_empty() {
        let at = time + chrono::Duration::microseconds(1);
        let source =
            json!({SOURCE_ID_KEY: format!("opencode:{id}/results"), META_KEY: {"results": true}});
        out.push(imported_message(
            conversation_id,
            Role::User,
            results,
            source,
            at,
        ));
    }
    out
}

/// A tool part: its call, its result (from its state), and the rest of it.
fn tool(part: &Value) -> (ContentItem, ContentItem, Value) {
    let id = part["callID"].as_str().unwrap_or_default().to_owned();
    let name = part["tool"].as_str().unwrap_or("tool").to_owned();
    let state = &part["state"];
    let status = state["status"].as_str().unwrap_or("");
    let (text, is_error) = match status {
        "completed" => (string(&state["output"]), false),
        "error" => (string(&state["error"]), true),
        other => (format!("(no result: the call was {other:?})"), true),
    };
    let call = ContentItem::tool_call(
        id.clone(),
        name.clone(),
        state.get("input").cloned().unwrap_or(json!({})),
    );
    let result = ContentItem::tool_result(id, name, text, is_error);
    let mut rest = part.clone();
    if let Some(Value::Object(s)) = rest.get_mut("state") {
        for k in ["input", "output", "error"] {
            s.remove(k);
        }
    }
    (call, result, rest)
}

fn string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A file part: an image when it is one inline, else text naming the file.
fn file(role: Role, part: &Value) -> ContentItem {
    let mime = part["mime"].as_str().unwrap_or("");
    let url = part["url"].as_str().unwrap_or("");
    let name = part["filename"].as_str().unwrap_or(url);
    if mime.starts_with("image/") {
        if let Some(data) = url
            .strip_prefix("data:")
            .and_then(|rest| rest.split_once(";base64,"))
            .map(|(_, data)| data)
        {
            return ContentItem::Image {
                source: ImageSource::Base64 {
                    media_type: mime.to_owned(),
                    data: data.to_owned(),
                },
            };
        }
    }
    ContentItem::text_for(role, format!("[file {name} ({mime})]"))
}
