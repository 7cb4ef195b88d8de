//! The conversations of a session, from the drafts of its groups: every line no thread took
//! is kept with its conversation for the export, names and keys are given, and sub-agent runs
//! are tied to the call that started them.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use squash_core::SourceFormat;

use super::chain::{Group, GroupKey};
use super::deferred::{DeferredMessages, LineSource, MessagePlan};
use super::lines::text_digest;
use super::lines::LineRecord;
use super::messages::{message_of, Draft};
use super::naming::{display_name, first_prompt, prefix, task_calls};
use super::restore::take_raw;
use super::tree::Tree;
use super::META_KEY;
use crate::anthropic_json::{short, ToolNames};
use crate::{ContentCounts, ImportedConversation, Parsed};

pub(super) struct Assembly<'a> {
    pub source_name: &'a str,
    pub session: Option<String>,
    pub content_hash: &'a str,
    pub now: DateTime<Utc>,
    pub lines: &'a mut [LineRecord],
    /// The tree of `lines`, which knows their uuids.
    pub tree: &'a Tree,
    pub names: &'a ToolNames,
    /// Main first.
    pub groups: &'a [Group],
    /// One per group: `None` when the group holds no message.
    pub drafts: Vec<Option<Draft>>,
    pub parsed: &'a mut Parsed,
    /// Set for a streamed read: the messages are made when they are stored.
    pub source: Option<Arc<LineSource>>,
    /// A file of sub-agent runs only (`<session>/subagents/agent-*.jsonl`): the session they
    /// belong to, whose `Task` calls started them.
    pub parent: Option<&'a ParentSession>,
}

/// The session a file of sub-agent runs belongs to: its name and its `Task` calls
/// (tool-use id, prompt, description).
#[derive(Clone, Debug, Default)]
pub struct ParentSession {
    pub display_name: String,
    pub tasks: Vec<(String, String, String)>,
}

pub(super) fn assemble(a: Assembly<'_>) {
    let Assembly {
        source_name,
        session,
        content_hash,
        now,
        lines,
        tree,
        names,
        groups,
        mut drafts,
        parsed,
        source: line_source,
        parent,
    } = a;
    let extras = leftover_extras(
        Leftovers {
            source_name,
            lines,
            names,
            source: line_source.as_deref(),
        },
        groups,
        &mut drafts,
        parsed,
    );
    let session =
        session.unwrap_or_else(|| short(source_name).trim_end_matches(".jsonl").to_owned());
    let main_key = format!("claude-code:{session}");
    let source = short(source_name).to_owned();
    let mut out: Vec<ImportedConversation> = Vec::new();
    let mut parts = drafts.into_iter().zip(extras).zip(groups);
    let made = |draft: Draft, extras| {
        let tasks = task_calls(&draft.plans);
        let prompt = first_prompt(&draft.plans);
        let conv = conversation(draft, extras, &source, now, tree, line_source.clone());
        (conv, tasks, prompt)
    };
    let main = parts
        .next()
        .and_then(|((draft, extras), _)| Some(made(draft?, extras)));
    let main_name = main
        .as_ref()
        .map(|(c, _, _)| c.display_name.clone())
        .or_else(|| parent.map(|p| p.display_name.clone()))
        .unwrap_or_else(|| format!("Claude Code session {}", prefix(&session)));
    let mut tasks = main
        .as_ref()
        .map(|(_, tasks, _)| tasks.clone())
        .unwrap_or_default();
    if let Some(p) = parent {
        tasks.extend(p.tasks.iter().cloned());
    }
    if let Some((mut conv, main_tasks, _)) = main {
        conv.task_calls = main_tasks;
        conv.source_key = main_key.clone();
        set_meta(&mut conv, "session_id", Value::String(session.clone()));
        conv.content_hash = content_hash.to_owned();
        out.push(conv);
    }
    for ((draft, extras), group) in parts {
        let Some(draft) = draft else { continue };
        let root_uuid = group
            .members
            .first()
            .and_then(|&i| lines[i].uuid.map(|u| tree.text(u)));
        let agent_id = match &group.key {
            GroupKey::Agent(agent) => Some(agent.clone()),
            _ => None,
        };
        let (mut conv, _, prompt) = made(draft, extras);
        // The call that started the run: the one whose time it ran in, else the one whose
        // prompt it starts with.
        let task = match &group.key {
            GroupKey::Task(id) => tasks.iter().find(|(t, _, _)| t == id),
            _ => None,
        }
        .or_else(|| {
            tasks
                .iter()
                .find(|(_, p, _)| Some(text_digest(p)) == prompt)
        });
        conv.display_name = match task {
            Some((_, _, description)) if !description.is_empty() => {
                format!("{main_name} · sub-agent: {description}")
            }
            // Claude Code runs its own compaction as a sub-agent (`agent-acompact-*`).
            _ if agent_id
                .as_deref()
                .is_some_and(|a| a.starts_with("acompact")) =>
            {
                format!("{main_name} · compaction request")
            }
            _ => format!("{main_name} · sub-agent: {}", conv.display_name),
        };
        let key_part = root_uuid.clone().or(agent_id.clone());
        conv.source_key = format!("{main_key}/sidechain:{}", key_part.as_deref().unwrap_or(""));
        conv.sidechain = true;
        conv.content_hash = content_hash.to_owned();
        set_meta(&mut conv, "session_id", Value::String(session.clone()));
        set_meta(
            &mut conv,
            "sidechain",
            json!({
                "root_uuid": root_uuid,
                "parent_source_key": main_key,
                "parent_tool_use_id": task.map(|t| t.0.clone()),
                "agent_id": agent_id,
            }),
        );
        out.push(conv);
    }
    parsed.conversations.extend(out);
}

/// The extras of each group: the lines of its threads that are no message, and every line no
/// thread took. A group without a conversation leaves its lines to the main conversation (or
/// the first there is); with no conversation at all they are reported as skipped.
struct Leftovers<'a, 'b> {
    source_name: &'a str,
    lines: &'b mut [LineRecord],
    names: &'a ToolNames,
    source: Option<&'a LineSource>,
}

fn leftover_extras(
    l: Leftovers<'_, '_>,
    groups: &[Group],
    drafts: &mut [Option<Draft>],
    parsed: &mut Parsed,
) -> Vec<Vec<Value>> {
    let mut extras: Vec<Vec<Value>> = drafts
        .iter_mut()
        .map(|d| {
            d.as_mut()
                .map(|d| std::mem::take(&mut d.extras))
                .unwrap_or_default()
        })
        .collect();
    let first_home = drafts.iter().position(Option::is_some);
    for (g, group) in groups.iter().enumerate() {
        let home = if drafts[g].is_some() {
            Some(g)
        } else {
            first_home
        };
        let mut untaken: Vec<usize> = group.members.iter().chain(&group.loose).copied().collect();
        untaken.sort_unstable();
        for i in untaken {
            let no = l.lines[i].no;
            let json = match take_raw(&mut l.lines[i], l.names, l.source) {
                Ok(Some(json)) => json,
                Ok(None) => continue,
                Err(e) => {
                    parsed.skip_record(l.source_name, Some(no), e.to_string());
                    continue;
                }
            };
            match home {
                Some(h) => {
                    parsed.record_metadata();
                    extras[h].push(json!({"line": no, "chain": false, "json": json}));
                }
                None => parsed.skip_record(
                    l.source_name,
                    Some(no),
                    "no user or assistant message in this file to keep this line with",
                ),
            }
        }
    }
    extras
}

fn conversation(
    draft: Draft,
    mut extras: Vec<Value>,
    source: &str,
    now: DateTime<Utc>,
    tree: &Tree,
    line_source: Option<Arc<LineSource>>,
) -> ImportedConversation {
    extras.sort_by_key(|e| e.get("line").and_then(Value::as_u64));
    let name = display_name(&draft.plans, &extras);
    let id = draft.conversation_id;
    let (first, last) = (
        draft.plans.first().map(|p| p.created_at),
        draft.plans.last().map(|p| p.created_at),
    );
    let (messages, deferred) = match line_source {
        None => {
            let messages = draft.plans.into_iter().map(|p| {
                let contents = p.lines.into_iter().filter_map(|l| l.content.map(|c| *c));
                message_of(
                    id,
                    p.id,
                    p.role,
                    p.created_at,
                    p.source_uuid.map(|u| tree.text(u)).as_deref(),
                    contents,
                )
            });
            (messages.collect(), None)
        }
        Some(line_source) => {
            let mut counts = ContentCounts::default();
            for plan in &draft.plans {
                counts.messages += 1;
                for line in &plan.lines {
                    let [calls, results, errors, thinking, images, unknown] =
                        line.facts.counts.map(usize::from);
                    counts.add(&ContentCounts {
                        messages: 0,
                        tool_calls: calls,
                        tool_results: results,
                        tool_errors: errors,
                        thinking,
                        images,
                        unknown,
                    });
                }
            }
            let plans = draft.plans.into_iter().map(MessagePlan::of).collect();
            let deferred = DeferredMessages::new(line_source, id, plans, counts);
            (Vec::new(), Some(deferred))
        }
    };
    let mut conv = ImportedConversation::linear(
        SourceFormat::ClaudeCode,
        String::new(),
        id,
        name,
        messages,
        now,
    );
    conv.created_at = first.unwrap_or(now);
    conv.updated_at = last.unwrap_or(now).max(conv.created_at);
    conv.deferred = deferred;
    conv.appendable = draft.threads.len() == 1;
    conv.threads = draft.threads;
    conv.current_thread_id = draft.current;
    conv.project_path = draft.cwd;
    conv.metadata = Some(json!({
        META_KEY: {
            "source": source,
            "extras": extras,
        }
    }));
    conv
}

fn set_meta(conv: &mut ImportedConversation, key: &str, value: Value) {
    if let Some(obj) = conv
        .metadata
        .as_mut()
        .and_then(|m| m.get_mut(META_KEY))
        .and_then(Value::as_object_mut)
    {
        obj.insert(key.to_owned(), value);
    }
}
