//! The messages and threads of one conversation, from its threads of lines. A line is one
//! message however many threads hold it; the consecutive assistant lines of one API response
//! (same `message.id`) are one message.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{ConversationId, ImportThread, Message, MessageId, ThreadId, ThreadOrigin};

use super::lines::{Body, LineRecord, MessageLine};
use super::threads::Paths;
use super::META_KEY;
use crate::{Parsed, SOURCE_ID_KEY};

/// A conversation's content before it gets its name and metadata.
pub(super) struct Draft {
    pub conversation_id: ConversationId,
    /// In creation (file) order.
    pub messages: Vec<Message>,
    pub threads: Vec<ImportThread>,
    pub current: ThreadId,
    /// Lines of a thread that are no message (progress, attachments), kept for the export.
    pub extras: Vec<Value>,
    pub cwd: Option<String>,
}

struct Building {
    conversation_id: ConversationId,
    /// `(first line number, message)`.
    messages: Vec<(usize, Message)>,
    message_of_line: HashMap<usize, usize>,
    extras: Vec<Value>,
    cwd: Option<String>,
    now: DateTime<Utc>,
}

pub(super) fn build(
    lines: &mut [LineRecord],
    paths: &Paths,
    now: DateTime<Utc>,
    parsed: &mut Parsed,
) -> Draft {
    let mut b = Building {
        conversation_id: ConversationId::new(),
        messages: Vec::new(),
        message_of_line: HashMap::new(),
        extras: Vec::new(),
        cwd: None,
        now,
    };
    let links: Vec<Vec<usize>> = paths
        .threads
        .iter()
        .map(|t| b.thread_links(lines, &t.lines, parsed))
        .collect();
    let ids: Vec<ThreadId> = links.iter().map(|_| ThreadId::new()).collect();
    let threads = paths
        .threads
        .iter()
        .zip(&links)
        .enumerate()
        .map(|(k, (t, links))| {
            let times = links.iter().map(|&m| b.messages[m].1.created_at);
            let created_at = times.clone().min().unwrap_or(now);
            ImportThread {
                id: ids[k],
                original_thread_id: t.original.map(|o| ids[o]),
                origin: match t.original {
                    None => ThreadOrigin::Initial,
                    Some(_) => ThreadOrigin::SourceBranch { branch: t.kind },
                },
                revision: links.len() as u64,
                links: links.iter().map(|&m| b.messages[m].1.id).collect(),
                created_at,
                updated_at: times.max().unwrap_or(now).max(created_at),
            }
        })
        .collect();
    let mut messages = b.messages;
    messages.sort_by_key(|(no, _)| *no);
    Draft {
        conversation_id: b.conversation_id,
        messages: messages.into_iter().map(|(_, m)| m).collect(),
        threads,
        current: ids[paths.current.min(ids.len().saturating_sub(1))],
        extras: b.extras,
        cwd: b.cwd,
    }
}

impl Building {
    /// The messages (indexes into `messages`) of one thread of lines, creating those not made
    /// by an earlier thread.
    fn thread_links(
        &mut self,
        lines: &mut [LineRecord],
        path: &[usize],
        parsed: &mut Parsed,
    ) -> Vec<usize> {
        let mut links: Vec<usize> = Vec::new();
        // The message this walk may still add lines of the same API response to.
        let mut open: Option<(usize, String)> = None;
        let mut last_time: Option<DateTime<Utc>> = None;
        for &i in path {
            let line = &mut lines[i];
            let time = line.timestamp.or(last_time).unwrap_or(self.now);
            last_time = Some(time);
            if let Some(&m) = self.message_of_line.get(&i) {
                if links.last() != Some(&m) {
                    links.push(m);
                }
                open = None;
                continue;
            }
            let no = line.no;
            let uuid = line.uuid.clone();
            match std::mem::replace(&mut line.body, Body::Taken) {
                Body::Taken => {}
                Body::Raw(json) => {
                    parsed.record_metadata();
                    self.extras
                        .push(json!({"line": no, "chain": true, "json": json}));
                }
                Body::Message(message) => {
                    parsed.record_message();
                    let m = self.add_line(*message, no, uuid, time, &mut open);
                    self.message_of_line.insert(i, m);
                    if links.last() != Some(&m) {
                        links.push(m);
                    }
                }
            }
        }
        links
    }

    fn add_line(
        &mut self,
        line: MessageLine,
        no: usize,
        uuid: Option<String>,
        time: DateTime<Utc>,
        open: &mut Option<(usize, String)>,
    ) -> usize {
        let MessageLine {
            role,
            api_id,
            items,
            meta,
        } = line;
        if self.cwd.is_none() {
            self.cwd = meta
                .get("json")
                .and_then(|j| j.get("cwd"))
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        // One API response written as several lines is one message.
        if let (Some((m, open_id)), Some(id)) = (open.as_ref(), api_id.as_deref()) {
            let message = &mut self.messages[*m].1;
            if message.role == role && open_id == id {
                message.content.extend(items);
                push_line_meta(message, meta);
                return *m;
            }
        }
        let message = Message {
            id: MessageId::new(),
            conversation_id: self.conversation_id,
            squash_operation_id: None,
            reply_to: None,
            role,
            content: items,
            instructions: Vec::new(),
            metadata: Some(json!({
                SOURCE_ID_KEY: uuid,
                META_KEY: {"lines": [Value::Object(meta)]},
            })),
            created_at: time,
        };
        self.messages.push((no, message));
        let m = self.messages.len() - 1;
        *open = api_id
            .filter(|_| role == squash_core::Role::Assistant)
            .map(|id| (m, id));
        m
    }
}

fn push_line_meta(message: &mut Message, meta: Map<String, Value>) {
    if let Some(lines) = message
        .metadata
        .as_mut()
        .and_then(|m| m.get_mut(META_KEY))
        .and_then(|c| c.get_mut("lines"))
        .and_then(Value::as_array_mut)
    {
        lines.push(Value::Object(meta));
    }
}
