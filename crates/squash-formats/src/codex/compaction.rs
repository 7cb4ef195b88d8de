//! Compaction. A `compacted` line with a `replacement_history` replaces what the model sees by
//! that history: the thread so far is kept (one can switch back to it) and a new thread, derived
//! from it, starts with the replacement history and goes on with the rest of the rollout.
//! Older rollouts' `compacted` lines carry only the summary: a system message in the thread.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use squash_core::BranchKind;
use squash_core::{ContentItem, ImportThread, Message, MessageId, Role, SystemLevel, ThreadId};

use super::build::{new_message, note_on};
use super::content::message_items;
use super::{CodexParser, Side};
use crate::fields::{source_thread, whole_history_thread};

/// The threads of a rollout: one per compaction, plus the current one (and, after a
/// compaction, the whole history).
#[derive(Debug, Default)]
pub(super) struct Threads {
    /// Each finished thread's links, with the time the next one started.
    done: Vec<(Vec<MessageId>, DateTime<Utc>)>,
    current: Vec<MessageId>,
    /// What the compactions wrote: their notes and replacement histories.
    compactions: HashSet<MessageId>,
}

impl Threads {
    /// A message read into the current thread.
    pub(super) fn link(&mut self, id: MessageId) {
        self.current.push(id);
    }

    /// The threads to import, parents first, and which is current: the thread after the last
    /// compaction. After a compaction, the whole history comes last, derived from it.
    pub(super) fn into_import(
        self,
        messages: &[Message],
        now: DateTime<Utc>,
    ) -> (Vec<ImportThread>, ThreadId) {
        let time_of = |id: &MessageId| messages.iter().find(|m| m.id == *id).map(|m| m.created_at);
        let mut starts = vec![None];
        starts.extend(self.done.iter().map(|(_, t)| Some(*t)));
        let mut lists: Vec<Vec<MessageId>> = self.done.into_iter().map(|(l, _)| l).collect();
        lists.push(self.current);
        let mut out: Vec<ImportThread> = Vec::with_capacity(lists.len());
        for (i, links) in lists.iter().enumerate() {
            let first = links.first().and_then(time_of).unwrap_or(now);
            let created_at = starts[i].unwrap_or(first);
            let updated_at = links.last().and_then(time_of).unwrap_or(created_at);
            let parent = i
                .checked_sub(1)
                .map(|p| (out[p].id, BranchKind::Compaction));
            let id = ThreadId::new();
            out.push(source_thread(
                id,
                parent,
                links.clone(),
                created_at,
                updated_at,
            ));
        }
        let current = out[out.len() - 1].id;
        let lists: Vec<&[MessageId]> = lists.iter().map(Vec::as_slice).collect();
        if let Some(whole) =
            whole_history_thread(&out, current, &lists, &self.compactions, messages)
        {
            out.push(whole);
        }
        (out, current)
    }
}

impl CodexParser {
    pub(super) fn compacted(
        &mut self,
        no: usize,
        time: DateTime<Utc>,
        payload: Value,
        envelope: Map<String, Value>,
    ) {
        self.prompts.turn_moved_on();
        let summary = payload
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let history = match payload.get("replacement_history") {
            Some(Value::Array(items)) => Some(items.clone()),
            _ => None,
        };
        let Some(history) = history else {
            let content = match summary {
                Some(s) => format!("Conversation compacted. Summary:\n{s}"),
                None => "Conversation compacted.".to_owned(),
            };
            self.system_note(content, no, time, payload, envelope);
            return;
        };
        let before = std::mem::take(&mut self.threads.current);
        self.threads.done.push((before.clone(), time));
        self.system_note(
            "Conversation compacted: the model goes on from the history below.".to_owned(),
            no,
            time,
            payload,
            envelope,
        );
        self.replay(&history, &before, no, time);
        // The note and the replacement history's new messages (those the thread before had
        // stay that thread's).
        let before: HashSet<MessageId> = before.into_iter().collect();
        let written: Vec<MessageId> = (self.threads.current.iter())
            .filter(|id| !before.contains(id))
            .copied()
            .collect();
        self.threads.compactions.extend(written);
    }

    /// A system message of its own for line `no`, holding its whole payload.
    fn system_note(
        &mut self,
        content: String,
        no: usize,
        time: DateTime<Utc>,
        payload: Value,
        envelope: Map<String, Value>,
    ) {
        self.start(Side::System, Role::System, no, time);
        let item = ContentItem::System {
            level: SystemLevel::Info,
            content,
            tool_use_id: None,
        };
        self.add(item, no, time, payload, Some(envelope));
        self.open = None;
    }

    /// Links the messages of a replacement history into the new thread: a message the thread
    /// before had (same role and content) is linked again, any other is a new message. Items
    /// that are no messages (the tool list) stay only in the compaction's payload.
    fn replay(&mut self, history: &[Value], before: &[MessageId], no: usize, time: DateTime<Utc>) {
        let mut reused: HashSet<MessageId> = HashSet::new();
        for (i, item) in history.iter().enumerate() {
            if item.get("type").and_then(Value::as_str) != Some("message") {
                continue;
            }
            let role = match item.get("role").and_then(Value::as_str) {
                Some("assistant") => Role::Assistant,
                Some("user") => Role::User,
                _ => Role::System,
            };
            let items = message_items(role, item.get("content").unwrap_or(&Value::Null));
            let same = self.messages.iter().find(|m| {
                m.role == role
                    && m.content == items
                    && before.contains(&m.id)
                    && !reused.contains(&m.id)
            });
            if let Some(m) = same {
                reused.insert(m.id);
                self.threads.link(m.id);
                continue;
            }
            let mut message = new_message(self, role, format!("line:{no}:{i}"), time);
            message.content = items;
            let count = message.content.len();
            let mut rest = item.clone();
            if let Some(obj) = rest.as_object_mut() {
                obj.remove("content");
                obj.insert("replacement_index".to_owned(), Value::from(i));
            }
            note_on(&mut message, no, time, rest, count, Some(Map::new()));
            self.threads.link(message.id);
            self.messages.push(message);
        }
    }
}
