//! Small readers of JSON fields that several formats share.

use std::collections::HashSet;

use chrono::{DateTime, SubsecRound, Utc};
use serde_json::Value;
use squash_core::{
    BranchKind, ContentItem, ConversationId, ImportThread, Message, MessageId, Role, ThreadId,
    ThreadOrigin,
};

/// A message as a reader makes it: a fresh id, no operation, no reply, no instructions.
pub(crate) fn imported_message(
    conversation_id: ConversationId,
    role: Role,
    content: Vec<ContentItem>,
    metadata: Value,
    created_at: DateTime<Utc>,
) -> Message {
    Message {
        metadata: Some(metadata),
        created_at,
        ..Message::new_unchecked(conversation_id, role, content)
    }
}

/// A thread as a source holds it: `links` in order (its revision counts them), derived from
/// `parent` as a branch of that kind, or the initial thread; updated no earlier than created.
pub(crate) fn source_thread(
    id: ThreadId,
    parent: Option<(ThreadId, BranchKind)>,
    links: Vec<MessageId>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
) -> ImportThread {
    let (original_thread_id, origin) = match parent {
        None => (None, ThreadOrigin::Initial),
        Some((parent, branch)) => (Some(parent), ThreadOrigin::SourceBranch { branch }),
    };
    ImportThread {
        id,
        original_thread_id,
        origin,
        revision: links.len() as u64,
        links,
        created_at,
        updated_at: updated_at.max(created_at),
    }
}

/// A compacted source's whole history, as a thread derived from `current`: the messages of
/// `lists` (the threads on the way to the current one, oldest first), each once, without those
/// the compactions wrote (`written`). `None` for a source that never compacted (one list), or
/// when one of `threads` is just that already.
pub(crate) fn whole_history_thread(
    threads: &[ImportThread],
    current: ThreadId,
    lists: &[&[MessageId]],
    written: &HashSet<MessageId>,
    messages: &[Message],
) -> Option<ImportThread> {
    if lists.len() < 2 {
        return None;
    }
    let mut seen: HashSet<MessageId> = HashSet::new();
    let links: Vec<MessageId> = (lists.iter().flat_map(|l| l.iter()))
        .filter(|id| !written.contains(id) && seen.insert(**id))
        .copied()
        .collect();
    if threads.iter().any(|t| t.links == links) {
        return None;
    }
    let created_at = threads.first()?.created_at;
    let last = links
        .last()
        .and_then(|id| messages.iter().find(|m| m.id == *id));
    let updated_at = last.map_or(created_at, |m| m.created_at);
    let parent = Some((current, BranchKind::WholeHistory));
    Some(source_thread(
        ThreadId::new(),
        parent,
        links,
        created_at,
        updated_at,
    ))
}

/// An RFC 3339 timestamp at the precision the stores keep (microseconds).
pub(crate) fn parse_time(value: Option<&Value>) -> Option<DateTime<Utc>> {
    parse_time_text(value?.as_str()?)
}

/// [`parse_time`] of a timestamp's text.
pub(crate) fn parse_time_text(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc).trunc_subsecs(6))
}

/// A tool result's text as one string, whichever shape it has: a string, or parts whose `text`
/// fields are joined by newlines (other parts as their JSON); empty when absent.
pub(crate) fn result_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .map(|p| match p.get("text").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// A short, one-line name from a message text.
pub(crate) fn title_from(text: &str, max: usize) -> Option<String> {
    // Claude Code slash commands arrive as tags; their name is the readable part.
    if let Some(start) = text.find("<command-name>") {
        let rest = &text[start + "<command-name>".len()..];
        if let Some(end) = rest.find("</command-name>") {
            let name = rest[..end].trim();
            if !name.is_empty() {
                return Some(name.to_owned());
            }
        }
    }
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max {
        out.push('…');
    }
    Some(out)
}

/// The first text the person typed (of those `typed` says are theirs), as a title.
pub(crate) fn first_prompt(messages: &[Message], typed: impl Fn(&str) -> bool) -> Option<String> {
    messages
        .iter()
        .filter(|m| m.role == Role::User)
        .flat_map(|m| &m.content)
        .find_map(|i| match i {
            ContentItem::UserMessage { text } if typed(text) => title_from(text, 60),
            _ => None,
        })
}

/// The string `key` of `value`, `default` when it has none.
pub(crate) fn str_or<'a>(value: &'a Value, key: &str, default: &'a str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or(default)
}

/// The object minus `key`, if `value` is an object.
pub(crate) fn take_field(value: &mut Value, key: &str) -> Option<Value> {
    value.as_object_mut()?.remove(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_prefer_command_names() {
        assert_eq!(
            title_from(
                "<command-message>init…</command-message>\n<command-name>/init</command-name>",
                60
            ),
            Some("/init".into())
        );
        assert_eq!(
            title_from("\n  hello world  \nmore", 5),
            Some("hello…".into())
        );
        assert_eq!(title_from("   ", 5), None);
    }

    #[test]
    fn times_keep_microseconds() {
        let t = parse_time(Some(&Value::String(
            "2025-11-02T15:32:01.123456789Z".into(),
        )))
        .unwrap();
        assert_eq!(t.timestamp_subsec_nanos(), 123_456_000);
        assert!(parse_time(Some(&Value::String("yesterday".into()))).is_none());
    }
}
