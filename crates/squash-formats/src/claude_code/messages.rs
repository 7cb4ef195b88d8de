//! The messages and threads of one conversation, from its threads of lines. A line is one
//! message however many threads hold it; the consecutive assistant lines of one API response
//! (same `message.id`) are one message.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use squash_core::{
    ConversationId, ImportThread, Instruction, InstructionSource, Message, MessageId, Role,
    ThreadId,
};

use super::keys::Key;
use super::lines::{small, Body, LineRecord, MessageLine};
use super::threads::Paths;
use super::META_KEY;
use crate::fields::{imported_message, source_thread};
use crate::{Parsed, SOURCE_ID_KEY};

/// A message before it has content: its id, time and the lines that make it (one, or the
/// consecutive lines of one API response). Their content is in memory, or read again from the
/// file when the message is stored (a streaming read).
pub(super) struct Plan {
    pub id: MessageId,
    pub role: Role,
    pub created_at: DateTime<Utc>,
    /// The first line's uuid: the message's source identity.
    pub source_uuid: Option<Key>,
    #[expect(
        clippy::vec_box,
        reason = "a line's box moves here from its record, which stays until every conversation \
                  of the session is built: unboxed, each line would be held twice"
    )]
    pub lines: Vec<Box<MessageLine>>,
}

impl Plan {
    pub fn first(&self) -> Option<&MessageLine> {
        self.lines.first().map(|l| &**l)
    }
}

/// A conversation's content before it gets its name and metadata.
pub(super) struct Draft {
    pub conversation_id: ConversationId,
    /// In creation (file) order.
    pub plans: Vec<Plan>,
    pub threads: Vec<ImportThread>,
    pub current: ThreadId,
    /// Lines of a thread that are no message (progress, attachments), kept for the export.
    pub extras: Vec<Value>,
    pub cwd: Option<String>,
}

struct Building {
    conversation_id: ConversationId,
    /// `(first line number, plan)`.
    plans: Vec<(usize, Plan)>,
    message_of_line: HashMap<u32, u32>,
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
        plans: Vec::new(),
        message_of_line: HashMap::new(),
        extras: Vec::new(),
        cwd: None,
        now,
    };
    let links: Vec<Vec<u32>> = paths
        .threads
        .iter()
        .map(|t| b.thread_links(lines, &t.lines, parsed))
        .collect();
    // Held while the threads' ids are made and after, beside them: without its growth's room.
    b.plans.shrink_to_fit();
    let ids: Vec<ThreadId> = links.iter().map(|_| ThreadId::new()).collect();
    let threads = paths
        .threads
        .iter()
        .zip(&links)
        .enumerate()
        .map(|(k, (t, links))| {
            let times = links.iter().map(|&m| b.plans[m as usize].1.created_at);
            let created_at = times.clone().min().unwrap_or(now);
            let parent = t.original.map(|o| (ids[o], t.kind));
            let links = links.iter().map(|&m| b.plans[m as usize].1.id).collect();
            let updated_at = times.max().unwrap_or(now);
            source_thread(ids[k], parent, links, created_at, updated_at)
        })
        .collect();
    let mut plans = b.plans;
    // Each plan starts at a line of its own, so no two keys are equal and the order is the
    // stable sort's; in place, where the stable sort took a buffer of half the plans.
    plans.sort_unstable_by_key(|(no, _)| *no);
    Draft {
        conversation_id: b.conversation_id,
        plans: plans.into_iter().map(|(_, m)| m).collect(),
        threads,
        current: ids[paths.current.min(ids.len().saturating_sub(1))],
        extras: b.extras,
        cwd: b.cwd,
    }
}

impl Building {
    /// The messages (indexes into `plans`) of one thread of lines, creating those not made
    /// by an earlier thread. (In 4 bytes each, and no more room than the path's lines: a
    /// session's threads are its largest structure but its lines.)
    fn thread_links(
        &mut self,
        lines: &mut [LineRecord],
        path: &[usize],
        parsed: &mut Parsed,
    ) -> Vec<u32> {
        let mut links: Vec<u32> = Vec::with_capacity(path.len());
        // The message this walk may still add lines of the same API response to.
        let mut open: Option<(usize, u64)> = None;
        let mut last_time: Option<DateTime<Utc>> = None;
        for &i in path {
            let line = &mut lines[i];
            let time = line.timestamp.or(last_time).unwrap_or(self.now);
            last_time = Some(time);
            if let Some(&m) = self.message_of_line.get(&small(i)) {
                if links.last() != Some(&m) {
                    links.push(m);
                }
                open = None;
                continue;
            }
            let no = line.no;
            let uuid = line.uuid;
            match std::mem::replace(&mut line.body, Body::Taken) {
                Body::Taken => {}
                Body::Raw(json) => {
                    parsed.record_metadata();
                    self.extras
                        .push(json!({"line": no, "chain": true, "json": *json}));
                }
                Body::Message(message) => {
                    parsed.record_message();
                    let m = small(self.add_line(message, no, uuid, time, &mut open));
                    self.message_of_line.insert(small(i), m);
                    if links.last() != Some(&m) {
                        links.push(m);
                    }
                }
            }
        }
        links.shrink_to_fit();
        links
    }

    fn add_line(
        &mut self,
        line: Box<MessageLine>,
        no: usize,
        uuid: Option<Key>,
        time: DateTime<Utc>,
        open: &mut Option<(usize, u64)>,
    ) -> usize {
        if self.cwd.is_none() {
            self.cwd = line.facts.cwd.as_deref().map(str::to_owned);
        }
        let (role, api_id) = (line.role, line.api_id);
        // One API response written as several lines is one message.
        if let (Some((m, open_id)), Some(id)) = (open.as_ref(), api_id) {
            let plan = &mut self.plans[*m].1;
            if plan.role == role && *open_id == id {
                plan.lines.push(line);
                return *m;
            }
        }
        self.plans.push((
            no,
            Plan {
                id: MessageId::new(),
                role,
                created_at: time,
                source_uuid: uuid,
                lines: vec![line],
            },
        ));
        let m = self.plans.len() - 1;
        *open = api_id.filter(|_| role == Role::Assistant).map(|id| (m, id));
        m
    }
}

/// The message of `plan` from the content of its lines (`contents`, one per line, in order):
/// the one place a stored message is made, whether its lines were kept or read again.
pub(super) fn message_of(
    conversation_id: ConversationId,
    id: MessageId,
    role: Role,
    created_at: DateTime<Utc>,
    source_uuid: Option<&str>,
    contents: impl IntoIterator<Item = super::lines::LineContent>,
) -> Message {
    let mut content = Vec::new();
    let mut metas = Vec::new();
    let mut harness = false;
    for c in contents {
        content.extend(c.items);
        // Claude Code marks the user lines it writes itself (a slash command's expanded
        // template, a skill's body) `isMeta`: the person did not type them.
        harness |= c.meta.get("json").and_then(|j| j.get("isMeta")) == Some(&Value::Bool(true));
        metas.push(Value::Object(c.meta));
    }
    // Built in place: `json!` would copy the lines' metadata, a deep copy of each line's JSON
    // but its content, for every message a streamed session makes (twice on a resume).
    let mut lines = Map::new();
    lines.insert("lines".into(), Value::Array(metas));
    let mut metadata = Map::new();
    metadata.insert(
        SOURCE_ID_KEY.into(),
        source_uuid.map_or(Value::Null, |u| Value::String(u.to_owned())),
    );
    metadata.insert(META_KEY.into(), Value::Object(lines));
    let metadata = Value::Object(metadata);
    let made = imported_message(conversation_id, role, content, metadata, created_at);
    let instructions = if harness && role == Role::User {
        vec![Instruction::Source {
            source: InstructionSource::Agent,
        }]
    } else {
        made.instructions
    };
    Message {
        id,
        instructions,
        ..made
    }
}
