//! A readable transcript of one thread. Squashed and edited messages say where they came from
//! (their operation: sources, manual or AI with model, who, when).

use std::collections::HashMap;

use serde_json::Value;
use squash_core::{
    render, ContentItem, Conversation, Message, SquashOperation, SquashOperationId, Thread,
};

pub struct Transcript<'a> {
    pub conversation: &'a Conversation,
    pub project: &'a str,
    pub thread: &'a Thread,
    pub messages: &'a [Message],
    pub operations: &'a HashMap<SquashOperationId, SquashOperation>,
}

/// A code fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

fn block(lang: &str, text: &str) -> String {
    let f = fence(text);
    format!("{f}{lang}\n{}\n{f}\n", text.trim_end_matches('\n'))
}

fn quote(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                ">".to_owned()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The shortest label of each id that no other id of the document shares. Ids are UUIDv7: their
/// first twelve digits are the millisecond they were made in, so ids of one squash or one import
/// share a long prefix. The label is a prefix (at least [`MIN_LABEL`] characters) rather than
/// the random tail because prefixes are what the CLI resolves.
struct Labels(HashMap<String, String>);

const MIN_LABEL: usize = 8;

impl Labels {
    fn new(ids: impl IntoIterator<Item = String>) -> Labels {
        let mut ids: Vec<String> = ids.into_iter().collect();
        ids.sort();
        ids.dedup();
        let common =
            |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        let labels = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                // In sorted order the longest prefix shared with any other id is shared with a
                // neighbour.
                let before = i.checked_sub(1).map_or(0, |j| common(&ids[j], id));
                let after = ids.get(i + 1).map_or(0, |next| common(next, id));
                let len = (before.max(after) + 1).max(MIN_LABEL).min(id.len());
                (id.clone(), id[..len].to_owned())
            })
            .collect();
        Labels(labels)
    }

    fn of(&self, id: impl ToString) -> String {
        let id = id.to_string();
        match self.0.get(&id) {
            Some(label) => label.clone(),
            None => id,
        }
    }
}

/// Every id the document names: the operations of its messages and their sources, and the
/// thread's messages (which the sources are told apart from).
fn labels(t: &Transcript<'_>) -> Labels {
    let mut ids: Vec<String> = t.messages.iter().map(|m| m.id.to_string()).collect();
    for op_id in t.messages.iter().filter_map(|m| m.squash_operation_id) {
        ids.push(op_id.to_string());
        if let Some(op) = t.operations.get(&op_id) {
            ids.extend(op.source_message_ids.iter().map(ToString::to_string));
        }
    }
    Labels::new(ids)
}

fn provenance(
    message: &Message,
    operations: &HashMap<SquashOperationId, SquashOperation>,
    positions: &HashMap<squash_core::MessageId, usize>,
    labels: &Labels,
) -> Option<String> {
    let op_id = message.squash_operation_id?;
    let Some(op) = operations.get(&op_id) else {
        return Some(format!(
            "> ◆ Result of operation `{}` (record not found)\n",
            labels.of(op_id)
        ));
    };
    let how = if op.kind.performed_by_agent() {
        match (op.kind.model(), op.kind.provider()) {
            (Some(model), Some(provider)) => format!("AI ({provider}, {model})"),
            (Some(model), None) => format!("AI ({model})"),
            _ => "AI".to_owned(),
        }
    } else {
        "manual".to_owned()
    };
    let sources = op
        .source_message_ids
        .iter()
        .map(|s| match positions.get(s) {
            Some(n) => format!("#{n} `{}`", labels.of(s)),
            None => format!("`{}`", labels.of(s)),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let verb = if op.is_edit() {
        "Edited".to_owned()
    } else {
        format!("Squashed from {} messages", op.source_message_ids.len())
    };
    let mut out = format!(
        "> ◆ **{verb}** — {how}, {}{} — operation `{}`; sources: {sources}\n",
        op.created_at.format("%Y-%m-%d %H:%M UTC"),
        op.performed_by
            .as_ref()
            .map(|who| format!(", by {who}"))
            .unwrap_or_default(),
        labels.of(op.id),
    );
    if let Some(instructions) = op.kind.custom_instructions() {
        out.push_str(&format!("> Instructions: {instructions}\n"));
    }
    Some(out)
}

fn item_markdown(item: &ContentItem) -> String {
    match item {
        ContentItem::UserMessage { text } => format!("{text}\n"),
        ContentItem::AssistantMessage { structured } => format!("{}\n", structured.full_text),
        ContentItem::ToolCall { id, name, input } => {
            let input = serde_json::to_string_pretty(input).unwrap_or_default();
            format!(
                "**Tool call `{name}`** (`{id}`)\n\n{}",
                block("json", &input)
            )
        }
        ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            is_error,
        } => {
            let body = render::results_text(result);
            format!(
                "**Tool {} `{}`** (`{tool_use_id}`)\n\n{}",
                if *is_error { "error" } else { "result" },
                if tool_name.is_empty() { "?" } else { tool_name },
                block("", &body)
            )
        }
        ContentItem::Thinking { thinking, .. } => {
            format!("> **Thinking**\n>\n{}\n", quote(thinking))
        }
        ContentItem::System { level, content, .. } => {
            format!("> **System ({})**\n>\n{}\n", level.as_str(), quote(content))
        }
        ContentItem::Image { source } => format!("*[image: {}]*\n", render::image_label(source)),
        ContentItem::UnknownJson { json } => format!(
            "*Unknown content*\n\n{}",
            block(
                "json",
                &serde_json::to_string_pretty(json).unwrap_or_default()
            )
        ),
    }
}

fn note(message: &Message) -> Option<&'static str> {
    let line = message
        .metadata
        .as_ref()?
        .get(crate::claude_code::META_KEY)?
        .get("lines")?
        .get(0)?
        .get("json")?;
    let flag = |k: &str| line.get(k).and_then(Value::as_bool) == Some(true);
    if flag("isCompactSummary") {
        Some("*(compaction summary)*")
    } else if flag("isMeta") {
        Some("*(injected by Claude Code)*")
    } else {
        None
    }
}

pub fn render(t: &Transcript<'_>) -> String {
    let mut out = format!(
        "# {}\n\n- Conversation: `{}`\n- Project: `{}`\n- Thread: `{}` ({}{}) · {} messages\n- Exported: {}\n",
        t.conversation.display_name,
        t.conversation.id,
        t.project,
        t.thread.id,
        t.thread.origin.label(),
        if t.thread.id == t.conversation.current_thread_id {
            ", current"
        } else {
            ""
        },
        t.messages.len(),
        squash_core::time::now().format("%Y-%m-%d %H:%M UTC"),
    );
    let positions: HashMap<_, _> = t
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id, i + 1))
        .collect();
    let labels = labels(t);
    for (i, m) in t.messages.iter().enumerate() {
        let role = match m.role {
            squash_core::Role::User => "User",
            squash_core::Role::Assistant => "Assistant",
            squash_core::Role::System => "System",
        };
        out.push_str(&format!(
            "\n---\n\n### {} · {role} · {}{}\n\n",
            i + 1,
            m.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
            note(m).map(|n| format!(" {n}")).unwrap_or_default(),
        ));
        if let Some(p) = provenance(m, t.operations, &positions, &labels) {
            out.push_str(&p);
            out.push('\n');
        }
        let items: Vec<String> = m.content.iter().map(item_markdown).collect();
        out.push_str(&items.join("\n"));
    }
    out
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
