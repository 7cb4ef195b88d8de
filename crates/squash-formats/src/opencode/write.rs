//! A thread as the document `opencode import <file>` reads (the shape `opencode export`
//! prints, seen with opencode 1.18): the session's info, then each message's info and parts,
//! under new ids that sort in the thread's order (opencode orders messages by id). A model
//! turn is an assistant step; its calls are `tool` parts that carry their results, taken from
//! the tool results of the thread; a result whose call is not in the thread becomes user text
//! that says so, and a call without a result an error saying that none was recorded. System
//! messages, which opencode has no place for, become user text marked as such.

use std::io::{self, Write};

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use squash_core::{render, ContentItem, ImageSource, Message, Role};

use super::META_KEY;
use crate::session::Session;
use crate::thread_results::ThreadResults;

/// The version written when nothing names one.
pub const FALLBACK_VERSION: &str = "1.18.33";

/// What writing a document did.
#[derive(Debug, Default)]
pub struct Written {
    pub messages: usize,
    pub warnings: Vec<String>,
}

/// Ids as opencode makes them: a prefix, 12 hex digits of time and counter (ascending), and 14
/// random characters.
struct Ids {
    base: u64,
    counter: u64,
}

impl Ids {
    fn next(&mut self, prefix: &str) -> String {
        self.counter += 1;
        let value = (self.base * 0x1000 + self.counter) & 0xffff_ffff_ffff;
        format!("{prefix}_{value:012x}{}", random14())
    }
}

fn random14() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    // UUIDv7's random bits (its first six bytes are the time).
    let bytes = uuid::Uuid::now_v7().into_bytes();
    let more = uuid::Uuid::now_v7().into_bytes();
    bytes[6..]
        .iter()
        .chain(&more[6..])
        .take(14)
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// A new session id in opencode's form (`ses_` and 26 characters).
pub fn new_session_id(at: DateTime<Utc>) -> String {
    // Sessions sort newest first: the time part is inverted.
    let value = !((at.timestamp_millis().max(0) as u64) * 0x1000) & 0xffff_ffff_ffff;
    format!("ses_{value:012x}{}", random14())
}

fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

/// The provider and model the conversation used, from an assistant message opencode wrote.
fn model_of(messages: &[Message]) -> Option<(String, String)> {
    messages.iter().rev().find_map(|m| {
        let info = m.metadata.as_ref()?.get(META_KEY)?.get("info")?;
        Some((
            info.get("providerID")?.as_str()?.to_owned(),
            info.get("modelID")?.as_str()?.to_owned(),
        ))
    })
}

/// Writes the document of the session titled `title`. `model` is the provider and model the
/// resumed session runs on (`provider/model`); default: the last one the conversation ran on in
/// opencode. opencode refuses a session whose model it does not know.
pub fn write<W: Write + ?Sized>(
    session: &Session<'_>,
    title: &str,
    model: Option<&str>,
    out: &mut W,
) -> io::Result<Written> {
    let mut ids = Ids {
        base: session.created_at.timestamp_millis().max(0) as u64,
        counter: 0,
    };
    let results = ThreadResults::of(session.messages);
    let (provider, model) = model
        .and_then(|m| m.split_once('/'))
        .map(|(p, m)| (p.to_owned(), m.to_owned()))
        .or_else(|| model_of(session.messages))
        .unwrap_or_else(|| ("opencode".to_owned(), "default".to_owned()));
    let mut written = Written::default();
    let mut list: Vec<Value> = Vec::new();
    let mut last_user: Option<String> = None;
    for message in session.messages {
        let id = ids.next("msg");
        let created = millis(message.created_at);
        let squash = crate::is_squash_result(message, session.operations);
        let mut parts = Vec::new();
        let mut part = |body: Value, ids: &mut Ids| {
            let mut body = body;
            if let Some(o) = body.as_object_mut() {
                o.insert("id".into(), json!(ids.next("prt")));
                o.insert("sessionID".into(), json!(session.session_id));
                o.insert("messageID".into(), json!(id));
            }
            parts.push(body);
        };
        let role = if squash || message.role != Role::Assistant {
            Role::User
        } else {
            Role::Assistant
        };
        if squash {
            part(
                json!({"type": "text", "text": render::message_text(message)}),
                &mut ids,
            );
        } else {
            for item in &message.content {
                if let Some((text, warning)) = results.orphan(item) {
                    written.warnings.push(warning);
                    part(json!({"type": "text", "text": text}), &mut ids);
                    continue;
                }
                match item {
                    ContentItem::ToolResult { .. } => {}
                    ContentItem::ToolCall {
                        id: call,
                        name,
                        input,
                    } => {
                        let state = match results.by_call.get(call.as_str()) {
                            Some((_, result, false)) => {
                                json!({"status": "completed", "input": input,
                                "output": render::results_text(result), "title": name, "metadata": {},
                                "time": {"start": created, "end": created}})
                            }
                            Some((_, result, true)) => json!({"status": "error", "input": input,
                                "error": render::results_text(result), "time": {"start": created, "end": created}}),
                            None => {
                                written.warnings.push(format!(
                                    "tool call {call} has no result in this thread; an error saying so was written"
                                ));
                                json!({"status": "error", "input": input,
                                    "error": "No result was recorded for this call.",
                                    "time": {"start": created, "end": created}})
                            }
                        };
                        part(
                            json!({"type": "tool", "callID": call, "tool": name, "state": state}),
                            &mut ids,
                        );
                    }
                    ContentItem::Thinking { thinking, .. } => {
                        part(
                            json!({"type": "reasoning", "text": thinking,
                                    "time": {"start": created, "end": created}}),
                            &mut ids,
                        );
                    }
                    ContentItem::System { content, .. } if message.role == Role::System => {
                        part(
                            json!({"type": "text", "text": format!("[system message] {content}")}),
                            &mut ids,
                        );
                    }
                    ContentItem::Image {
                        source: ImageSource::Base64 { media_type, data },
                    } => {
                        part(
                            json!({"type": "file", "mime": media_type, "filename": "image",
                                    "url": format!("data:{media_type};base64,{data}")}),
                            &mut ids,
                        );
                    }
                    other => {
                        let text = render::item_text(other);
                        if !text.trim().is_empty() {
                            part(json!({"type": "text", "text": text}), &mut ids);
                        }
                    }
                }
            }
        }
        if parts.is_empty() {
            continue;
        }
        let info = if role == Role::User {
            last_user = Some(id.clone());
            json!({"id": id, "sessionID": session.session_id, "role": "user",
                   "time": {"created": created}, "agent": "build",
                   "model": {"providerID": provider, "modelID": model}})
        } else {
            let has_calls = parts.iter().any(|p| p["type"] == "tool");
            let parent = last_user.clone().unwrap_or_else(|| id.clone());
            json!({"id": id, "sessionID": session.session_id, "role": "assistant",
                   "parentID": parent, "mode": "build", "agent": "build",
                   "path": {"cwd": session.cwd, "root": "/"}, "cost": 0,
                   "tokens": {"input": 0, "output": 0, "reasoning": 0, "cache": {"read": 0, "write": 0}},
                   "modelID": model, "providerID": provider,
                   "time": {"created": created, "completed": created},
                   "finish": if has_calls { "tool-calls" } else { "stop" }})
        };
        list.push(json!({"info": info, "parts": parts}));
        written.messages += 1;
    }
    let updated = session
        .messages
        .last()
        .map_or(session.created_at, |m| m.created_at);
    let doc = json!({
        "info": {
            "id": session.session_id,
            "slug": "squashed",
            "projectID": "global",
            "directory": session.cwd,
            "title": title,
            "version": FALLBACK_VERSION,
            "time": {"created": millis(session.created_at), "updated": millis(updated)},
        },
        "messages": list,
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")?;
    Ok(written)
}
